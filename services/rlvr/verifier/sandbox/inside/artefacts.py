"""The compiled artefacts PID 1 keeps between jobs, by compile key, and their binaries as sealed
memfds (stdlib only; in sandboxes).

A later item of the same program is then sent by its key alone. PID 1's memory: no candidate
writes it; bounded (it counts in the container's cgroup). What it holds is PID 1's decision
alone: it reports its keys after every keyed job (`JobResult.artefact_keys`), and the host
follows that list.
"""

from __future__ import annotations

import os
from collections import OrderedDict

from rlvr.verifier.sandbox.inside.fds import sealed_memfd
from rlvr.verifier.sandbox.inside.toolchain import native_binary
from rlvr.verifier.sandbox.wire.protocol import Job

# How many artefacts, and how many bytes of them, PID 1 keeps (oldest out first) when its
# config does not say (`ExecutorConfig.kept_artefacts`, `kept_artefact_bytes`: the host's
# settings `kept_artefacts`, `kept_artefact_mb`).
KEPT_ARTEFACTS = 16
KEPT_BYTES = 48 << 20
# A job's binary in its memfd: execute-only, so the kernel makes every run of it non-dumpable:
# its /proc/self files are root's, and it cannot lower the OOM score its start set (nor read
# its own binary through /proc/self/exe, which it has no use for).
_PROGRAM_MODE = 0o100


class ArtefactStore:
    def __init__(self, max_count: int = KEPT_ARTEFACTS, max_bytes: int = KEPT_BYTES) -> None:
        self.max_count, self.max_bytes = max_count, max_bytes
        self._files: OrderedDict[str, dict[str, bytes]] = OrderedDict()
        # The kept artefacts' binaries as sealed memfds, made on first use (same keys).
        self._memfds: dict[str, int] = {}
        # The running job's binary as a sealed memfd (see `program_fd`).
        self._job_fd: int | None = None

    def keys(self) -> list[str]:
        """The keys held, oldest first."""
        return list(self._files)

    def take(self, key: str) -> dict[str, bytes] | None:
        """The artefact kept under `key` (now the most recently used), or None."""
        files = self._files.get(key)
        if files is not None:
            self._files.move_to_end(key)
        return files

    def keep(self, key: str, files: dict[str, bytes]) -> None:
        """Remember an artefact for later items of the same program (bounded, oldest out;
        its memfd, if one was made, goes with it)."""
        self._forget_memfd(key)
        self._files.pop(key, None)
        if self.max_count < 1:
            return
        self._files[key] = files
        while len(self._files) > 1 and (
            len(self._files) > self.max_count
            or sum(len(d) for f in self._files.values() for d in f.values()) > self.max_bytes
        ):
            evicted, _ = self._files.popitem(last=False)
            self._forget_memfd(evicted)

    def program_fd(self, job: Job, artefact: dict[str, bytes] | None) -> int | None:
        """The job's compiled binary in a sealed memfd: each run execs it from there through
        the launcher instead of getting its own copy in the work dir (for a Go or Rust binary,
        MBs written and wiped per test). Made once per kept artefact (else once per job) and
        sealed, so its bytes cannot change; its mode is set again before each run. None where
        runs get a copy: several files (Java), an interpreted language. (The caller asks only
        where the image has the launcher.)"""
        if self._job_fd is None:
            self._job_fd = self._memfd_for(job, artefact)
        if self._job_fd is not None:
            reset_metadata(self._job_fd)
        return self._job_fd

    def end_job(self) -> None:
        if self._job_fd is not None and self._job_fd not in self._memfds.values():
            os.close(self._job_fd)  # a program without a key: made for this job
        self._job_fd = None

    def _memfd_for(self, job: Job, artefact: dict[str, bytes] | None) -> int | None:
        if artefact is None:
            return None
        key = job.get("artefact_key")
        is_kept = key is not None and self._files.get(key) is artefact
        if is_kept and key in self._memfds:
            return self._memfds[key]
        binary = native_binary(job["program"], artefact)
        if binary is None:
            return None
        fd = sealed_memfd("program", binary, _PROGRAM_MODE)
        if is_kept and key is not None:
            self._forget_memfd(key)
            self._memfds[key] = fd
        return fd

    def _forget_memfd(self, key: str) -> None:
        fd = self._memfds.pop(key, None)
        if fd is not None:
            os.close(fd)


def reset_metadata(fd: int) -> None:
    """Every run of a kept binary starts with the same metadata: a run may have changed its
    mode (chmod /proc/self/exe) or its times (utimensat), which the next job of the program
    would read; its extended attributes are refused by the filter, and removed here too if
    any are found. (Its ctime is the time of this reset, which says nothing of a run.)"""
    os.fchmod(fd, _PROGRAM_MODE)
    os.utime(fd, ns=(0, 0))
    try:
        names = os.listxattr(fd)
    except OSError:  # no extended attributes on this kernel's memfds: nothing to remove
        names = []
    for name in names:
        os.removexattr(fd, name)
