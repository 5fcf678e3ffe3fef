"""Compiling a program once and starting it per run, in the executor (stdlib only; in sandboxes).

The host describes a job's program (`languages.ProgramSpec.as_job`: source file name, compile
argv and environment, run argv and environment, which rlimit carries the memory limit); this
module applies it without knowing any language. The compile runs like any candidate run (a
child of the seccomp-confined zygote, its own session, rlimits, a fresh work dir) and writes
the artefact as a tar on its stdout: the sweep after it wipes the work dir, so the artefact only
lives in PID 1's memory (and, sent back, in the host's cache), where no candidate can write.
Each run then gets its own copy of it in a fresh work dir.

The tar is unpacked by PID 1 itself, defensively: only regular files and directories, relative
names without `..`, bounded in count and size. A tar that is anything else is a compile
failure, never a file written outside the work dir.
"""

from __future__ import annotations

import io
import os
import posixpath
import shutil
import tarfile
from typing import Any

from rlvr.verifier.sandbox.wire.protocol import Job, Limits, Program

MAX_ARTEFACT_FILES = 4096
_PATH = "/usr/local/bin:/usr/bin:/bin"


class ArtefactError(Exception):
    """The compile's output is not an artefact we accept (the candidate's compile failed)."""


def unpack_artefact(data: bytes, limit_bytes: int) -> dict[str, bytes]:
    """{relative path: content} of the artefact tar's regular files."""
    files: dict[str, bytes] = {}
    total = 0
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as archive:
            for member in archive:
                name = posixpath.normpath(member.name)
                if member.isdir():
                    continue
                if not member.isreg():
                    raise ArtefactError(f"not a regular file in the artefact: {name[:100]!r}")
                if name.startswith(("/", "..")) or name in (".", "") or "\0" in name:
                    raise ArtefactError(f"unsafe name in the artefact: {name[:100]!r}")
                total += member.size
                if total > limit_bytes or len(files) >= MAX_ARTEFACT_FILES:
                    raise ArtefactError("artefact too large")
                handle = archive.extractfile(member)
                if handle is None:
                    raise ArtefactError(f"unreadable artefact member {name[:100]!r}")
                files[name] = handle.read()
    except (tarfile.TarError, EOFError, ValueError) as exc:
        raise ArtefactError(f"broken artefact: {exc}") from exc
    if not files:
        raise ArtefactError("the compiler wrote nothing")
    return files


def compile_limits(job: Job) -> Limits:
    """The compiler's limits: its own deadline and memory, threads for javac and `go build`."""
    return {
        **job["limits"],
        "timeout_s": job["compile_timeout_s"],
        "memory_mb": job["compile_memory_mb"],
        "nproc": max(64, int(job["program"]["min_processes"])),
    }


def shape_request(
    request: dict[str, Any],
    env: dict[str, str],
    memory_rlimit: str,
    memory_mb: int,
    slack_mb: int,
    min_processes: int,
) -> dict[str, Any]:
    """A zygote request adjusted for one language: its environment, the rlimit that carries
    its memory limit (`as` or `data`), its thread allowance."""
    rlimits = dict(request["rlimits"])
    if memory_rlimit == "data":
        rlimits.pop("as", None)
        rlimits["data"] = (int(memory_mb) + int(slack_mb)) * 1024 * 1024
    rlimits["nproc"] = max(int(rlimits["nproc"]), int(min_processes))
    return {**request, "rlimits": rlimits, "env": {**request["env"], **env}}


def native_binary(program: Program, artefact: dict[str, bytes]) -> bytes | None:
    """The artefact's one executable when the program is run as `./name` (C, C++, Rust, Go):
    it can then be exec'd from memory; None for an artefact of several files (Java's classes)
    or one run by an interpreter."""
    argv = program["run_argv"]
    if len(artefact) != 1 or not argv:
        return None
    ((name, data),) = artefact.items()
    return data if str(argv[0]) == f"./{name}" and "/" not in name else None


def run_argv(program: Program, cwd: str) -> list[str]:
    """The run's argv with the program resolved (execve searches nothing): `./name` in the
    run's work dir, a bare name on the image's PATH."""
    argv = [str(word) for word in program["run_argv"]]
    if argv and argv[0].startswith("./"):
        argv[0] = os.path.join(cwd, argv[0][2:])
    elif argv and "/" not in argv[0]:
        argv[0] = shutil.which(argv[0], path=_PATH) or argv[0]
    return argv
