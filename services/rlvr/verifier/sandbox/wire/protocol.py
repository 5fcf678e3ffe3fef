"""The messages between the host and a sandbox's executor, written down once (stdlib only).

The host's job builder (`domains/code/job_builder.py`) writes a `Job`; the executor in the
container (`executor.py`, `jobs.py`) answers with a `JobResult`, one `RunReport` per test;
the host's checker (`domains/code/check.py`) judges those. Both sides import this module (it is
sent into containers with the executor), so a field renamed on one side is a type error on the
other.

What a `RunReport` carries is partly the candidate's doing (its stdout, stderr, a reply line
it may have forged): these types describe what the executor *sends*, not what the host may
*trust*. The host still checks every field's type where the candidate could have chosen it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, NotRequired, TypedDict

# -- host -> executor


class Limits(TypedDict):
    """Per-run limits (wall deadline, address space, file size, processes)."""

    timeout_s: float
    memory_mb: int
    file_size_mb: int
    nproc: int


class AssertJobTest(TypedDict):
    kind: Literal["assert"]
    code: str


class CallJobTest(TypedDict):
    kind: Literal["call"]
    fn: str
    args: str  # the codec's encoding of [args, kwargs]


class StdioJobTest(TypedDict):
    kind: Literal["stdio"]
    stdin: str
    answer: NotRequired[str]  # the expected output, only for a checker program (see `Job`)


class InteractiveJobTest(TypedDict):
    kind: Literal["interactive"]
    input: str  # the interactor's argv[1]; never readable by the candidate


JobTest = AssertJobTest | CallJobTest | StdioJobTest | InteractiveJobTest


class JudgeProgram(TypedDict):
    """Dataset code that judges the candidate: a checker or an interactor (python | cpp)."""

    language: str
    code: str


class Program(TypedDict):
    """How the job's program is compiled and started (`languages.ProgramSpec.as_job`): the
    executor applies it without knowing the language."""

    source_name: str
    compile_argv: list[str] | None  # None: interpreted (the source itself runs)
    compile_env: dict[str, str]
    run_argv: list[str]  # empty for python (the zygote's warm interpreter runs it)
    run_env: dict[str, str]
    memory_rlimit: str  # "as" | "data": which rlimit carries the run's memory limit
    memory_slack_mb: int
    compile_memory_rlimit: str
    min_processes: int


class Job(TypedDict):
    """One item: a program and its tests' inputs (expected values never enter the sandbox)."""

    id: str | None
    language: str
    code: str
    limits: Limits
    tests: list[JobTest]
    stop_on_first_failure: bool
    compile_timeout_s: float
    compile_memory_mb: int
    compile_flags: list[str]
    program: Program
    # the compiled artefact (base64 of its tar) from the host's cache: no compile in this job
    artefact: NotRequired[str]
    # a compile-only job (no tests) that sends its artefact back for the host's cache
    return_artefact: NotRequired[bool]
    # the compile key: PID 1 keeps artefacts by it (the one it compiles, the one it is sent), so
    # the host may send the key alone to a container that holds it (`JobResult.artefact_keys`)
    artefact_key: NotRequired[str]
    # A checker program runs after the candidate's run is over and swept, on files PID 1
    # writes (input, the captured output, the answer); an interactor runs beside the candidate,
    # out of its reach. Both under `judge_limits`; their failures are the verifier's (`error`).
    checker: NotRequired[JudgeProgram]
    interactor: NotRequired[JudgeProgram]
    judge_limits: NotRequired[Limits]
    # A wall budget for all tests together (after compilation); what is left when it runs out
    # is not run.
    total_timeout_s: NotRequired[float]
    # `/run_code`'s work files (SandboxFusion's `files`, `fetch_files`): {relative path:
    # base64} written into each stdio run's work dir (the program's own files win a clash),
    # and the paths read back after the run (regular files only, bounded), as `RunReport.files`.
    # The host checked the paths; the executor refuses unplain ones again.
    files: NotRequired[dict[str, str]]
    fetch_files: NotRequired[list[str]]


# -- executor -> host


