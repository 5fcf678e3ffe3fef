"""Process plumbing shared by the executor's processes (stdlib only; runs inside sandboxes)."""

from __future__ import annotations

import builtins
import collections
import contextlib
import ctypes
import fcntl
import json
import os
import signal
import stat
import struct
import time
from typing import Any


def set_non_dumpable() -> None:
    """PR_SET_DUMPABLE=0: same-uid processes lose ptrace and /proc/PID/{mem,fd,environ}."""
    libc = _libc()
    if libc.prctl(4, 0, 0, 0, 0) != 0:  # PR_SET_DUMPABLE
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE) failed")


def open_own_oom_score_adj() -> int:
    """A write descriptor of this process's /proc/self/oom_score_adj (close-on-exec), opened
    while it is briefly dumpable (a non-dumpable process's /proc files are root's), for a
    process that is non-dumpable again at return. -1 where it cannot be opened."""
    libc = _libc()
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


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


# Every signal a run starts with at its default: all but the two that cannot be caught.
CATCHABLE_SIGNALS = sorted(signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP})
# Seals that make a memfd immutable (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE).
_ALL_SEALS = 0x1 | 0x2 | 0x4 | 0x8


def sealed_memfd(name: str, data: bytes, mode: int) -> int:
    """A read-only descriptor of an immutable in-memory file with `mode` (0o100: execute-only,
    so a process exec'd from it is non-dumpable). Not in any file system the candidate sees."""
    writable = os.memfd_create(name, os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    try:
        write_all(writable, data)
        fcntl.fcntl(writable, fcntl.F_ADD_SEALS, _ALL_SEALS)
        # exec refuses a file that is open for writing (ETXTBSY): keep only a read-only one
        readonly = os.open(f"/proc/self/fd/{writable}", os.O_RDONLY | os.O_CLOEXEC)
        os.fchmod(readonly, mode)
        return readonly
    finally:
        os.close(writable)


def read_exact(fd: int, size: int) -> bytes | None:
    chunks = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def apply_rlimits(limits: dict[str, int]) -> None:
    import resource

    for name, value in limits.items():
        res = getattr(resource, f"RLIMIT_{name.upper()}")
        resource.setrlimit(res, (value, value))


def move_fds(fds: list[int]) -> None:
    """Place `fds` at 0, 1, 2, ... (in order) and close every other descriptor."""
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 100) for fd in fds]  # above the targets: no clobbering
    for target, fd in enumerate(high):
        os.dup2(fd, target, inheritable=True)
    # Not os.closerange: without close_range(2) (Docker's seccomp profile) it makes one close()
    # per possible descriptor, ~10 ms; listing the open ones is ~50 µs.
    for name in os.listdir("/proc/self/fd"):
        if int(name) >= len(high):
            with contextlib.suppress(OSError):
                os.close(int(name))


def place_fds(fds: list[int]) -> None:
    """Place `fds` at 0, 1, 2, ... (in order) and close the originals: `move_fds` for a process
    whose other descriptors are known to be none (the zygote's children: the zygote closed
    everything else at start, `close_fds_but`). Listing /proc/self/fd in a fresh fork costs
    ~0.3 ms of copy-on-write faults, per run."""
    if min(fds, default=len(fds)) < len(fds):  # a source among the targets: copy them first
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 100) for fd in fds]
    else:
        high = list(fds)
    for target, fd in enumerate(high):
        os.dup2(fd, target, inheritable=True)
    for fd in {*fds, *high}:
        if fd >= len(fds):
            os.close(fd)


def close_fds_but(keep: set[int]) -> None:
    """Close every descriptor not in `keep`."""
    for name in os.listdir("/proc/self/fd"):
        if int(name) not in keep:
            with contextlib.suppress(OSError):
                os.close(int(name))


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


