"""The seccomp filter a candidate's process runs under (installed by the zygote on itself and by
the launcher before exec): what a process may not do to processes that are not its own."""

from __future__ import annotations

import ctypes
import struct

from rlvr.verifier.sandbox.inside.libc import SYSCALL_NUMBERS, load_libc
from rlvr.verifier.sandbox.inside.namespaces import ANY_NAMESPACE

# -- seccomp: what a candidate's process may not do to processes that are not its own

_ARCHES = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
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


def seccomp_program(machine: str, for_job_spawners: bool = False) -> bytes:
    """A classic BPF seccomp filter (struct sock_filter[]) for `machine`.

    Another architecture's calling convention (i386 `int 0x80`, x32) is refused as a whole:
    its syscall numbers differ and would slip through. The pid arguments are C ints, so their
    low 32 bits are what the kernel uses.

    `for_job_spawners`: the zygote's filter where it makes namespaces (enters each job's
    space, `jobspace.py`; clones each session's spawner, `session_space.py`), which must still
    unshare, enter, mount and write uid maps (dumpable for that instant); every run then adds
    `job_filter_program` before anything else. Otherwise those rules are here.
    """
    numbers = SYSCALL_NUMBERS[machine]
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
    if not for_job_spawners:
        code += _job_rules(numbers)
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


# Namespaces and mounts: a run may make none (a user namespace would give it every capability
# over the namespaces it makes next: kernel surface no program needs), nor enter, mount or
# change its root. `clone` is checked for namespace flags; `clone3` (flags in memory, which a
# filter cannot read) answers ENOSYS, so the C library falls back to `clone`.
_NAMESPACE_DENIED = [
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "open_tree", "move_mount",
    "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
]  # fmt: skip
_RET_ENOSYS = 0x00050000 | 38
_JSET = 0x45


def _job_rules(numbers: dict[str, int]) -> list[tuple[int, int, int, int]]:
    """What a run may never do, past the zygote's own needs: PR_SET_DUMPABLE, namespaces,
    mounts (the accumulator holds the syscall number on entry and on exit)."""
    code: list[tuple[int, int, int, int]] = [  # prctl(PR_SET_DUMPABLE, ...); other prctl ok
        (_JEQ, 0, 4, numbers["prctl"]),
        (_LD_ABS, 0, 0, _ARG0),
        (_JEQ, 0, 1, _PR_SET_DUMPABLE),
        (_RET, 0, 0, _RET_EPERM),
        (_RET, 0, 0, _RET_ALLOW),
    ]
    for name in _NAMESPACE_DENIED:
        code += [(_JEQ, 0, 1, numbers[name]), (_RET, 0, 0, _RET_EPERM)]
    code += [
        (_JEQ, 0, 1, numbers["clone3"]),
        (_RET, 0, 0, _RET_ENOSYS),
        (_JEQ, 0, 4, numbers["clone"]),
        (_LD_ABS, 0, 0, _ARG0),
        (_JSET, 0, 1, ANY_NAMESPACE),
        (_RET, 0, 0, _RET_EPERM),
        (_RET, 0, 0, _RET_ALLOW),
    ]
    return code


def job_filter_program(machine: str) -> bytes:
    """The rules `seccomp_program(for_job_spawners=True)` leaves out, as a filter of their own:
    each run of a job adds it first thing (`zygote.child_main`), a session's spawner once its
    namespaces are made."""
    code: list[tuple[int, int, int, int]] = [
        (_LD_ABS, 0, 0, _ARCH),
        (_JEQ, 1, 0, _ARCHES[machine]),
        (_RET, 0, 0, _RET_EPERM),
        (_LD_ABS, 0, 0, _NR),
        *_job_rules(SYSCALL_NUMBERS[machine]),
        (_RET, 0, 0, _RET_ALLOW),
    ]
    return b"".join(struct.pack("<HBBI", *instruction) for instruction in code)


def signal_filter_program(machine: str, pid: int) -> bytes:
    """A second seccomp filter, for a candidate running beside a judge of the same uid (an
    interactor): signals only to itself or its own process group (pid 0, `pid`, `-pid`: the run
    is a session leader, so its group id is its pid), nothing by pid to anyone else, no SIGIO
    ownership, no `pidfd_send_signal` at all (a /proc/PID directory is a pidfd). Stacked on
    `seccomp_program` (filters combine: the strictest answer wins)."""
    numbers = SYSCALL_NUMBERS[machine]
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


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


class PreparedFilter:
    """A filter ready to install with its two system calls and nothing else.

    Made in a spawner before it forks, so each fork only calls `install`: building the ctypes
    structures in every fresh copy-on-write child cost each run ~10% of its CPU in copied pages
    (`benchmarks/RESULTS.md`, "Tool calls: a run's first steps prepared in the zygote")."""

    def __init__(self, program: bytes) -> None:
        self._buffer = ctypes.create_string_buffer(program, len(program))
        self._fprog = _SockFprog(len(program) // 8, ctypes.addressof(self._buffer))
        self._fprog_ref = ctypes.byref(self._fprog)
        self._prctl = load_libc().prctl
        self._zero, self._one, self._two = ctypes.c_ulong(0), ctypes.c_ulong(1), ctypes.c_ulong(2)

    def install(self) -> None:
        """Confine the calling process and all its descendants (inherited over fork and exec)."""
        zero = self._zero
        if self._prctl(38, self._one, zero, zero, zero) != 0:  # PR_SET_NO_NEW_PRIVS
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
        if self._prctl(22, self._two, self._fprog_ref, zero, zero) != 0:  # MODE_FILTER
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")


def install_seccomp(program: bytes) -> None:
    """Confine the calling process and all its descendants (inherited over fork and exec)."""
    PreparedFilter(program).install()
