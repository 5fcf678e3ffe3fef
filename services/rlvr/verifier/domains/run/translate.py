"""SandboxFusion's request -> our sandbox job, and the executor's run report -> its answer (pure).

The job is the code domain's (`job_builder.build_job`, its limits and caps): one stdio test whose
stdin is the request's, nothing expected (a run, not a judgement). What comes back is mapped
to SandboxFusion's statuses with `/code`'s reading of a run (`check.run_failure`: time, output,
memory, crash), so a memory kill is told apart from a crash the same way on both endpoints.
"""

from __future__ import annotations

import base64
import binascii
import posixpath
from dataclasses import dataclass

from rlvr.schemas.code import CodeItem, TestStatus
from rlvr.schemas.run import (
    LANGUAGES,
    CommandRunResult,
    CommandRunStatus,
    RunCodeRequest,
    RunCodeResponse,
    RunStatus,
    Verdict,
)
from rlvr.verifier.domains.code.check import run_failure
from rlvr.verifier.domains.code.compiled import CompileOutcome
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.deadlines import requested_compile_timeout_s
from rlvr.verifier.domains.code.job_builder import build_job
from rlvr.verifier.domains.code.not_run import NOT_RUN
from rlvr.verifier.sandbox.wire.protocol import Job, SkippedReport, StdioReport

# What `files` / `fetch_files` may carry. The work dir is the container's tmpfs (64 MB by
# default), and a job's answer travels in one frame the host parses on its event loop.
MAX_FILES = 64
MAX_FILES_BYTES = 16 << 20
MAX_PATH_CHARS = 255


class BadFiles(ValueError):
    """A `files` entry that is not base64, or a path that leaves the work dir."""


def supported_languages() -> str:
    return ", ".join(sorted(LANGUAGES))


def our_language(name: str) -> str | None:
    """Our language for SandboxFusion's `name` (None: not run here)."""
    return LANGUAGES.get(name)


def work_path(path: str) -> str:
    """`path` as a plain relative path inside the work dir, or BadFiles.

    SandboxFusion's clients send paths relative to the work dir (`data/input.txt`); an
    absolute path, `..`, an empty or `.` component, a backslash or a NUL is refused.
    """
    if (
        not path
        or len(path) > MAX_PATH_CHARS
        or path.startswith("/")
        or "\\" in path
        or "\x00" in path
    ):
        raise BadFiles(f"file path {path[:80]!r} is not a relative path inside the work dir")
    parts = path.split("/")
    if any(part in ("", ".", "..") for part in parts) or posixpath.normpath(path) != path:
        raise BadFiles(f"file path {path[:80]!r} is not a plain relative path (no ., .., //)")
    return path


def job_files(request: RunCodeRequest) -> tuple[dict[str, str], list[str]]:
    """(the files to write, as base64 checked here; the paths to fetch), or BadFiles."""
    if len(request.files) > MAX_FILES or len(request.fetch_files) > MAX_FILES:
        raise BadFiles(f"at most {MAX_FILES} files and {MAX_FILES} fetch_files")
    files: dict[str, str] = {}
    total = 0
    for path, content in request.files.items():
        name = work_path(path)
        try:
            data = base64.b64decode(content or "", validate=True)
        except (binascii.Error, ValueError):
            raise BadFiles(f"files[{path[:80]!r}] is not valid base64") from None
        total += len(data)
        if total > MAX_FILES_BYTES:
            raise BadFiles(f"files hold more than {MAX_FILES_BYTES >> 20} MiB")
        files[name] = base64.b64encode(data).decode()
    names = set(files)
    for name in files:  # `a` and `a/b` cannot both be files
        parent = name.rpartition("/")[0]
        while parent:
            if parent in names:
                raise BadFiles(f"file path {parent!r} is both a file and a directory")
            parent = parent.rpartition("/")[0]
    fetch = [work_path(path) for path in request.fetch_files]
    return files, list(dict.fromkeys(fetch))


def build_run_job(
    request: RunCodeRequest, language: str, settings: CodeSettings
) -> tuple[CodeItem, Job]:
    """The code domain's item and job for one run: the same limits, caps and program spec as
    a `/code` item; SandboxFusion's `compile_timeout` replaces the item's compile budget
    (capped by `compile_timeout_s`), `memory_limit_MB` <= 0 means the server's default."""
    memory_mb = request.memory_limit_MB if request.memory_limit_MB > 0 else None
    item = CodeItem.model_validate(
        {
            "code": request.code,
            "language": language,
            "tests": [{"kind": "stdio", "stdin": request.stdin or "", "stdout": ""}],
            "timeout_s": float(request.run_timeout),
            "memory_mb": memory_mb,
        }
    )
    job = build_job(item, request.code, settings)
    job["compile_timeout_s"] = requested_compile_timeout_s(float(request.compile_timeout), settings)
    files, fetch = job_files(request)
    if files:
        job["files"] = files
    if fetch:
        job["fetch_files"] = fetch
    return item, job


