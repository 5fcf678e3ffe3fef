"""Emptying every writable place a run can leave state in: the work tmpfs, /dev/mqueue, SysV IPC
objects (PID 1 calls these after every run; what cannot be removed retires the container)."""

from __future__ import annotations

import collections
import contextlib
import os
import stat
import time

from rlvr.verifier.sandbox.inside.libc import load_libc


def wipe_dir(root: str, budget_s: float = 5.0, root_fd: int | None = None) -> bool:
    """Remove everything under `root`; True when it is empty afterwards.

    Whatever a candidate left: unreadable (chmod 000) directories, trees deeper than any
    recursion or PATH_MAX allows, fifos, sockets, symlinks (never followed), many files. No
    recursion and no long paths: a non-empty directory's entries are renamed up into `root`
    (dir fds, `*at` calls) and handled there in turn, so each entry moves at most once and two
    descriptors suffice at any depth. Bounded by `budget_s`: what remains then is reported (the
    caller retires the container), never raised. `root_fd`: `root` as an open directory (a
    job's tmpfs, which PID 1 reaches only by a descriptor: `root` is then its /proc/self/fd
    link, which O_NOFOLLOW refuses).
    """
    try:
        if root_fd is not None:
            root_fd = os.dup(root_fd)
        else:
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


_IPC_RMID = 0


def wipe_ipc(mqueue_root: str = "/dev/mqueue") -> tuple[int, bool]:
    """Remove every SysV shm/msg/sem object and POSIX message queue: (found, all gone)."""
    libc = load_libc()
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
