"""File descriptors of PID 1's processes: exact reads and writes, lines, sealed memfds, and
placing a child's descriptors at 0..n-1 with nothing else open."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from typing import Any


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


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


def send_line(fd: int, message: dict[str, Any]) -> None:
    """One JSON message per line (the candidate and harness pipe protocol)."""
    write_all(fd, json.dumps(message).encode() + b"\n")
