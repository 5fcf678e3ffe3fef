"""A job's own kernel namespaces: its spawner, its init, and PID 1's handle on them.

Per job, PID 1 asks the zygote for a **job spawner** (`JobSpace.open`). The spawner, a fork of
the zygote that PID 1 adopts, makes the job's namespaces (`namespaces.py`), mounts a fresh
tmpfs at `/tmp` and hides the cgroup tree, forks the job's **init** (PID 1 of the new PID
namespace: it mounts the namespace's `/proc`, then only reaps), drops every capability, adds the
job filter (no namespaces, no mounts, no PR_SET_DUMPABLE) and serves the zygote's spawn protocol
for the job's runs. It lives in the container's PID namespace, so the pids it reports are the
ones PID 1 kills and sweeps; the runs it forks live in the job's.

A run sees only its job: pids from 1, a `/proc` of the job's processes (not PID 1's, not the
zygote's: it cannot signal them or read their files), a `/tmp` no earlier job wrote. PID 1
reaches that tmpfs through a directory descriptor the spawner sends it (`work_root`,
`/proc/self/fd/N`): it writes each run's files and wipes them there, as it did in the shared
`/tmp`. At the job's end PID 1 kills the init and the spawner: the kernel kills whatever is left
in the namespace, and the tmpfs goes with the last descriptor.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import time

from rlvr.verifier.sandbox.inside.fds import close_fds_but
from rlvr.verifier.sandbox.inside.namespaces import (
    CLONE_NEWNET,
    die_with_parent,
    drop_capabilities,
    enter_job_namespaces,
    mount_fresh_proc,
    mount_job_filesystems,
)
from rlvr.verifier.sandbox.inside.procs import open_own_oom_score_adj
from rlvr.verifier.sandbox.inside.seccomp import install_seccomp, job_filter_program
from rlvr.verifier.sandbox.inside.zygote import WORK_ROOT, Zygote, ZygoteLost

# Time a job spawner may take to report ready (it unshares, mounts, forks: ~ms).
_READY_TIMEOUT_S = 10.0


def job_spawner_main(sock: socket.socket, tmpfs_mb: int, private_net: bool = False) -> None:
    """In the job spawner (a grandchild of the zygote, PID 1's child): make the job's
    namespaces and init, confine itself, say ready with the work dir's descriptor, serve.
    `private_net`: a network namespace too (sessions: the abstract AF_UNIX names of one
    container's network namespace would otherwise be a channel between live sessions)."""
    from rlvr.verifier.sandbox.inside import zygote

    try:
        enter_job_namespaces(os.getuid(), os.getgid(), CLONE_NEWNET if private_net else 0)
        # its own OOM score file, before /proc becomes the job's (where it is not listed)
        zygote._OOM_FD = open_own_oom_score_adj()
        mount_job_filesystems(WORK_ROOT, tmpfs_mb)
        init = _fork_init()
        work_fd = os.open(WORK_ROOT, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        drop_capabilities()
        install_seccomp(job_filter_program(os.uname().machine))
    except Exception as exc:
        with contextlib.suppress(OSError):
            sock.send(json.dumps({"error": f"{type(exc).__name__}: {exc}"[:500]}).encode())
        os._exit(1)
    ready = {"ready": True, "pid": os.getpid(), "init": init}
    socket.send_fds(sock, [json.dumps(ready).encode()], [work_fd])
    os.close(work_fd)
    zygote.serve(sock)
    os._exit(0)


def _fork_init() -> int:
    """The job's init: PID 1 of its PID namespace. It mounts that namespace's /proc, then
    reaps orphans until the job ends; a signal from inside the namespace cannot reach it (the
    kernel drops those an init has no handler for) and it dies with the spawner."""
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            close_fds_but({0, 1, 2, ready_w})  # the spawner's socket, the work dir...
            os.setsid()  # a group of its own: pgid 1 names it alone, and no run joins it
            die_with_parent()
            mount_fresh_proc()
            drop_capabilities()
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
            os.write(ready_w, b"1")
            os.close(ready_w)
        except BaseException:
            os._exit(1)
        _reap_forever()
    os.close(ready_w)
    try:
        if os.read(ready_r, 1) != b"1":
            raise OSError("the job's init did not start (could not mount its /proc)")
    finally:
        os.close(ready_r)
    return pid


def _reap_forever() -> None:
    while True:
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        signal.sigwait({signal.SIGCHLD})


class JobSpace:
    """PID 1's handle on one job's namespaces: the spawner (`zygote`), its init, the work dir."""

    def __init__(self, zygote: Zygote, init: int, work_fd: int) -> None:
        self.zygote = zygote
        self.init = init
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
        return cls(Zygote(ours, int(ready["pid"])), int(ready["init"]), fds[0])

    @property
    def pids(self) -> set[int]:
        return {self.zygote.pid, self.init}

    def close(self) -> None:
        """Kill the init (the kernel then kills every process of the job) and the spawner;
        reap both (the init is PID 1's once the spawner is gone)."""
        for pid in (self.init, self.zygote.pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.close(self.work_fd)
        self.zygote.sock.close()
        self.zygote.is_alive = False
        for pid in (self.zygote.pid, self.init):
            deadline = time.monotonic() + 2.0
            while time.monotonic() < deadline:
                try:
                    if os.waitpid(pid, os.WNOHANG)[0]:
                        break
                except ChildProcessError:  # reaped already, or not (yet) PID 1's child
                    if not os.path.exists(f"/proc/{pid}"):
                        break
                time.sleep(0.0005)
