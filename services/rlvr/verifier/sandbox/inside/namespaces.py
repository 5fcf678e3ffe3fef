"""Fresh kernel namespaces for every job (stdlib only; runs inside sandboxes).

The jobs of one warm container share its kernel: whatever kernel state one job changes, a later
job of another program could read, and each such place found so far was a channel a policy
could learn tests through (TIME_WAIT sockets, the PID counter, tmpfs inode numbers, cgroup
counters). Closing them one at a time never ends; so each job gets kernel state that no other
job ever had, made by the trusted side before the job's first process exists:

- a user namespace (the container's uid mapped to itself): the capabilities to set the rest
  up, held only by the zygote (the home namespaces it enters jobs' spaces from, `jobspace.py`)
  or a session's spawner, and dropped by every run;
- a PID namespace: the job's pids start at 1 and its first process is its trusted init, so
  the PID counter, `ns_last_pid` and every pid a run sees are the job's own;
- a mount namespace with a fresh `/proc` (that PID namespace's), a fresh tmpfs at `/tmp` (its
  own inode counter, times and contents) and an empty read-only `/sys/fs/cgroup` (the cgroup
  counters, which only rise, are not readable);
- IPC, UTS and cgroup namespaces: SysV objects, message queues, the host name and the cgroup
  view of one job only.

A job's network namespace is the zygote's home one (new at its start, loopback only): candidates
may open `AF_UNIX` sockets only, which die with their process (`seccomp.py`). Making one per job
costs the kernel a netns teardown each time, for state nothing may create (a session, which
lives beside others, gets one).

What this needs from the engine is in `host/engine_seccomp.py` (the system calls) and
`host/docker.py` (`/proc` without Docker's masks, or the kernel refuses a fresh proc mount).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
from collections.abc import Iterator

from rlvr.verifier.sandbox.inside.libc import SYSCALL_NUMBERS, load_libc

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
# every namespace flag clone/unshare know (time namespaces: 0x80 on clone3/unshare only)
ANY_NAMESPACE = (
    CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID
    | CLONE_NEWNET | 0x80
)  # fmt: skip
JOB_NAMESPACES = (
    CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP
)

_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REC, _MS_PRIVATE = 0x4000, 0x40000
_PR_SET_DUMPABLE = 4
_LINUX_CAPABILITY_VERSION_3 = 0x20080522
CGROUP_ROOT = "/sys/fs/cgroup"


class NamespaceError(OSError):
    """A step of making the job's namespaces failed (the engine or kernel does not allow it)."""


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise NamespaceError(errno, f"{what}: {os.strerror(errno)}")


# clone(2): the child's parent is the caller's parent (PID 1 then waits for a session's spawner
# as its own child, with no process in between to exit); the child's exit signal.
_CLONE_PARENT = 0x00008000
_SIGCHLD = 17


def clone_into_job_namespaces(extra_flags: int = 0) -> int:
    """Fork into fresh job namespaces (and `extra_flags`: a session's network namespace) in
    one system call: the child is PID 1 of the new PID namespace and the caller's parent's
    child (`CLONE_PARENT`). Returns like fork: 0 in the child, its pid (in the caller's
    namespace) in the parent.

    Why not fork and unshare: a PID namespace is entered only by a process's children, so that
    took a process to unshare and another to be the namespace's first; each is a copy of this
    interpreter whose fork, copy-on-write faults and exit cost more than the job's own run.

    The raw system call skips what `os.fork` does around a fork (Python's at-fork hooks, the
    C library's thread id): the caller is single-threaded (the zygote) and the child only sets
    up its namespaces and forks the job's runs with `os.fork`, which does all of it for them.
    The call keeps the GIL (`PyDLL`), so the child starts with the interpreter as it was."""
    syscall = ctypes.PyDLL(None, use_errno=True).syscall
    flags = _CLONE_PARENT | JOB_NAMESPACES | extra_flags | _SIGCHLD
    number = SYSCALL_NUMBERS[os.uname().machine]["clone"]
    # no new stack: the child goes on from here on a copy of the caller's, as with fork
    pid = int(syscall(ctypes.c_long(number), ctypes.c_ulong(flags), *[ctypes.c_long(0)] * 4))
    if pid < 0:
        errno = ctypes.get_errno()
        raise NamespaceError(errno, f"clone: {os.strerror(errno)}")
    return pid


# A `/code` job's namespaces, which the zygote itself enters (`jobspace.py`): made by unshare from
# the zygote's home namespaces, and left for them with setns.
PER_JOB_NAMESPACES = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP
# The zygote's home: a user namespace (the capabilities to make and enter the rest) and, owned by
# it, the namespaces it comes back to after each job (setns needs the target's owner to be ours:
# so the PID namespace too, which only a child of the unsharing process lives in, and the
# network namespace, new and empty: a job has no use for the container's loopback, AF_UNIX
# sockets only, `seccomp.py`).
HOME_NAMESPACES = (
    CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP
    | CLONE_NEWNET
)  # fmt: skip
# /proc/self/ns names, by the flag setns takes; `pid` is the zygote's own (active) one, which
# setns makes the namespace of its next children again.
_NS_FILES = {
    CLONE_NEWNS: "mnt", CLONE_NEWIPC: "ipc", CLONE_NEWUTS: "uts", CLONE_NEWCGROUP: "cgroup",
    CLONE_NEWNET: "net", CLONE_NEWPID: "pid",
}  # fmt: skip