def wipe_dir(root: str, budget_s: float = 5.0) -> bool:
    """Remove everything under `root`; True when it is empty afterwards.

    Whatever a candidate left: unreadable (chmod 000) directories, trees deeper than any
    recursion or PATH_MAX allows, fifos, sockets, symlinks (never followed), many files. No
    recursion and no long paths: a non-empty directory's entries are renamed up into `root`
    (dir fds, `*at` calls) and handled there in turn, so each entry moves at most once and two
    descriptors suffice at any depth. Bounded by `budget_s`: what remains then is reported (the
    caller retires the container), never raised.
    """
    try:
        root_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    deadline = time.monotonic() + budget_s
    try:
        for _ in range(3):  # an entry that failed once gets another chance in the next pass
            pending = collections.deque(os.listdir(root_fd))
            if not pending:
                return True
            taken = set(pending)
            while pending:
                if time.monotonic() > deadline:
                    return False
                with contextlib.suppress(OSError):
                    pending.extend(_remove_entry(root_fd, pending.popleft(), taken))
        return not os.listdir(root_fd)
    except OSError:
        return False
    finally:
        os.close(root_fd)


def _remove_entry(root_fd: int, name: str, taken: set[str]) -> list[str]:
    """Unlink `name` (in root), or hoist a directory's entries into root and rmdir it.

    Returns the new names of the hoisted entries (the caller handles them next).
    """
    if not stat.S_ISDIR(os.stat(name, dir_fd=root_fd, follow_symlinks=False).st_mode):
        os.unlink(name, dir_fd=root_fd)
        return []
    os.chmod(name, 0o700, dir_fd=root_fd)  # a directory (lstat above): nothing to follow
    fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=root_fd)
    hoisted: list[str] = []
    try:
        for entry in os.listdir(fd):
            if stat.S_ISDIR(os.stat(entry, dir_fd=fd, follow_symlinks=False).st_mode):
                os.chmod(entry, 0o700, dir_fd=fd)  # moving a directory rewrites its `..`
            fresh = f".wipe{len(taken)}"
            while fresh in taken:
                fresh += "_"
            taken.add(fresh)
            os.rename(entry, fresh, src_dir_fd=fd, dst_dir_fd=root_fd)
            hoisted.append(fresh)
    finally:
        os.close(fd)
    os.rmdir(name, dir_fd=root_fd)
    return hoisted


# -- System V IPC and POSIX message queues (they outlive processes: wiped after every run)

_IPC_RMID = 0


def wipe_ipc(mqueue_root: str = "/dev/mqueue") -> tuple[int, bool]:
    """Remove every SysV shm/msg/sem object and POSIX message queue: (found, all gone)."""
    libc = _libc()
    removers = {
        "shm": lambda ident: libc.shmctl(ident, _IPC_RMID, None),
        "msg": lambda ident: libc.msgctl(ident, _IPC_RMID, None),
        "sem": lambda ident: libc.semctl(ident, 0, _IPC_RMID),
    }
    found = 0
    for kind, remove in removers.items():
        for ident in _sysv_ids(kind):
            found += 1
            remove(ident)
    try:
        queues = len(os.listdir(mqueue_root))
    except OSError:
        queues = 0
    if not found and not queues:
        return 0, True
    clean = wipe_dir(mqueue_root) and not any(_sysv_ids(kind) for kind in removers)
    return found + queues, clean