class SkipReason(StrEnum):
    """Why PID 1 did not run a test (a code, never prose: the host words the verdict)."""

    # stop_on_first_failure, after a failure PID 1 can see (a crash, a timeout, a non-zero exit,
    # a failed assert); a wrong answer is only known to the host, so its later tests did run
    AFTER_FAILURE = "after_failure"
    OUT_OF_BUDGET = "out_of_budget"  # total_timeout_s ran out before this test
    JUDGE_NOT_COMPILED = "judge_not_compiled"  # the problem's checker or interactor
    JUDGE_FAILED = "judge_failed"  # ... failed on an earlier test
    NOT_CLEANED = "not_cleaned"  # the sandbox could not be cleaned after this program
    SPAWNER_LOST = "spawner_lost"  # this program killed or stopped the zygote


class Reply(TypedDict, total=False):
    """One line of a serving candidate (call tests), reduced to its known scalar fields."""

    value: str  # the codec's encoding of the return value
    args: str  # arguments after the call (in-place mutation)
    raised: str
    message: str
    memory: bool
    unplain: str
    ready: bool
    load: str
    detail: str


class HarnessVerdict(TypedDict, total=False):
    """The assert harness's verdict on one test (the harness is trusted; the candidate is not)."""

    status: str  # passed | failed | runtime_error | memory_exceeded
    detail: str
    load: str
    lost: bool


class JudgeReport(TypedDict):
    """How a checker or interactor run ended; its meaning is `judge_outcome`'s."""

    exit_code: int | None
    signal: int | None
    timed_out: bool
    stderr: str
    elapsed_s: float
    # A checker that failed on the candidate's output but accepts the expected answer in its
    # place: the output caused the failure (the candidate's, `rejected`), not the checker.
    output_at_fault: NotRequired[bool]


class RunReport(TypedDict, total=False):
    """What the executor saw of one test; the host turns it into a verdict."""

    elapsed_s: float
    stderr: str
    timed_out: bool
    output_over: bool
    # a process run (stdio tests)
    exit_code: int | None
    signal: int | None
    stdout: str
    stdout_over: bool
    phases_ms: dict[str, float]
    # a call session
    replies: list[Reply]
    response_over: bool
    # an assert session
    verdict: HarnessVerdict | None
    # a checker program's or an interactor's run
    judge: JudgeReport
    # not run (why: a code), or not compiled
    skipped: SkipReason
    out_of_budget: bool  # a run that timed out as total_timeout_s ran out
    status: Literal["compile_error"]
    detail: str
    # the job's `fetch_files` that existed after the run: {path: base64}
    files: dict[str, str]


class CompileReport(TypedDict, total=False):
    detail: str
    elapsed_s: float
    timed_out: bool
    artefact: str  # base64 of the artefact tar (only when the job asked for it)


class JobResult(TypedDict, total=False):
    """The executor's answer to one job. `fault`: the executor failed (the verifier's error);
    `healthy`: False retires the container (an anomaly was seen and cleaned up)."""

    id: str | None
    tests: list[RunReport]
    anomalies: list[str]
    compile: CompileReport
    missing_artefact: bool  # sent `artefact_key` alone, and PID 1 no longer holds it
    # after a job with an `artefact_key`: every key PID 1 holds now, oldest first. PID 1 alone
    # decides how many it keeps; the host mirrors this list per container.
    artefact_keys: list[str]
    judge_compile: CompileReport  # the checker or interactor did not compile (verifier's fault)
    healthy: bool
    fault: str


# -- what a judge program's exit means (both sides)

# testlib's exit codes: 0 accepted (_ok), 1 wrong answer, 2 presentation error, 3 the judge's own
# failure (_fail), others (points, partial) count as not accepted here. An uncaught exception in
# a Python judge exits with FAIL_EXIT_CODE too (the runner maps it).
FAIL_EXIT_CODE = 3

JudgeOutcome = Literal["accepted", "rejected", "fault"]


def judge_outcome(report: JudgeReport) -> JudgeOutcome:
    """Exit 0: accepted; killed, timed out, or exit 3 (testlib's `_fail`): the judge failed;
    any other exit code: rejected (the candidate's answer is wrong), as is a failure the
    candidate's output caused (`output_at_fault`)."""
    if report.get("output_at_fault"):
        return "rejected"
    if report["timed_out"] or report["signal"] is not None or report["exit_code"] is None:
        return "fault"
    if report["exit_code"] == 0:
        return "accepted"
    if report["exit_code"] == FAIL_EXIT_CODE:
        return "fault"
    return "rejected"