# ---------------------------------------------------------------- answers


@dataclass(frozen=True)
class Answer:
    """What the response needs besides the request: who runs it, and how long it took."""

    pod_name: str
    elapsed_s: float
    item_id: str | None = None


def sandbox_error(
    message: str, answer: Answer, verdict: Verdict = Verdict.sandbox_error
) -> RunCodeResponse:
    return RunCodeResponse(
        id=answer.item_id,
        status=RunStatus.sandbox_error,
        message=message,
        executor_pod_name=answer.pod_name,
        verdict=verdict,
        elapsed_s=answer.elapsed_s,
    )


def compile_result(outcome: CompileOutcome | None) -> CommandRunResult | None:
    """SandboxFusion's compile step: None for an interpreted language."""
    if outcome is None:
        return None
    elapsed = round(outcome.elapsed_s, 6)
    if outcome.is_timed_out:
        return CommandRunResult(
            status=CommandRunStatus.time_limit_exceeded,
            execution_time=elapsed,
            stderr=outcome.detail,
        )
    if outcome.artefact_b64 is None:
        return CommandRunResult(
            status=CommandRunStatus.finished,
            execution_time=elapsed,
            return_code=1,
            stderr=outcome.detail,
        )
    return CommandRunResult(status=CommandRunStatus.finished, execution_time=elapsed, return_code=0)


def compile_failed(outcome: CompileOutcome, answer: Answer) -> RunCodeResponse:
    verdict = Verdict.compile_timed_out if outcome.is_timed_out else Verdict.compile_error
    message = "compilation timed out" if outcome.is_timed_out else "compilation failed"
    return RunCodeResponse(
        id=answer.item_id,
        status=RunStatus.failed,
        message=message,
        compile_result=compile_result(outcome),
        executor_pod_name=answer.pod_name,
        verdict=verdict,
        elapsed_s=answer.elapsed_s,
    )


def _return_code(report: StdioReport) -> int | None:
    if report["timed_out"]:
        return None
    if report["signal"] is not None:
        return -report["signal"]  # Python's subprocess convention, as SandboxFusion reports it
    return report["exit_code"]


def run_answer(
    report: StdioReport | SkippedReport, outcome: CompileOutcome | None, answer: Answer
) -> RunCodeResponse:
    """SandboxFusion's answer for one finished run (`report` from the executor).

    `Success` only when the run (and the compile) exited 0; a time-out is `TimeLimitExceeded`
    with `return_code` null; output past the limit stops the run (`Error`); a memory kill is
    `Finished` with its non-zero code and `memory_exceeded: true`.
    """
    if report["kind"] == "skipped":  # the sandbox could not give it a clean place to run
        _, why = NOT_RUN[report["reason"]]
        return sandbox_error(f"sandbox error: {why}", answer)
    failure = run_failure(report)
    return_code = _return_code(report)
    verdict, status, message = Verdict.ok, CommandRunStatus.finished, ""
    is_memory = is_output = False
    if failure is not None:
        kind, message = failure
        if kind is TestStatus.timed_out:
            verdict, status, return_code = (
                Verdict.timed_out,
                CommandRunStatus.time_limit_exceeded,
                None,
            )
        elif kind is TestStatus.memory_exceeded:
            verdict, is_memory = Verdict.memory_exceeded, True
            message = f"memory limit exceeded: {message}".rstrip(": ")
        elif kind is TestStatus.failed:  # the output limit (the only `failed` of a bare run)
            verdict, status, is_output = Verdict.output_limit_exceeded, CommandRunStatus.error, True
        else:
            verdict = Verdict.runtime_error
    return RunCodeResponse(
        id=answer.item_id,
        status=RunStatus.success if verdict is Verdict.ok else RunStatus.failed,
        message=message[:2000],
        compile_result=compile_result(outcome),
        run_result=CommandRunResult(
            status=status,
            execution_time=round(float(report["elapsed_s"]), 6),
            return_code=return_code,
            stdout=report["stdout"],
            stderr=report["stderr"],
        ),
        executor_pod_name=answer.pod_name,
        files=dict(report.get("files", {})),
        verdict=verdict,
        memory_exceeded=is_memory,
        output_limit_exceeded=is_output,
        elapsed_s=answer.elapsed_s,
    )
