"""A `/code` job's own kernel namespaces: the zygote enters them, and PID 1's handle on them.

Per job, PID 1 asks the zygote to **enter** a fresh job space (`JobSpace.open`). The zygote
lives in home namespaces of its own, made once at its start (`namespaces.HomeNamespaces`: a
user namespace whose capabilities it keeps, and the namespaces that namespace owns). For a job
it unshares fresh mount, PID, IPC, UTS and cgroup namespaces, mounts a fresh tmpfs at `/tmp`,
hides the cgroup tree, and forks the job's **init** (PID 1 of the new PID namespace: it mounts
that namespace's `/proc`, drops every capability, then only reaps). Every run PID 1 then asks
for is forked by the zygote straight into those namespaces; each drops the capabilities and
adds the job filter (no namespaces, no mounts, no PR_SET_DUMPABLE) before anything else
(`zygote.child_main`). When PID 1 closes the space, the zygote kills the init (the kernel then
kills whatever is left in the job), reaps, and goes back to its home namespaces.

Why the zygote and not a process per job: a process forked per job is a copy of the warm
interpreter, whose fork, copy-on-write faults and exit cost more CPU than a trivial run. A job
now costs one copy (its run) and an exec'd init, where a spawner per job cost four copies
(`benchmarks/RESULTS.md`, "Tool calls: one process per job").

A run sees only its job: pids from 1 (its init, which takes no signal a run sends), a `/proc`
of the job's processes (not PID 1's, not the zygote's: they are outside its PID namespace), a
`/tmp` no earlier job wrote. The pids the zygote reports are the container's (the zygote's own
PID namespace is the container's), the ones PID 1 kills and sweeps. PID 1 reaches the job's
tmpfs through a directory descriptor the zygote sends it (`work_root`, `/proc/self/fd/N`).

Sessions, which live for minutes side by side, get a process of their own instead
(`session_space.py`).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
from collections.abc import Callable

from rlvr.verifier.sandbox.inside.launcher import is_launcher_trusted
from rlvr.verifier.sandbox.inside.libc import load_libc
from rlvr.verifier.sandbox.inside.namespaces import (
    PER_JOB_NAMESPACES,
    HomeNamespaces,
    ambient_sys_admin,
    drop_capabilities,
    mount_fresh_proc,
    mount_job_filesystems,
    unshare,
)
from rlvr.verifier.sandbox.inside.zygote import WORK_ROOT, Zygote, ZygoteLost

# Time the zygote may take to enter or leave a job space (~ms; leaving waits for the kernel
# to kill the job's processes).
_SPACE_TIMEOUT_S = 10.0
_PR_SET_PDEATHSIG = 1
# The image's init for jobs (`docker/sandbox/jobinit.c`).
JOB_INIT_PATH = "/usr/local/libexec/rlvr-jobinit"


def trusted_job_init(path: str = JOB_INIT_PATH) -> str | None:
    """`path` where it is there and no one but root can change it; checked before the zygote
    enters its user namespace (where root's files show the overflow uid)."""
    return path if is_launcher_trusted(path) else None


class JobSpace:
    """PID 1's handle on one job's namespaces: the zygote that is in them, the job's init,
    the work dir."""

    def __init__(self, zygote: Zygote, init: int, work_fd: int) -> None:
        self.zygote = zygote
        self.init = init
        self.work_fd = work_fd
        # where PID 1 reaches the job's /tmp (runs see it as /tmp)
        self.work_root = f"/proc/self/fd/{work_fd}"

    @classmethod
    def open(cls, zygote: Zygote, tmpfs_mb: int) -> JobSpace:
        """The zygote in a fresh job space, or an error that says why (a step refused)."""
        zygote.send_request({"enter": {"tmpfs_mb": tmpfs_mb}}, [])
        reply, fds = zygote.receive_with_fds(_SPACE_TIMEOUT_S)
        if reply is None:
            raise ZygoteLost("the sandbox's process spawner did not answer")
        if not reply.get("entered") or len(fds) != 1:
            for fd in fds:
                os.close(fd)
            raise OSError(f"job namespaces: {reply.get('error', 'refused')}")
        return cls(zygote, int(reply["init"]), fds[0])

    @property
    def pids(self) -> set[int]:
        return {self.init}

    def close(self) -> None:
        """The zygote kills the job's init, reaps, and goes home; a zygote that cannot is
        marked dead (the container is retired)."""
        with contextlib.suppress(OSError):
            os.close(self.work_fd)
        try:
            self.zygote.send_request({"leave": True}, [])
        except ZygoteLost:
            return
        reply = self.zygote.receive(_SPACE_TIMEOUT_S)
        if reply is None or not reply.get("left"):
            self.zygote.is_alive = False


# -- in the zygote


class JobSpaces:
    """The zygote's side: its home namespaces, and the job it is in (its init's pid)."""

    def __init__(self, home: HomeNamespaces, init_path: str | None) -> None:
        self.home = home
        self.init: int | None = None
        self.init_path = init_path  # the image's init binary (None: a forked init)

    def enter(
        self,
        sock: socket.socket,
        tmpfs_mb: int,
        private_fds: list[int],
        outer: Callable[[int], int],
    ) -> None:
        """Fresh namespaces for a job, its init, and the reply (the work dir's descriptor, the
        init's pid as PID 1 names it: `outer`). `private_fds`: the zygote's own descriptors,
        which the init closes."""
        try:
            if self.init is not None:
                self.leave()
            unshare(PER_JOB_NAMESPACES)
            mount_job_filesystems(WORK_ROOT, tmpfs_mb)
            if self.init_path is not None:
                self.init = _spawn_init(self.init_path)
            else:
                self.init = _fork_init(private_fds)
            init = outer(self.init)
            work_fd = os.open(WORK_ROOT, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except Exception as exc:
            with contextlib.suppress(Exception):
                self.leave()
            error = f"{type(exc).__name__}: {exc}"[:500]
            sock.send(json.dumps({"entered": False, "error": error}).encode())
            return
        try:
            socket.send_fds(sock, [b'{"entered": true, "init": %d}' % init], [work_fd])
        finally:
            os.close(work_fd)

    def leave(self) -> None:
        """Kill the job's init and reap until it is gone (the kernel kills the job's other
        processes and waits until each is reaped: the runs are this process's children, so
        it reaps them too), then go home. Raises if home cannot be reached again."""
        init, self.init = self.init, None
        if init is not None:
            with contextlib.suppress(OSError):
                os.kill(init, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                while os.waitpid(-1, 0)[0] != init:
                    pass
        self.home.come_back()


def _spawn_init(path: str) -> int:
    """The job's init from the image's binary (`docker/sandbox/jobinit.c`): PID 1 of the job's
    PID namespace, started with posix_spawn (nothing of the zygote copied) and CAP_SYS_ADMIN
    for the one mount of its /proc; it says ready on fd 3 once it has dropped everything."""
    ready_r, ready_w = os.pipe()
    try:
        with ambient_sys_admin():
            pid = os.posix_spawn(
                path, [path], {}, file_actions=[(os.POSIX_SPAWN_DUP2, ready_w, 3)], setsid=True
            )
    finally:
        os.close(ready_w)
    try:
        if os.read(ready_r, 1) != b"1":
            status = -1
            with contextlib.suppress(ChildProcessError):
                status = os.waitpid(pid, 0)[1]
            raise OSError(f"the job's init did not start (wait status {status})")
    finally:
        os.close(ready_r)
    return pid


def _fork_init(inherited: list[int]) -> int:
    """The job's init where the image has no init binary: PID 1 of its PID namespace, a copy
    of the zygote that does what the binary does. It mounts that namespace's /proc, drops
    every capability, then reaps orphans until the job ends; a signal from inside the
    namespace cannot reach it (the kernel drops those an init has no handler for) and it dies
    with the zygote. `inherited`: the zygote's descriptors, which it closes."""
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(ready_r)
            for fd in inherited:
                os.close(fd)
            os.setsid()  # a group of its own: pgid 1 names it alone, and no run joins it
            load_libc().prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
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
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
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