def _sysv_ids(kind: str) -> list[int]:
    try:  # read after every run: a bare descriptor, not a buffered file object
        fd = os.open(f"/proc/sysvipc/{kind}", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return []
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
        rows = b"".join(chunks).splitlines()[1:]
    except OSError:
        return []
    finally:
        os.close(fd)
    return [int(row.split()[1]) for row in rows if len(row.split()) > 1]


# -- attributes of the trusted processes (a candidate of the same uid must not change them)


def process_attributes(pid: int) -> tuple[object, ...]:
    """What a same-uid process could change about `pid` (rlimits, nice, affinity, scheduling
    policy and utilisation clamps, I/O priority, OOM score): compared before and after jobs."""
    with open(f"/proc/{pid}/limits", "rb") as handle:
        limits = handle.read()
    with open(f"/proc/{pid}/oom_score_adj", "rb") as handle:
        oom = handle.read()
    numbers = _SYSCALLS.get(os.uname().machine, {})
    libc = _libc()
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


# -- seccomp: what a candidate's process may not do to processes that are not its own

_ARCHES = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
_SYSCALLS: dict[str, dict[str, int]] = {
    "x86_64": {
        "prlimit64": 302, "setpriority": 141, "sched_setparam": 142,
        "sched_setscheduler": 144, "sched_setaffinity": 203, "sched_setattr": 314,
        "sched_getattr": 315, "ioprio_set": 251, "ioprio_get": 252, "ptrace": 101,
        "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312, "pidfd_getfd": 438,
        "process_madvise": 440, "migrate_pages": 256, "move_pages": 279,
        "shmget": 29, "shmat": 30, "shmctl": 31, "shmdt": 67, "semget": 64, "semop": 65,
        "semctl": 66, "semtimedop": 220, "msgget": 68, "msgsnd": 69, "msgrcv": 70,
        "msgctl": 71, "mq_open": 240, "mq_unlink": 241, "mq_timedsend": 242,
        "mq_timedreceive": 243, "mq_notify": 244, "mq_getsetattr": 245,
        "add_key": 248, "request_key": 249, "keyctl": 250,
        "kill": 62, "tkill": 200, "tgkill": 234, "rt_sigqueueinfo": 129,
        "rt_tgsigqueueinfo": 297, "pidfd_open": 434, "pidfd_send_signal": 424,
        "fcntl": 72, "ioctl": 16,
        "socket": 41, "socketpair": 53, "memfd_create": 319, "memfd_secret": 447,
        "setxattr": 188, "lsetxattr": 189, "fsetxattr": 190, "removexattr": 197,
        "lremovexattr": 198, "fremovexattr": 199, "setxattrat": 463, "removexattrat": 466,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "prctl": 157,
    },
    "aarch64": {
        "prlimit64": 261, "setpriority": 140, "sched_setparam": 118,
        "sched_setscheduler": 119, "sched_setaffinity": 122, "sched_setattr": 274,
        "sched_getattr": 275, "ioprio_set": 30, "ioprio_get": 31, "ptrace": 117,
        "process_vm_readv": 270, "process_vm_writev": 271, "kcmp": 272, "pidfd_getfd": 438,
        "process_madvise": 440, "migrate_pages": 238, "move_pages": 239,
        "shmget": 194, "shmat": 196, "shmctl": 195, "shmdt": 197, "semget": 190,
        "semop": 193, "semctl": 191, "semtimedop": 192, "msgget": 186, "msgsnd": 189,
        "msgrcv": 188, "msgctl": 187, "mq_open": 180, "mq_unlink": 181,
        "mq_timedsend": 182, "mq_timedreceive": 183, "mq_notify": 184, "mq_getsetattr": 185,
        "add_key": 217, "request_key": 218, "keyctl": 219,
        "kill": 129, "tkill": 130, "tgkill": 131, "rt_sigqueueinfo": 138,
        "rt_tgsigqueueinfo": 240, "pidfd_open": 434, "pidfd_send_signal": 424,
        "fcntl": 25, "ioctl": 29,
        "socket": 198, "socketpair": 199, "memfd_create": 279, "memfd_secret": 447,
        "setxattr": 5, "lsetxattr": 6, "fsetxattr": 7, "removexattr": 14,
        "lremovexattr": 15, "fremovexattr": 16, "setxattrat": 463, "removexattrat": 466,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "prctl": 167,
    },
}  # fmt: skip
# Refused outright: other processes' memory and tracing, IPC objects that outlive the process
# (SysV shm/msg/sem, POSIX message queues), kernel keyrings, I/O priorities; memory files
# (`memfd_create`: pages no rlimit counts and no process maps, which made the OOM killer pick
# PID 1); extended attributes (they outlive a run on the job's kept binary, which every run of
# the program can reach as /proc/self/exe); io_uring (it opens sockets and files past the
# `socket` rule below).
_DENIED = [
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    "process_madvise", "migrate_pages", "move_pages", "ioprio_set",
    "shmget", "shmat", "shmctl", "shmdt", "semget", "semop", "semctl", "semtimedop",
    "msgget", "msgsnd", "msgrcv", "msgctl", "mq_open", "mq_unlink", "mq_timedsend",
    "mq_timedreceive", "mq_notify", "mq_getsetattr", "add_key", "request_key", "keyctl",
    "memfd_create", "memfd_secret", "setxattr", "lsetxattr", "fsetxattr", "removexattr",
    "lremovexattr", "fremovexattr", "setxattrat", "removexattrat",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
]  # fmt: skip
# Sockets of one family only, AF_UNIX (a pair, or a path in the wiped tmpfs): the container has
# no network, and every other family reaches kernel state that outlives the process (a closed
# TCP connection on loopback stays in TIME_WAIT for 60 s with the addresses and ports its owner
# chose, readable in /proc/net/tcp by the next job).
_UNIX_ONLY = ["socket", "socketpair"]
_AF_UNIX = 1
# prctl(PR_SET_DUMPABLE): a run stays non-dumpable, so its /proc/self files stay root's and it
# cannot lower the oom_score_adj its start set (every run is the OOM killer's first choice).
_PR_SET_DUMPABLE = 4
# Allowed only on the calling process itself (pid argument 0): rlimits, CPU affinity, policy.
_SELF_ONLY = [
    "prlimit64", "sched_setaffinity", "sched_setscheduler", "sched_setparam", "sched_setattr",
]  # fmt: skip
_PRIO_USER = 2
_X32_BIT = 0x40000000
_RET_ALLOW = 0x7FFF0000
_RET_EPERM = 0x00050000 | 1  # SECCOMP_RET_ERRNO | EPERM
_LD_ABS, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06
_NR, _ARCH, _ARG0, _ARG1 = 0, 4, 16, 24  # offsets in struct seccomp_data (low 32 bits)


def seccomp_program(machine: str) -> bytes:
    """A classic BPF seccomp filter (struct sock_filter[]) for `machine`.

    Another architecture's calling convention (i386 `int 0x80`, x32) is refused as a whole:
    its syscall numbers differ and would slip through. The pid arguments are C ints, so their
    low 32 bits are what the kernel uses.
    """
    numbers = _SYSCALLS[machine]
    code: list[tuple[int, int, int, int]] = [
        (_LD_ABS, 0, 0, _ARCH),
        (_JEQ, 1, 0, _ARCHES[machine]),
        (_RET, 0, 0, _RET_EPERM),
        (_LD_ABS, 0, 0, _NR),
    ]
    if machine == "x86_64":
        code += [(_JGE, 0, 1, _X32_BIT), (_RET, 0, 0, _RET_EPERM)]
    for name in _DENIED:
        code += [(_JEQ, 0, 1, numbers[name]), (_RET, 0, 0, _RET_EPERM)]
    for name in _UNIX_ONLY:  # the domain (arg 0) must be AF_UNIX
        code += [
            (_JEQ, 0, 4, numbers[name]),
            (_LD_ABS, 0, 0, _ARG0),
            (_JEQ, 0, 1, _AF_UNIX),
            (_RET, 0, 0, _RET_ALLOW),
            (_RET, 0, 0, _RET_EPERM),
        ]
    code += [  # prctl(PR_SET_DUMPABLE, ...) refused; every other prctl allowed
        (_JEQ, 0, 4, numbers["prctl"]),
        (_LD_ABS, 0, 0, _ARG0),
        (_JEQ, 0, 1, _PR_SET_DUMPABLE),
        (_RET, 0, 0, _RET_EPERM),
        (_RET, 0, 0, _RET_ALLOW),
    ]
    for name in _SELF_ONLY:
        code += [
            (_JEQ, 0, 4, numbers[name]),
            (_LD_ABS, 0, 0, _ARG0),
            (_JEQ, 0, 1, 0),
            (_RET, 0, 0, _RET_ALLOW),
            (_RET, 0, 0, _RET_EPERM),
        ]
    code += [  # setpriority(which, who, prio): not PRIO_USER (every process of the uid), who 0
        (_JEQ, 0, 6, numbers["setpriority"]),
        (_LD_ABS, 0, 0, _ARG0),
        (_JEQ, 3, 0, _PRIO_USER),
        (_LD_ABS, 0, 0, _ARG1),
        (_JEQ, 0, 1, 0),
        (_RET, 0, 0, _RET_ALLOW),
        (_RET, 0, 0, _RET_EPERM),
        (_RET, 0, 0, _RET_ALLOW),
    ]
    return b"".join(struct.pack("<HBBI", *instruction) for instruction in code)


# Signal-sending calls whose first argument is the target pid (tgid for tgkill and the queue
# calls). `tkill` names a thread id, which only equals the pid for the main thread.
_SIGNAL_CALLS = ["kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_open"]
# fcntl(F_SETOWN / F_SETSIG / F_SETOWN_EX) and ioctl(FIOSETOWN / SIOCSPGRP) direct SIGIO/SIGURG
# at a chosen process: a signal sent without any kill call.
_SETOWN_FCNTL = [8, 10, 15]
_SETOWN_IOCTL = [0x8901, 0x8902]
# Refused outright: a pidfd names its target opaquely, and any process's /proc/PID directory
# opens as one (no kill call, no pid argument to check).
_SIGNAL_DENIED = ["pidfd_send_signal"]


def signal_filter_program(machine: str, pid: int) -> bytes:
    """A second seccomp filter, for a candidate running beside a judge of the same uid (an
    interactor): signals only to itself or its own process group (pid 0, `pid`, `-pid`: the run
    is a session leader, so its group id is its pid), nothing by pid to anyone else, no SIGIO
    ownership, no `pidfd_send_signal` at all (a /proc/PID directory is a pidfd). Stacked on
    `seccomp_program` (filters combine: the strictest answer wins)."""
    numbers = _SYSCALLS[machine]
    own = [0, pid & 0xFFFFFFFF, (-pid) & 0xFFFFFFFF]
    code: list[tuple[int, int, int, int]] = [
        (_LD_ABS, 0, 0, _ARCH),
        (_JEQ, 1, 0, _ARCHES[machine]),
        (_RET, 0, 0, _RET_EPERM),
        (_LD_ABS, 0, 0, _NR),
    ]
    for name in _SIGNAL_DENIED:
        code += [(_JEQ, 0, 1, numbers[name]), (_RET, 0, 0, _RET_EPERM)]
    for name in _SIGNAL_CALLS:
        code += [
            (_JEQ, 0, 6, numbers[name]),
            (_LD_ABS, 0, 0, _ARG0),
            (_JEQ, 3, 0, own[0]),
            (_JEQ, 2, 0, own[1]),
            (_JEQ, 1, 0, own[2]),
            (_RET, 0, 0, _RET_EPERM),
            (_RET, 0, 0, _RET_ALLOW),
        ]
    for name, commands in (("fcntl", _SETOWN_FCNTL), ("ioctl", _SETOWN_IOCTL)):
        code += [(_JEQ, 0, 3 + len(commands), numbers[name]), (_LD_ABS, 0, 0, _ARG1)]
        for index, command in enumerate(commands):
            code.append((_JEQ, len(commands) - index, 0, command))
        code += [(_RET, 0, 0, _RET_ALLOW), (_RET, 0, 0, _RET_EPERM)]
    code.append((_RET, 0, 0, _RET_ALLOW))
    return b"".join(struct.pack("<HBBI", *instruction) for instruction in code)


def install_seccomp(program: bytes) -> None:
    """Confine the calling process and all its descendants (inherited over fork and exec)."""

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    libc = _libc()
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = SockFprog(len(program) // 8, ctypes.addressof(buffer))
    ulong = ctypes.c_ulong
    if libc.prctl(38, ulong(1), ulong(0), ulong(0), ulong(0)) != 0:  # PR_SET_NO_NEW_PRIVS
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    if libc.prctl(22, ulong(2), ctypes.byref(fprog), ulong(0), ulong(0)) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")  # MODE_FILTER


def _libc() -> ctypes.CDLL:
    global _LIBC
    if _LIBC is None:
        _LIBC = ctypes.CDLL(None, use_errno=True)
    return _LIBC


_LIBC: ctypes.CDLL | None = None


def decode_status(status: int) -> tuple[int | None, int | None]:
    if os.WIFEXITED(status):
        return os.WEXITSTATUS(status), None
    if os.WIFSIGNALED(status):
        return None, os.WTERMSIG(status)
    return None, None


def send_line(fd: int, message: dict[str, Any]) -> None:
    """One JSON message per line (the candidate and harness pipe protocol)."""
    write_all(fd, json.dumps(message).encode() + b"\n")
