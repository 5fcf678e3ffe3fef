"""Fresh kernel namespaces for every job (stdlib only; runs inside sandboxes).

The jobs of one warm container share its kernel: whatever kernel state one job changes, a later
job of another program could read, and each such place found so far was a channel a policy
could learn tests through (TIME_WAIT sockets, the PID counter, tmpfs inode numbers, cgroup
counters). Closing them one at a time never ends; so each job gets kernel state that no other
job ever had, made by the trusted side before the job's first process exists:

- a user namespace (the container's uid mapped to itself): the capabilities to make the rest,
  held only by the job's spawner and dropped before any run;
- a PID namespace: the job's pids start at 1 and its first process is a trusted init, so the
  PID counter, `ns_last_pid` and every pid a run sees are the job's own;
- a mount namespace with a fresh `/proc` (that PID namespace's), a fresh tmpfs at `/tmp` (its
  own inode counter, times and contents) and an empty read-only `/sys/fs/cgroup` (the cgroup
  counters, which only rise, are not readable);
- IPC, UTS and cgroup namespaces: SysV objects, message queues, the host name and the cgroup
  view of one job only.

The network namespace stays the container's (`network_mode: none`, loopback only): candidates
may open `AF_UNIX` sockets only, which die with their process (`seccomp.py`). Making one per job
costs the kernel a netns teardown each time, for state nothing may create.

What this needs from the engine is in `host/engine_seccomp.py` (the system calls) and
`host/docker.py` (`/proc` without Docker's masks, or the kernel refuses a fresh proc mount).
"""

from __future__ import annotations

import ctypes
import os

from rlvr.verifier.sandbox.inside.libc import load_libc

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
_PR_SET_DUMPABLE, _PR_SET_PDEATHSIG = 4, 1
_LINUX_CAPABILITY_VERSION_3 = 0x20080522
CGROUP_ROOT = "/sys/fs/cgroup"


class NamespaceError(OSError):
    """A step of making the job's namespaces failed (the engine or kernel does not allow it)."""


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise NamespaceError(errno, f"{what}: {os.strerror(errno)}")


def enter_job_namespaces(uid: int, gid: int, extra_flags: int = 0) -> None:
    """Unshare the job's namespaces (and `extra_flags`: a session's network namespace) and map
    the container's uid and gid to themselves.

    The maps are this process's own /proc files, which a non-dumpable process cannot open
    (they are root's then): it is dumpable for the three writes only. Its children are then
    born into the new PID namespace; the first one is its init."""
    libc = load_libc()
    _check(libc.unshare(JOB_NAMESPACES | extra_flags), "unshare")
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


def die_with_parent() -> None:
    """SIGKILL when the parent exits: a job's init never outlives the job's spawner."""
    _check(load_libc().prctl(_PR_SET_PDEATHSIG, 9, 0, 0, 0), "prctl(PR_SET_PDEATHSIG)")


def drop_capabilities() -> None:
    """Empty every capability set: what the user namespace gave the spawner, no run inherits
    (its uid is not 0 in the namespace, and `no_new_privs` forbids regaining any by exec)."""

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [
            ("effective", ctypes.c_uint32),
            ("permitted", ctypes.c_uint32),
            ("inheritable", ctypes.c_uint32),
        ]

    header = Header(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (Data * 2)()
    _check(load_libc().capset(ctypes.byref(header), data), "capset")
