"""Processes of the container: dumpability, rlimits, signals, reaping, the attributes a same-uid
process could change (compared before and after jobs), exit statuses."""

from __future__ import annotations

import builtins
import ctypes
import os
import resource
import signal

from rlvr.verifier.sandbox.inside.libc import SYSCALL_NUMBERS, load_libc


def set_non_dumpable() -> None:
    """PR_SET_DUMPABLE=0: same-uid processes lose ptrace and /proc/PID/{mem,fd,environ}."""
    libc = load_libc()
    if libc.prctl(4, 0, 0, 0, 0) != 0:  # PR_SET_DUMPABLE
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE) failed")


def open_own_oom_score_adj() -> int:
    """A write descriptor of this process's /proc/self/oom_score_adj (close-on-exec), opened
    while it is briefly dumpable (a non-dumpable process's /proc files are root's), for a
    process that is non-dumpable again at return. -1 where it cannot be opened."""
    libc = load_libc()
    if libc.prctl(4, 1, 0, 0, 0) != 0:  # PR_SET_DUMPABLE
        return -1
    try:
        return os.open("/proc/self/oom_score_adj", os.O_WRONLY | os.O_CLOEXEC)
    except OSError:
        return -1
    finally:
        set_non_dumpable()


def install_exit_builtins() -> None:
    """`exit()`/`quit()` as `site` would define them (the interpreter runs with -S)."""

    def exit(code: object = None) -> None:
        raise SystemExit(code)

    builtins.exit = builtins.quit = exit  # type: ignore[assignment]


# Every signal a run starts with at its default: all but the two that cannot be caught.
CATCHABLE_SIGNALS = sorted(signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP})


# rlimits by their names in requests ("as", "nproc", ...)
_RLIMITS = {
    name[7:].lower(): getattr(resource, name)
    for name in dir(resource)
    if name.startswith("RLIMIT_")
}


def apply_rlimits(limits: dict[str, int]) -> None:
    """Each of `limits` as both soft and hard limit (an unknown name raises KeyError)."""
    for name, value in limits.items():
        resource.setrlimit(_RLIMITS[name], (value, value))


def other_pids(keep: set[int]) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) not in keep:
            pids.append(int(entry))
    return pids


def reap_all() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


# -- System V IPC and POSIX message queues (they outlive processes: wiped after every run)


# -- attributes of the trusted processes (a candidate of the same uid must not change them)


def process_attributes(pid: int) -> tuple[object, ...]:
    """What a same-uid process could change about `pid` (rlimits, nice, affinity, scheduling
    policy and utilisation clamps, I/O priority, OOM score): compared before and after jobs."""
    with open(f"/proc/{pid}/limits", "rb") as handle:
        limits = handle.read()
    with open(f"/proc/{pid}/oom_score_adj", "rb") as handle:
        oom = handle.read()
    numbers = SYSCALL_NUMBERS.get(os.uname().machine, {})
    libc = load_libc()
    sched_attr = ctypes.create_string_buffer(56)
    got_attr = libc.syscall(numbers.get("sched_getattr", -1), pid, sched_attr, 56, 0)
    ioprio = libc.syscall(numbers.get("ioprio_get", -1), 1, pid)  # IOPRIO_WHO_PROCESS
    return (
        limits,
        oom,
        os.getpriority(os.PRIO_PROCESS, pid),
        tuple(sorted(os.sched_getaffinity(pid))),
        os.sched_getscheduler(pid),
        got_attr,
        sched_attr.raw[4:],  # after `size`: policy, flags, nice, priority, ..., util clamps
        ioprio,
    )


def decode_status(status: int) -> tuple[int | None, int | None]:
    if os.WIFEXITED(status):
        return os.WEXITSTATUS(status), None
    if os.WIFSIGNALED(status):
        return None, os.WTERMSIG(status)
    return None, None


class ContainerPids:
    """A process's children's pids as PID 1 names them, for one that lives in another PID
    namespace (the zygote in its home one, a session's spawner in its session's): through a
    pidfd (a process, whatever namespace names it) and the container's `/proc`, opened before
    any other was mounted over it. `fdinfo` prints a pidfd's pid in the namespace of the /proc
    it is read through."""

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
