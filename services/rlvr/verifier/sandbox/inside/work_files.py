"""A run's work files (`/run_code`'s SandboxFusion `files` and `fetch_files`), inside the container
(stdlib only): the files a job brings, written beside the program's own, and the files read back
after the run is swept, without following anything the run left behind."""

from __future__ import annotations

import base64
import os
import stat

from rlvr.verifier.sandbox.wire.protocol import Job


def is_plain_path(path: str) -> bool:
    """Relative, with no empty, `.` or `..` component: a path that stays in the work dir."""
    return not path.startswith("/") and all(part not in ("", ".", "..") for part in path.split("/"))


def work_files(job: Job, own: dict[str, bytes]) -> dict[str, bytes]:
    """The job's `files` ({relative path: base64}) as bytes, beside the program's `own` files:
    one whose first component is an own file's is dropped (the program's files win), and so is
    a path that is not plain (the host refused those already)."""
    taken = {name.split("/")[0] for name in own}
    return {
        path: base64.b64decode(content)
        for path, content in job.get("files", {}).items()
        if is_plain_path(path) and path.split("/")[0] not in taken
    }


# What `read_work_files` carries back in all (base64 makes it 4/3 of this in the job's answer).
FETCH_LIMIT_BYTES = 8 << 20


def read_work_files(work: str, paths: list[str], limit: int = FETCH_LIMIT_BYTES) -> dict[str, str]:
    """The regular files at `paths` (relative) under `work`, as base64: opened one component at
    a time with O_NOFOLLOW (a symlink the run left is never followed, so nothing outside the
    work dir is read), non-blocking (a fifo cannot stall PID 1), at most `limit` bytes in all.
    A path that is missing, not a regular file, unplain, or over what is left is left out."""
    fetched: dict[str, str] = {}
    left = limit
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NOCTTY | os.O_NONBLOCK | os.O_CLOEXEC
    for path in paths:
        if not is_plain_path(path):
            continue
        parts = path.split("/")
        fds: list[int] = []
        try:
            fds.append(os.open(work, flags | os.O_DIRECTORY))
            for part in parts[:-1]:
                fds.append(os.open(part, flags | os.O_DIRECTORY, dir_fd=fds[-1]))
            fds.append(os.open(parts[-1], flags, dir_fd=fds[-1]))
            info = os.fstat(fds[-1])
            if not stat.S_ISREG(info.st_mode) or info.st_size > left:
                continue
            chunks, size = [], 0
            while size <= info.st_size:
                chunk = os.read(fds[-1], min(1 << 20, info.st_size + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
            if size > left:
                continue
            left -= size
            fetched[path] = base64.b64encode(b"".join(chunks)).decode()
        except OSError:
            continue
        finally:
            for fd in fds:
                os.close(fd)
    return fetched
