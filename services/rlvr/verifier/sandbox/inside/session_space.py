"""A session's own kernel namespaces: its spawner, and PID 1's handle on them.

A stateful session lives for minutes beside hundreds of others in one container, so its
namespaces need a process of their own to hold them: its **spawner**. PID 1 asks the zygote for
one (`SessionSpace.begin`); the zygote clones it straight into fresh namespaces
(`namespaces.clone_into_job_namespaces`, a network namespace too) as PID 1's own child. The
spawner is PID 1 of the session's PID namespace, its init: it maps its ids, mounts a fresh tmpfs
at `/tmp`, hides the cgroup tree, mounts the namespace's `/proc`, drops every capability, adds
the job filter (no namespaces, no mounts, no PR_SET_DUMPABLE) and serves the zygote's spawn
protocol for the session's kernel, reaping whatever the session orphans.

The kernel sees only its session: pids from 1 (1 is the spawner: as the namespace's init it
takes no signal the kernel sends, and as a non-dumpable process it shows none of its files), a
`/proc` of the session's processes, a `/tmp` no earlier session wrote. The pids the spawner
reports are the container's (`ContainerPids`), the ones PID 1 kills. PID 1 reaches the tmpfs
through a directory descriptor the spawner sends it (`work_root`). Closing the session kills the
spawner: the kernel kills whatever is left in the namespace, and the tmpfs goes with the last
descriptor.

A `/code` job, one call long, is made another way (`jobspace.py`): there the zygote enters the
job's namespaces itself, and no process but the job's init is made for them.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import time

from rlvr.verifier.sandbox.inside.namespaces import (
    drop_capabilities,
    map_own_ids,
    mount_fresh_proc,
    mount_job_filesystems,
)
from rlvr.verifier.sandbox.inside.procs import ContainerPids, open_own_oom_score_adj
from rlvr.verifier.sandbox.inside.seccomp import install_seccomp, job_filter_program
from rlvr.verifier.sandbox.inside.zygote import WORK_ROOT, Zygote, ZygoteLost

# Time a session's spawner may take to report ready (it maps, mounts: ~ms).
_READY_TIMEOUT_S = 10.0
# The job filter, made once in the zygote (a spawner would pay copy-on-write faults for it).
_JOB_FILTER: bytes | None = None


def prepare_session_spawners() -> None:
    """In the zygote, before any session: what every spawner uses, made once."""
    global _JOB_FILTER
    _JOB_FILTER = job_filter_program(os.uname().machine)


def session_spawner_main(sock: socket.socket, tmpfs_mb: int, ids: tuple[int, int]) -> None:
    """In a session's spawner (the zygote's clone, PID 1's child, its namespace's init): set
    the session's namespaces up, confine itself, say ready with the work dir's descriptor, serve.
    `ids`: the container's uid and gid (unmapped, this process's own read as the overflow id)."""
    from rlvr.verifier.sandbox.inside import zygote

    try:
        os.setsid()  # a group of its own: pgid 1 names it alone, and no run joins it
        map_own_ids(*ids)
        # its own OOM score file and the container's /proc, before /proc becomes the job's
        zygote._OOM_FD = open_own_oom_score_adj()
        pids = ContainerPids()
        mount_job_filesystems(WORK_ROOT, tmpfs_mb)
        mount_fresh_proc()
        work_fd = os.open(WORK_ROOT, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        drop_capabilities()
        if _JOB_FILTER is None:
            raise RuntimeError("the zygote did not prepare the job filter")
        install_seccomp(_JOB_FILTER)
        ready = {"ready": True, "pid": pids.own}
    except Exception as exc:
        with contextlib.suppress(OSError):
            sock.send(json.dumps({"error": f"{type(exc).__name__}: {exc}"[:500]}).encode())
        os._exit(1)
    zygote._PRIVATE_FDS = [zygote._OOM_FD, pids.proc_fd]
    zygote._PIDS = pids
    socket.send_fds(sock, [json.dumps(ready).encode()], [work_fd])
    os.close(work_fd)
    zygote.serve(sock)
    os._exit(0)


class SessionSpace:
    """PID 1's handle on one session's namespaces: the spawner (`zygote`), the work dir."""

    def __init__(self, zygote: Zygote, work_fd: int) -> None:
        self.zygote = zygote
        self.work_fd = work_fd
        # where PID 1 reaches the session's /tmp (its kernel sees it as /tmp)
        self.work_root = f"/proc/self/fd/{work_fd}"

    @classmethod
    def open(cls, base: Zygote, tmpfs_mb: int, private_net: bool = False) -> SessionSpace:
        """A fresh session space, or an error that says why (the engine refused a step)."""
        ours = cls.begin(base, tmpfs_mb, private_net)
        try:
            ours.settimeout(_READY_TIMEOUT_S)
        except OSError:
            ours.close()
            raise
        return cls.complete(ours)

    @staticmethod
    def begin(base: Zygote, tmpfs_mb: int, private_net: bool = False) -> socket.socket:
        """Ask for a space; its spawner says it is ready on the returned socket (`complete`),
        a few ms later: a caller with other work (a session container's PID 1) waits for it
        readable instead of blocking."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            base.fork_session_spawner(theirs, tmpfs_mb, private_net)
        except (OSError, ZygoteLost):
            ours.close()
            raise
        return ours

    @classmethod
    def complete(cls, ours: socket.socket) -> SessionSpace:
        """The space whose spawner answers on `ours` (blocks until it does, or its timeout)."""
        try:
            message, fds, _, _ = socket.recv_fds(ours, 1 << 12, 1)
            ours.settimeout(None)
        except OSError:
            ours.close()
            raise
        ready = json.loads(message) if message else {}
        if not ready.get("ready") or len(fds) != 1:
            for fd in fds:
                os.close(fd)
            ours.close()
            raise OSError(f"session namespaces: {ready.get('error', 'no answer from the spawner')}")
        return cls(Zygote(ours, int(ready["pid"])), fds[0])

    @property
    def pids(self) -> set[int]:
        return {self.zygote.pid}

    def close(self) -> None:
        """Kill the spawner, the session's init (the kernel then kills every process of the
        session), and reap it: PID 1's own child."""
        with contextlib.suppress(OSError):
            os.kill(self.zygote.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.close(self.work_fd)
        self.zygote.sock.close()
        self.zygote.is_alive = False
        deadline, pause = time.monotonic() + 2.0, 0.0002
        while time.monotonic() < deadline:
            try:
                if os.waitpid(self.zygote.pid, os.WNOHANG)[0]:
                    return
            except ChildProcessError:  # reaped already (a sweep's reap_all)
                return
            time.sleep(pause)  # the kernel is killing the job's processes
            pause = min(pause * 2, 0.01)