def unshare(flags: int) -> None:
    _check(load_libc().unshare(flags), "unshare")


def enter_home_namespaces(uid: int, gid: int) -> None:
    """Unshare the zygote's home namespaces, map the ids, keep every mount from propagating.
    The caller's next child is the first process of the home PID namespace: the zygote."""
    unshare(HOME_NAMESPACES)
    map_own_ids(uid, gid)
    libc = load_libc()
    _check(libc.mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None), "mount --make-rprivate /")


class HomeNamespaces:
    """The zygote's own namespaces, held open to come back to after a job."""

    def __init__(self) -> None:
        self.fds = {
            flag: os.open(f"/proc/self/ns/{name}", os.O_RDONLY | os.O_CLOEXEC)
            for flag, name in _NS_FILES.items()
        }

    def come_back(self) -> None:
        libc = load_libc()
        for flag, fd in self.fds.items():
            _check(libc.setns(fd, flag), f"setns {_NS_FILES[flag]}")


def map_own_ids(uid: int, gid: int) -> None:
    """In a fresh user namespace: map the container's uid and gid to themselves.

    The maps are this process's own /proc files, which a non-dumpable process cannot open
    (they are root's then): it is dumpable for the three writes only."""
    libc = load_libc()
    _check(libc.prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0), "prctl(PR_SET_DUMPABLE, 1)")
    try:
        for name, line in (
            ("setgroups", "deny"),  # the kernel's condition for an unprivileged gid_map
            ("uid_map", f"{uid} {uid} 1"),
            ("gid_map", f"{gid} {gid} 1"),
        ):
            fd = os.open(f"/proc/self/{name}", os.O_WRONLY | os.O_CLOEXEC)
            try:
                os.write(fd, line.encode())
            finally:
                os.close(fd)
    finally:
        _check(libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0), "prctl(PR_SET_DUMPABLE, 0)")


def mount_job_filesystems(work_root: str, tmpfs_mb: int) -> None:
    """In the new mount namespace: nothing propagates out, a fresh tmpfs at `work_root`, and
    the cgroup tree hidden under an empty read-only tmpfs."""
    libc = load_libc()
    _check(libc.mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None), "mount --make-rprivate /")
    options = f"size={tmpfs_mb}m,mode=1777".encode()
    _check(
        libc.mount(b"tmpfs", work_root.encode(), b"tmpfs", _MS_NOSUID | _MS_NODEV, options),
        f"mount tmpfs {work_root}",
    )
    if os.path.isdir(CGROUP_ROOT):
        flags = _MS_RDONLY | _MS_NOSUID | _MS_NODEV | _MS_NOEXEC
        _check(
            libc.mount(b"none", CGROUP_ROOT.encode(), b"tmpfs", flags, b"size=4k,mode=555"),
            f"mount tmpfs {CGROUP_ROOT}",
        )


def mount_fresh_proc() -> None:
    """A `/proc` of the PID namespace the caller lives in (its init calls it): only the job's
    processes, its own `ns_last_pid`."""
    libc = load_libc()
    flags = _MS_NOSUID | _MS_NODEV | _MS_NOEXEC
    _check(libc.mount(b"proc", b"/proc", b"proc", flags, None), "mount proc /proc")


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


_CAP_SYS_ADMIN = 21
_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_RAISE, _PR_CAP_AMBIENT_CLEAR_ALL = 47, 2, 4


@contextlib.contextmanager
def ambient_sys_admin() -> Iterator[None]:
    """CAP_SYS_ADMIN kept over the next exec (an ambient capability), for the one program
    started inside: a job's init, which must mount its namespace's /proc. Cleared after it,
    so no other program the caller starts keeps it (a process of a non-zero uid loses every
    other capability at exec)."""
    libc = load_libc()
    header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    _check(libc.capget(ctypes.byref(header), data), "capget")
    data[0].inheritable |= 1 << _CAP_SYS_ADMIN
    _check(libc.capset(ctypes.byref(header), data), "capset")
    try:
        raised = libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_RAISE, _CAP_SYS_ADMIN, 0, 0)
        _check(raised, "prctl(PR_CAP_AMBIENT_RAISE)")
        yield
    finally:
        data[0].inheritable = 0
        cleared = libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) == 0
        if not cleared or libc.capset(ctypes.byref(header), data) != 0:
            os._exit(1)  # fail closed: the next program exec'd would keep CAP_SYS_ADMIN


class CapabilityDrop:
    """`drop_capabilities` prepared: the structures made once in a spawner, so each fork only
    makes the system call (see `seccomp.PreparedFilter`)."""

    def __init__(self) -> None:
        self._header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
        self._header_ref = ctypes.byref(self._header)
        self._empty = (_CapData * 2)()
        self._capset = load_libc().capset

    def apply(self) -> None:
        _check(self._capset(self._header_ref, self._empty), "capset")


def drop_capabilities() -> None:
    """Empty every capability set: what the user namespace gave the spawner, no run inherits
    (its uid is not 0 in the namespace, and `no_new_privs` forbids regaining any by exec)."""
    CapabilityDrop().apply()
