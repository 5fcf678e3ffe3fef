"""Wire models of `POST /run_code` (SandboxFusion's request and answer) and `POST /run` (batched).

`/run_code` takes SandboxFusion's `RunCodeRequest` as its clients send it (verl, ReTool, SkyRL,
ToRL) and answers its `RunCodeResponse`: `status` says whose fault (`Success`: everything exited
0; `Failed`: the program's doing; `SandboxError`: the sandbox's), `compile_result` and
`run_result` say how each step ended. Fields SandboxFusion does not have are extras a
SandboxFusion client ignores: `verdict` (our word for the outcome), `memory_exceeded`,
`output_limit_exceeded`, `elapsed_s`.

The request model ignores unknown fields (as SandboxFusion's own pydantic model does: a drop-in
must accept what its clients already send); its types are checked like every other endpoint's
(an integer is a number, a string is never one).
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from rlvr.schemas.common import WireModel

#: SandboxFusion's language names that this service runs, and ours they map to. Our own names
#: (`c`, `javascript`) are accepted too.
LANGUAGES: dict[str, str] = {
    "python": "python",
    "python3": "python",
    "cpp": "cpp",
    "c": "c",
    "nodejs": "javascript",
    "javascript": "javascript",
    "go": "go",
    "java": "java",
    "rust": "rust",
}


class RunCodeRequest(WireModel):
    """SandboxFusion's `RunCodeRequest` (its field names, units and defaults)."""

    model_config = ConfigDict(extra="ignore", strict=True)
    candidate_text_fields: ClassVar[tuple[str, ...]] = ("code",)

    code: str = Field(description="The program.")
    language: str = Field(
        description=(
            "SandboxFusion's name: python | cpp | nodejs | go | java | rust (also c, "
            "javascript). Others get SandboxFusion's answer shape with `SandboxError` and a "
            "message naming what runs here."
        )
    )
    compile_timeout: float = Field(
        10.0, gt=0, allow_inf_nan=False, description="Seconds for the compile step (capped)."
    )
    run_timeout: float = Field(
        10.0, gt=0, allow_inf_nan=False, description="Wall seconds for the run (capped)."
    )
    memory_limit_MB: int = Field(
        -1, description="Memory limit of the run in MB; <= 0: the server's default (capped)."
    )
    stdin: str | None = Field(None, description="The program's standard input.")
    files: dict[str, str | None] = Field(
        default_factory=dict,
        description="Files written into the work dir before the run: {relative path: base64}.",
    )
    fetch_files: list[str] = Field(
        default_factory=list,
        description="Files read from the work dir after the run, returned in `files` as base64.",
    )


class RunItem(RunCodeRequest):
    """One item of `POST /run`: a `/run_code` request with an optional `id` echoed back."""

    id: str | None = Field(None, max_length=200, description="Caller's id, echoed back.")


class RunRequest(WireModel):
    items: list[RunItem] = Field(min_length=1, description="The runs; results come in order.")


class RunStatus(StrEnum):
    """SandboxFusion's `RunStatus`: whose fault it is."""

    success = "Success"  # compile (if any) and run finished with exit code 0
    failed = "Failed"  # the program's doing: a compile error, a non-zero exit, a time-out
    sandbox_error = "SandboxError"  # the sandbox's (or the request's language): not the program


class CommandRunStatus(StrEnum):
    """SandboxFusion's `CommandRunStatus`: how one command (compile or run) ended."""

    finished = "Finished"  # it exited by itself (any exit code) or was killed by a signal
    error = "Error"  # it was stopped for going over a limit other than time (output size)
    time_limit_exceeded = "TimeLimitExceeded"


class CommandRunResult(BaseModel):
    """SandboxFusion's `CommandRunResult`; stdout and stderr are always strings."""

    status: CommandRunStatus
    execution_time: float | None = Field(None, description="Seconds the command ran.")
    return_code: int | None = Field(
        None, description="Exit code; -N when killed by signal N; null on a time-out."
    )
    stdout: str = ""
    stderr: str = ""


class Verdict(StrEnum):
    """The outcome in our own words (an extra field: `/code`'s vocabulary, run-only)."""

    ok = "ok"  # ran and exited 0
    runtime_error = "runtime_error"  # non-zero exit or a signal
    timed_out = "timed_out"
    memory_exceeded = "memory_exceeded"
    output_limit_exceeded = "output_limit_exceeded"
    compile_error = "compile_error"
    compile_timed_out = "compile_timed_out"
    unsupported_language = "unsupported_language"
    bad_files = "bad_files"  # a `files` entry that is not valid base64, or a path outside
    sandbox_error = "sandbox_error"  # the verifier's own fault


class RunCodeResponse(BaseModel):
    """SandboxFusion's `RunCodeResponse`, plus extras a SandboxFusion client ignores."""

    status: RunStatus
    message: str = ""
    compile_result: CommandRunResult | None = None
    run_result: CommandRunResult | None = None
    executor_pod_name: str | None = None
    files: dict[str, str] = Field(
        default_factory=dict, description="The `fetch_files` that exist, as base64."
    )
    # -- extras
    id: str | None = Field(None, description="`/run` only: the item's `id`, echoed.")
    verdict: Verdict = Field(description="The outcome in our own words.")
    memory_exceeded: bool = Field(False, description="The run hit its memory limit.")
    output_limit_exceeded: bool = Field(
        False, description="The run wrote more than the output limit (it was stopped)."
    )
    elapsed_s: float = Field(0.0, description="Seconds the service spent on this request.")


class RunResponse(BaseModel):
    results: list[RunCodeResponse]
