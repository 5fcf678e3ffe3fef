"""A job's own kernel namespaces: its spawner, and PID 1's handle on them.

Per job, PID 1 asks the zygote for a **job spawner** (`JobSpace.open`). The zygote clones it
straight into fresh namespaces (`namespaces.clone_into_job_namespaces`) as PID 1's own child.
The spawner is PID 1 of the job's PID namespace, its init: it maps its ids, mounts a fresh
tmpfs at `/tmp`, hides the cgroup tree, mounts the namespace's `/proc`, drops every capability,
adds the job filter (no namespaces, no mounts, no PR_SET_DUMPABLE) and serves the zygote's
spawn protocol for the job's runs, reaping whatever the job orphans while it waits for them.

A run sees only its job: pids from 1 (1 is the spawner: as the namespace's init it takes no
signal a run sends, and as a non-dumpable process it shows a run none of its files), a `/proc`
of the job's processes (not PID 1's, not the zygote's), a `/tmp` no earlier job wrote. The pids
the spawner reports are the container's (`ContainerPids`), the ones PID 1 kills and sweeps. PID
1 reaches the job's tmpfs through a directory descriptor the spawner sends it (`work_root`,
`/proc/self/fd/N`): it writes each run's files and wipes them there. At the job's end PID 1
kills the spawner: the kernel kills whatever is left in the namespace, and the tmpfs goes with
the last descriptor.

One process per job besides its runs: each process here is a copy of the warm interpreter,
whose fork, copy-on-write faults and exit cost more CPU than a trivial run (measured:
`benchmarks/RESULTS.md`, "Tool calls").
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
from rlvr.verifier.sandbox.inside.procs import open_own_oom_score_adj
from rlvr.verifier.sandbox.inside.seccomp import install_seccomp, job_filter_program
from rlvr.verifier.sandbox.inside.zygote import WORK_ROOT, Zygote, ZygoteLost

# Time a job spawner may take to report ready (it maps, mounts: ~ms).
_READY_TIMEOUT_S = 10.0
# The job filter, made once in the zygote (a spawner would pay copy-on-write faults for it).
_JOB_FILTER: bytes | None = None


def prepare_job_spawners() -> None:
    """In the zygote, before any job: what every spawner uses, made once."""
    global _JOB_FILTER
    _JOB_FILTER = job_filter_program(os.uname().machine)


class ContainerPids:
    """The spawner's view of its runs' pids in the container's PID namespace, where PID 1
    lives: through a pidfd (a process, whatever namespace names it) and the container's
    `/proc`, kept open from before the job's own was mounted over it. `fdinfo` prints a
    pidfd's pid in the namespace of the /proc it is read through."""

    def __init__(self) -> None:
        self.proc_fd = os.open("/proc", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)

    @property
    def own(self) -> int:
        return int(os.readlink("self", dir_fd=self.proc_fd))

    def of(self, pid: int) -> int:
        pidfd = os.pidfd_open(pid)
        try:
            fd = os.open(f"self/fdinfo/{pidfd}", os.O_RDONLY, dir_fd=self.proc_fd)
            try:
                info = os.read(fd, 4096)
            finally:
                os.close(fd)
        finally:
            os.close(pidfd)
        start = info.index(b"Pid:") + 4
        outer = int(info[start : info.index(b"\n", start)])
        if outer <= 0:
            raise ProcessLookupError(pid)
        return outer


def job_spawner_main(sock: socket.socket, tmpfs_mb: int, ids: tuple[int, int]) -> None:
    """In the job spawner (the zygote's clone, PID 1's child, the job namespace's init): set
    the job's namespaces up, confine itself, say ready with the work dir's descriptor, serve.
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


class JobSpace:
    """PID 1's handle on one job's namespaces: the spawner (`zygote`), the work dir."""

    def __init__(self, zygote: Zygote, work_fd: int) -> None:
        self.zygote = zygote
        self.work_fd = work_fd
        # where PID 1 reaches the job's /tmp (runs see it as /tmp)
        self.work_root = f"/proc/self/fd/{work_fd}"

    @classmethod
    def open(cls, base: Zygote, tmpfs_mb: int, private_net: bool = False) -> JobSpace:
        """A fresh job space, or an error that says why (the engine refused a step)."""
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
            base.fork_job_spawner(theirs, tmpfs_mb, private_net)
        except (OSError, ZygoteLost):
            ours.close()
            raise
        return ours

    @classmethod
    def complete(cls, ours: socket.socket) -> JobSpace:
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
            raise OSError(f"job namespaces: {ready.get('error', 'no answer from the spawner')}")
        return cls(Zygote(ours, int(ready["pid"])), fds[0])

    @property
    def pids(self) -> set[int]:
        return {self.zygote.pid}

    def close(self) -> None:
        """Kill the spawner, the job's init (the kernel then kills every process of the job),
        and reap it: PID 1's own child."""
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
