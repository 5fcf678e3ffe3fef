"""The messages between the host and a sandbox's executor, written down once (stdlib only).

The host's job builder (`domains/code/job_builder.py`) writes a `Job`; the executor in the
container (`executor.py`, `jobs.py`) answers with a `JobResult`, one `RunReport` per test (a
tagged union: its `kind` says which of six shapes it is); the host's checker
(`domains/code/check.py`) reads each through `decode_run_report` and judges it. Both sides
import this module (it is sent into containers with the executor), so a field renamed on one
side is a type error on the other.

What a `RunReport` carries is partly the candidate's doing (its stdout, stderr, a reply line
it may have forged): these types describe what the executor *sends*, not what the host may
*trust*. The host still checks every field's type where the candidate could have chosen it.
"""

# (No `from __future__ import annotations`: `decode_run_report` reads the shapes' required and
# optional keys at run time, which Python 3.11 gets wrong for string annotations.)
import functools
import types
from collections.abc import Callable
from enum import StrEnum
from typing import (
    Literal,
    NotRequired,
    TypedDict,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

# -- host -> executor


# Where the host mounts the job channel's directory in a container, and PID 1's socket in it
# (`inside/channel.py`, `host/channel.py`): empty and dead once the channel is up.
CHANNEL_DIR = "/rlvr-channel"
CHANNEL_PATH = f"{CHANNEL_DIR}/pid1.sock"


class ExecutorConfig(TypedDict):
    """What PID 1 is told once, at its start (the container's settings it applies itself)."""

    output_limit_bytes: int  # captured stdout/stderr kept per run
    is_launcher_enabled: bool
    is_job_init_enabled: bool
    job_namespaces: str  # preferred | required | off
    tmpfs_mb: int
    # the compiled artefacts PID 1 keeps between jobs (`inside/artefacts.py`): how many, and
    # their bytes together; it reports the keys it holds (`JobResult.artefact_keys`)
    kept_artefacts: int
    kept_artefact_bytes: int
    # where PID 1 offers the job channel's socket (`inside/channel.py`); absent: stdin/stdout
    channel: NotRequired[str]


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


class ExecutorReady(TypedDict):
    """PID 1's first frame, once: it is ready for jobs, or why it is not (`error`)."""

    ready: bool
    error: NotRequired[str]
    pid: NotRequired[int]
    zygote: NotRequired[int]  # the zygote's pid
    launcher: NotRequired[bool]  # native runs start through the image's launcher
    job_namespaces: NotRequired[bool]  # every job in fresh namespaces
    job_namespaces_error: NotRequired[str | None]  # why not, where they were asked for
    channel: NotRequired[bool]  # it listens at `ExecutorConfig.channel` for the host


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


class StdioReport(TypedDict):
    """A stdio test's run: one fresh process, its stdin the test's."""

    kind: Literal["stdio"]
    exit_code: int | None
    signal: int | None
    timed_out: bool
    stdout: str  # "" once a checker program judged it (`judge`), or past the answer's budget
    stdout_over: bool
    stderr: str
    elapsed_s: float
    phases_ms: dict[str, float]
    out_of_budget: NotRequired[bool]  # it timed out as the job's total_timeout_s ran out
    judge: NotRequired[JudgeReport]  # the checker program's run, when the item has one
    # the job's `fetch_files` that existed after the run: {path: base64}
    files: NotRequired[dict[str, str]]


class InteractiveReport(TypedDict):
    """An interactive test: the candidate beside the interactor. `judge` is absent when the
    candidate ran out of time (the interactor was waiting for it) or the interactor was lost."""

    kind: Literal["interactive"]
    exit_code: int | None
    signal: int | None
    timed_out: bool
    output_over: bool
    stderr: str
    elapsed_s: float
    out_of_budget: NotRequired[bool]
    judge: NotRequired[JudgeReport]


class CallReport(TypedDict):
    """A call test in a serving Python process: `replies` are its ready line and its answer
    (one line: the code did not load, or the answer never came)."""

    kind: Literal["call"]
    replies: list[Reply]
    timed_out: bool
    response_over: bool  # the answer line was too long (or past the answer's budget)
    output_over: bool
    stderr: str
    elapsed_s: float
    out_of_budget: NotRequired[bool]


class AssertReport(TypedDict):
    """An assert test: the harness's verdict, None when the harness gave none (the test timed
    out, or the harness was killed)."""

    kind: Literal["assert"]
    verdict: HarnessVerdict | None
    timed_out: bool
    output_over: bool
    stderr: str
    elapsed_s: float
    out_of_budget: NotRequired[bool]


class SkippedReport(TypedDict):
    """A test PID 1 did not run, and why (a code: the host words it)."""

    kind: Literal["skipped"]
    reason: SkipReason
    judge: NotRequired[JudgeReport]  # JUDGE_NOT_COMPILED: what the compiler said, as a judge


class CompileErrorReport(TypedDict):
    """The program did not compile (every test of the job gets the same report)."""

    kind: Literal["compile_error"]
    detail: str  # the compiler's diagnostics (the candidate's doing)
    timed_out: bool  # the compiler ran past compile_timeout_s (the machine's load, maybe)
    elapsed_s: float


# What the executor saw of one test; the host turns it into a verdict, matching on `kind`.
RunReport = (
    StdioReport | InteractiveReport | CallReport | AssertReport | SkippedReport | CompileErrorReport
)


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


# -- reading a run report (host side)

_Check = Callable[[object], bool]


def _is_bool(value: object) -> bool:
    return type(value) is bool


def _is_str(value: object) -> bool:
    return type(value) is str


def _is_int_or_none(value: object) -> bool:
    return value is None or type(value) is int


def _is_seconds(value: object) -> bool:
    return type(value) in (int, float)


def _is_str_map(value: object) -> bool:
    return type(value) is dict and all(type(v) is str for v in value.values())


def _is_phases(value: object) -> bool:
    return type(value) is dict and all(_is_seconds(v) for v in value.values())


def _is_replies(value: object) -> bool:
    return type(value) is list and all(type(reply) is dict for reply in value)


def _is_verdict(value: object) -> bool:
    return value is None or type(value) is dict


def _is_reason(value: object) -> bool:
    return type(value) is str and value in _SKIP_CODES


_SKIP_CODES = frozenset(reason.value for reason in SkipReason)

# The type of each field a report may carry, by name (a name means one thing in every shape).
# Inside `replies` and `verdict` the candidate or the harness chose the values: the host's
# checker looks at each one where it reads it (`check.py`), not here.
_FIELD_CHECKS: dict[str, _Check] = {
    "exit_code": _is_int_or_none,
    "signal": _is_int_or_none,
    "timed_out": _is_bool,
    "stdout": _is_str,
    "stdout_over": _is_bool,
    "output_over": _is_bool,
    "response_over": _is_bool,
    "out_of_budget": _is_bool,
    "stderr": _is_str,
    "elapsed_s": _is_seconds,
    "phases_ms": _is_phases,
    "files": _is_str_map,
    "replies": _is_replies,
    "verdict": _is_verdict,
    "judge": lambda value: _fields_wrong(value, JudgeReport, _JUDGE_CHECKS, "judge") is None,
    "reason": _is_reason,
    "detail": _is_str,
}

# kind -> its TypedDict: the decoder's required and optional fields are the types' own
_SHAPES: dict[str, type] = {
    get_args(shape.__annotations__["kind"])[0]: shape
    for shape in (
        StdioReport,
        InteractiveReport,
        CallReport,
        AssertReport,
        SkippedReport,
        CompileErrorReport,
    )
}

_JUDGE_CHECKS: dict[str, _Check] = {
    "exit_code": _is_int_or_none,
    "signal": _is_int_or_none,
    "timed_out": _is_bool,
    "stderr": _is_str,
    "elapsed_s": _is_seconds,
    "output_at_fault": _is_bool,
}


def _shape_wrong(
    obj: object, shape: type, where: str, field_wrong: Callable[[str, object], str | None]
) -> str | None:
    """None when `obj` is a dict with every required field of the TypedDict `shape`, no field
    it does not declare, and each field as `field_wrong(name, value)` accepts (None); else
    what is wrong, at `where`. (The one reader of both directions' messages.)"""
    if type(obj) is not dict:
        return f"{where} is not an object"
    required: frozenset[str] = shape.__required_keys__  # type: ignore[attr-defined]
    declared: frozenset[str] = required | shape.__optional_keys__  # type: ignore[attr-defined]
    missing = required - obj.keys()
    if missing:
        return f"{where} lacks {', '.join(sorted(missing))}"
    for name, value in obj.items():
        if name not in declared:
            return f"{where} has an unknown field {str(name)[:40]!r}"
        wrong = field_wrong(name, value)
        if wrong is not None:
            return wrong
    return None


def _fields_wrong(obj: object, shape: type, checks: dict[str, _Check], where: str) -> str | None:
    """`_shape_wrong` with each field's type as `checks` says (the tag is the caller's)."""

    def field_wrong(name: str, value: object) -> str | None:
        if name == "kind" or checks[name](value):
            return None
        return f"{where} has a malformed {name!r}"

    return _shape_wrong(obj, shape, where, field_wrong)


def decode_run_report(obj: object) -> RunReport:
    """A run report as the executor sent it (parsed JSON), checked against its kind's shape:
    the tag, every required field, no unknown one, each of its type (the skip reason a known
    code, returned as a `SkipReason`). ValueError otherwise: the executor's answer is
    malformed, which the host makes the item's `error` (never a verdict on the candidate)."""
    if type(obj) is not dict:
        raise ValueError(f"a run report is a {type(obj).__name__}, not an object")
    kind = obj.get("kind")
    shape = _SHAPES.get(kind) if type(kind) is str else None
    if shape is None:
        shown = repr(kind[:40]) if type(kind) is str else f"of type {type(kind).__name__}"
        raise ValueError(f"a run report of unknown kind {shown}")
    wrong = _fields_wrong(obj, shape, _FIELD_CHECKS, f"a run report of kind {kind!r}")
    if wrong is not None:
        raise ValueError(wrong)
    if kind == "skipped":
        return cast(SkippedReport, {**obj, "reason": SkipReason(obj["reason"])})
    return cast(RunReport, obj)


# -- reading a job (executor side)

# How deep a job's declared types nest (Job > tests > a test's fields): a bound for the reader.
_MAX_TYPE_DEPTH = 8


def _type_wrong(value: object, declared: object, where: str, depth: int = 0) -> str | None:
    """None when `value` (parsed JSON) is of the `declared` type of this module's messages
    (a scalar, `X | None`, `list[X]`, `dict[str, X]`, a Literal, a TypedDict, a union of
    TypedDicts); else what is wrong, at `where`. A float field takes an int (JSON's `5`)."""
    if depth > _MAX_TYPE_DEPTH:
        raise TypeError(f"{where}: declared types nest deeper than {_MAX_TYPE_DEPTH}")
    origin = get_origin(declared)
    if origin is Union or origin is types.UnionType:
        arms = get_args(declared)
        if any(_type_wrong(value, arm, where, depth + 1) is None for arm in arms):
            return None
        shapes = [arm for arm in arms if is_typeddict(arm)]
        if shapes and type(value) is dict:  # the arm its tag names says what is wrong
            for shape in shapes:
                tag = _hints(shape).get("kind")
                if tag is not None and value.get("kind") in get_args(tag):
                    return _type_wrong(value, shape, where, depth + 1)
            return f"{where} has no known kind"
        return f"{where} is not {' | '.join(_type_name(arm) for arm in arms)}"
    if origin is Literal:
        allowed = get_args(declared)
        if any(type(value) is type(choice) and value == choice for choice in allowed):
            return None
        return f"{where} is not one of {', '.join(map(repr, allowed))}"
    if origin is list:
        if type(value) is not list:
            return f"{where} is not a list"
        (item,) = get_args(declared)
        for index, element in enumerate(value):
            wrong = _type_wrong(element, item, f"{where}[{index}]", depth + 1)
            if wrong is not None:
                return wrong
        return None
    if origin is dict:
        if type(value) is not dict:
            return f"{where} is not an object"
        _, item = get_args(declared)
        for key, element in value.items():
            wrong = _type_wrong(element, item, f"{where}[{str(key)[:40]!r}]", depth + 1)
            if wrong is not None:
                return wrong
        return None
    if is_typeddict(declared):
        return _typeddict_wrong(value, cast(type, declared), where, depth + 1)
    if declared is float:
        ok = type(value) in (int, float)
    elif declared is type(None):
        ok = value is None
    else:  # str, int, bool: exactly (a bool is not an int here)
        ok = type(value) is declared
    return None if ok else f"{where} is not {_type_name(declared)}"


@functools.cache
def _hints(shape: type) -> dict[str, object]:
    """A message type's field types (NotRequired stripped: the field's own type), made once:
    `get_type_hints` evaluates every annotation again on each call, for every job."""
    return get_type_hints(shape)


def _typeddict_wrong(value: object, shape: type, where: str, depth: int) -> str | None:
    hints = _hints(shape)
    return _shape_wrong(
        value,
        shape,
        where,
        lambda name, element: _type_wrong(element, hints[name], f"{where}.{name}", depth),
    )


def _type_name(declared: object) -> str:
    return getattr(declared, "__name__", None) or str(declared)


# -- the same check, compiled: what every well-formed job costs

_Accepts = Callable[[object], bool]


@functools.cache
def _acceptor(declared: object, depth: int = 0) -> _Accepts:
    """`_type_wrong(value, declared, ...) is None` as a closure made once per declared type,
    which names nothing: a job that passes costs no introspection of the types and no message
    for each field (PID 1 decodes every job: this was a fifth of its CPU per `/run_code` call).
    `_type_wrong` still says what is wrong where this refuses."""
    if depth > _MAX_TYPE_DEPTH:
        raise TypeError(f"declared types nest deeper than {_MAX_TYPE_DEPTH}")
    origin = get_origin(declared)
    if origin is Union or origin is types.UnionType:
        arms = tuple(_acceptor(arm, depth + 1) for arm in get_args(declared))
        return lambda value: any(arm(value) for arm in arms)
    if origin is Literal:
        allowed = get_args(declared)
        return lambda value: any(type(value) is type(c) and value == c for c in allowed)
    if origin is list:
        item = _acceptor(get_args(declared)[0], depth + 1)
        return lambda value: type(value) is list and all(map(item, value))
    if origin is dict:
        item = _acceptor(get_args(declared)[1], depth + 1)
        return lambda value: type(value) is dict and all(map(item, value.values()))
    if is_typeddict(declared):
        return _typeddict_acceptor(cast(type, declared), depth + 1)
    if declared is float:
        return lambda value: type(value) in (int, float)
    if declared is type(None):
        return lambda value: value is None
    return lambda value: type(value) is declared


def _typeddict_acceptor(shape: type, depth: int) -> _Accepts:
    hints = _hints(shape)
    required: frozenset[str] = shape.__required_keys__  # type: ignore[attr-defined]
    fields = {name: _acceptor(hint, depth) for name, hint in hints.items()}

    def accepts(value: object) -> bool:
        if type(value) is not dict or not required <= value.keys():
            return False
        for name, element in value.items():
            field = fields.get(name)
            if field is None or not field(element):
                return False
        return True

    return accepts


def decode_job(obj: object) -> Job:
    """A job as the host sent it (parsed JSON), checked against `Job` and every type it
    declares: the fields, their types, each test's shape by its `kind`. ValueError otherwise,
    naming the first wrong field: the executor answers it as a `fault` (the host's own
    error, never the candidate's), instead of failing somewhere inside the job."""
    if _acceptor(Job)(obj):
        return cast(Job, obj)
    wrong = _type_wrong(obj, Job, "job")
    if wrong is not None:
        raise ValueError(f"a malformed job: {wrong}")
    return cast(Job, obj)
