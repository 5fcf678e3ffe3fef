"""The toolchain seam: how a job's program is compiled (once per job) and started (once per run),
without knowing any language (stdlib only; in sandboxes).

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

import base64
import io
import os
import posixpath
import shutil
import tarfile
import time
from typing import cast

from rlvr.verifier.sandbox.inside.candidate import SOURCE_NAME
from rlvr.verifier.sandbox.inside.supervisor import Supervisor
from rlvr.verifier.sandbox.inside.work_files import work_files
from rlvr.verifier.sandbox.inside.zygote import SpawnRequest
from rlvr.verifier.sandbox.wire.protocol import CompileReport, Job, Limits, Program

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
    request: SpawnRequest,
    env: dict[str, str],
    memory_rlimit: str,
    memory_mb: int,
    slack_mb: int,
    min_processes: int,
) -> SpawnRequest:
    """A zygote request adjusted for one language: its environment, the rlimit that carries
    its memory limit (`as` or `data`), its thread allowance."""
    rlimits = dict(request["rlimits"])
    if memory_rlimit == "data":
        rlimits.pop("as", None)
        rlimits["data"] = (int(memory_mb) + int(slack_mb)) * 1024 * 1024
    rlimits["nproc"] = max(int(rlimits["nproc"]), int(min_processes))
    return cast(SpawnRequest, {**request, "rlimits": rlimits, "env": {**request["env"], **env}})


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


# The largest compiled artefact (its tar) kept in PID 1's memory and carried to the host (as
# base64 in one frame, parsed on its event loop): real programs are far below (Go ~1.3 MB);
# a program that embeds tens of MB of data is a compile error ("too large").
_ARTEFACT_LIMIT = 16 << 20


def needs_compile(job: Job) -> bool:
    program = job.get("program")  # hand-made jobs (tests, old hosts) may carry none: python
    return bool(program and program["compile_argv"])


def compile_program(
    supervisor: Supervisor, source: bytes, job: Job
) -> tuple[dict[str, bytes] | None, CompileReport, list[str]]:
    """(artefact files or None, report, anomalies). The artefact comes from the host's cache
    when the job carries one; else the job's compile command runs once, in a run of its own,
    and its stdout (the artefact tar: the sweep wipes the dir) is carried back."""
    if "artefact" in job:
        blob = base64.b64decode(job["artefact"])
        try:
            return unpack_artefact(blob, _ARTEFACT_LIMIT), {"elapsed_s": 0.0}, []
        except ArtefactError as exc:  # the host's copy of a tar we unpacked before: a fault
            raise RuntimeError(f"cached artefact unusable: {exc}") from exc
    program = job["program"]
    limits = compile_limits(job)
    # the job's files beside the source, as SandboxFusion compiles (a header the program
    # includes); what the compiler leaves in its output dir is all the artefact holds
    own = {program["source_name"]: source}
    cwd = supervisor.prepare_dir({**work_files(job, own), **own})
    request = supervisor.child_request("exec", cwd, limits, argv=program["compile_argv"])
    request = shape_request(
        request,
        program["compile_env"],
        program["compile_memory_rlimit"],
        int(limits["memory_mb"]),
        0,
        int(limits["nproc"]),
    )
    deadline = time.monotonic() + float(job["compile_timeout_s"])
    saved_limit = supervisor.output_limit
    supervisor.output_limit = _ARTEFACT_LIMIT
    try:
        outcome = supervisor.run_process(request, b"", deadline)
    finally:
        supervisor.output_limit = saved_limit
    elapsed = round(outcome["elapsed_s"], 4)
    anomalies = outcome["anomalies"]
    if outcome["timed_out"]:
        return None, {"detail": "compilation timed out", "timed_out": True}, anomalies
    if outcome["stdout_over"]:
        return None, {"detail": "the compiled program is too large"}, anomalies
    if outcome["exit_code"] != 0:
        detail = outcome["stderr"][-1500:] or "compilation failed"
        return None, {"detail": detail, "elapsed_s": elapsed}, anomalies
    try:
        files = unpack_artefact(outcome["stdout_bytes"], _ARTEFACT_LIMIT)
    except ArtefactError as exc:
        return None, {"detail": str(exc), "elapsed_s": elapsed}, anomalies
    report: CompileReport = {"elapsed_s": elapsed}
    if job.get("return_artefact"):
        report["artefact"] = base64.b64encode(outcome["stdout_bytes"]).decode()
    return files, report, anomalies


def program_request(
    supervisor: Supervisor,
    job: Job,
    code: bytes,
    artefact: dict[str, bytes] | None,
    in_memfd: bool = False,
) -> SpawnRequest:
    """The zygote's request that starts one run of the program in a fresh work dir: Python in
    the warm interpreter; anything else by its run argv, over its artefact (compiled) or its
    source (interpreted), with the language's environment and memory rlimit."""
    limits = job["limits"]
    program = job["program"]
    if job["language"] == "python":
        own = {f"{SOURCE_NAME}.py": code}
        cwd = supervisor.prepare_dir({**work_files(job, own), **own})
        path = os.path.join(cwd, f"{SOURCE_NAME}.py")
        return supervisor.child_request("python-main", cwd, limits, path=path)
    if in_memfd:  # exec'd from the job's memfd: the run gets an empty work dir (and its files)
        cwd = supervisor.prepare_dir(work_files(job, {}))
    else:
        own = artefact if artefact is not None else {program["source_name"]: code}
        cwd = supervisor.prepare_dir({**work_files(job, own), **own})
    request = supervisor.child_request("exec", cwd, limits, argv=run_argv(program, cwd))
    return shape_request(
        request,
        program["run_env"],
        program["memory_rlimit"],
        int(limits["memory_mb"]),
        int(program["memory_slack_mb"]),
        int(program["min_processes"]),
    )
