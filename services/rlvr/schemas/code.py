"""Wire models of `POST /code`: programs with assert / call / stdio tests, per-test verdicts."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from rlvr.schemas.common import ItemResult, WireModel

_DETAIL_CHARS = 4000
MAX_VALUE_DEPTH = 150  # the sandbox codec refuses 200 levels, counted from [args, kwargs]


def unicode_text(text: str, what: str) -> str:
    """`text` if it can be written as UTF-8 (a lone surrogate such as `\\ud800` cannot: the
    sandbox could not even write it to a file or a pipe); else ValueError naming `what`."""
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValueError(f"{what} is not valid Unicode text ({exc.reason})") from None
    return text


def nesting_depth(value: Any, limit: int) -> int:
    """How deeply lists/dicts nest in a JSON value, counting no further than `limit + 1`.

    Level by level, keeping only the containers of each level (a comprehension per level, not
    a Python step per scalar): a million flat arguments cost a few tens of milliseconds.
    """
    depth, level = 0, [value] if type(value) in (list, dict) else []
    while level and depth <= limit:
        depth += 1
        children = [c for node in level for c in (node.values() if type(node) is dict else node)]
        level = [c for c in children if type(c) is list or type(c) is dict]
    return depth


# ---- judge: scoring (test weights and groups, item scoring) and reuse of verdicts ---------------


class TestScoring(WireModel):
    """What a test is worth: the fields every test kind carries for scoring (`weight`, `group`)."""

    __test__ = False  # not a pytest class

    weight: float = Field(
        1.0,
        gt=0,
        le=1e6,
        allow_inf_nan=False,
        description="What this test is worth relative to the others (default 1).",
    )
    group: str | None = Field(
        None,
        max_length=200,
        description=(
            "Subtask name for `scoring: groups`: a group earns the sum of its tests' weights "
            "only when all of them pass; a test without a group is a group of its own."
        ),
    )

    @field_validator("group")
    @classmethod
    def _utf8_group(cls, group: str | None) -> str | None:
        return None if group is None else unicode_text(group, "group")


Scoring = Literal["fraction", "all", "groups"]


class ItemScoring(WireModel):
    """How an item's reward is made from its tests' verdicts."""

    scoring: Scoring = Field(
        "fraction",
        description=(
            "`fraction` (default): the weighted share of tests passed; `all`: 1 only when every "
            "test passes, else 0; `groups` (IOI subtasks): the weighted share of groups whose "
            "tests all passed."
        ),
    )


Reuse = Literal["batch", "cache"]


class ResultReuse(BaseModel):
    """Whether an item's verdict was produced by running it or copied from an identical item."""

    reused: Reuse | None = Field(
        None,
        description=(
            "null: this item was run. `batch`: an identical item (same language, program after "
            "extraction, tests, limits and scoring) earlier in the same request was run and its "
            "verdict copied here; `cache`: copied from an identical item of an earlier request. "
            "A copied result's `elapsed_s` is 0; its per-test verdicts are the run's."
        ),
    )


# ---- end judge block ---------------------------------------------------------------------


# ---- sandbox: checkers, interactors, the item's total time budget (issue 16) -------------------


class LinesChecker(WireModel):
    kind: Literal["lines"] = Field(
        description=(
            "Today's comparison (the default): line by line after splitting on whitespace, "
            "trailing blank lines ignored, line counts equal; a test's `float_tolerance` applies."
        )
    )


class TokensChecker(WireModel):
    kind: Literal["tokens"] = Field(
        description="Whitespace-separated tokens equal, whatever the line breaks."
    )


class FloatChecker(WireModel):
    kind: Literal["float"] = Field(
        description=(
            "Tokens equal, whatever the line breaks, where every numeric token (integer or not) "
            "may differ from the expected one by `abs_tol` or by `rel_tol` relative to it; "
            "computed in decimal (`1e400` is finite, big integers stay exact); `inf`/`nan` "
            "match only themselves."
        )
    )
    abs_tol: float = Field(1e-6, ge=0, allow_inf_nan=False, description="Absolute tolerance.")
    rel_tol: float = Field(1e-6, ge=0, allow_inf_nan=False, description="Relative tolerance.")


class JudgeProgram(WireModel):
    """A program that comes with the problem (dataset code, not the candidate's)."""

    language: Literal["python", "cpp"] = Field(description="python | cpp (g++, plain C++).")
    code: str = Field(min_length=1, description="Its source.")

    @field_validator("code")
    @classmethod
    def _utf8(cls, code: str) -> str:
        return unicode_text(code, "the checker's or interactor's code")


class ProgramChecker(JudgeProgram):
    kind: Literal["program"] = Field(
        description=(
            "Run the testlib way, `checker <input-file> <output-file> <answer-file>`, after the "
            "candidate's run is over: exit 0 accepts; exit 3 (testlib's `_fail`), a crash or a "
            "timeout is the verifier's `error` (reward null); any other exit code rejects. "
            "testlib.h is not provided: plain C++ (or Python) checkers."
        )
    )


Checker = Annotated[
    LinesChecker | TokensChecker | FloatChecker | ProgramChecker, Field(discriminator="kind")
]


class Interactor(JudgeProgram):
    """The problem's interactor: argv[1] is the test's input file; its stdout is the
    candidate's stdin and the candidate's stdout its stdin. Exit 0 accepts; exit 3, a crash,
    or not finishing within its time limit after the candidate ended is `error`; any other exit
    code rejects."""


class InteractiveTest(TestScoring):
    kind: Literal["interactive"]
    input: str = Field("", description="The interactor's input (argv[1]), never the candidate's.")

    @field_validator("input")
    @classmethod
    def _utf8(cls, text: str) -> str:
        return unicode_text(text, "the interactive test's input")


class JudgeOptions(WireModel):
    """How an item's outputs are judged, and its time budget for all tests together."""

    checker: Checker | None = Field(
        None, description="How stdio outputs are compared (default: `lines`)."
    )
    interactor: Interactor | None = Field(
        None, description="Required by `interactive` tests (and only with them)."
    )
    total_timeout_s: float | None = Field(
        None,
        gt=0,
        allow_inf_nan=False,
        description=(
            "Wall budget for all tests together (after compilation); tests that do not fit "
            "are `timed_out` (a running one is stopped, the rest are not run)."
        ),
    )


def check_judge_options(options: JudgeOptions, kinds: list[str]) -> JudgeOptions:
    """Consistency of an item's judging fields with its tests (a 422 otherwise)."""
    has_interactive = "interactive" in kinds
    if has_interactive and options.interactor is None:
        raise ValueError("interactive tests need the item's `interactor`")
    if options.interactor is not None and not has_interactive:
        raise ValueError("an `interactor` needs interactive tests")
    if has_interactive and any(kind != "interactive" for kind in kinds):
        raise ValueError("an item with an interactor takes interactive tests only")
    if options.checker is not None and options.checker.kind != "lines" and "stdio" not in kinds:
        raise ValueError("a `checker` judges stdio tests: the item has none")
    return options


# ---- end sandbox block ---------------------------------------------------------------------


class AssertTest(TestScoring):
    kind: Literal["assert"]
    code: str = Field(
        description=(
            "Python test code calling the candidate's functions, e.g. `assert add(1, 2) == 3` "
            "or HumanEval's `def check(candidate): ...` + `check(add)`. It runs in a process of "
            "its own; the candidate's functions are called across a boundary and return plain "
            "data (None, bool, int, float, str, bytes, list, tuple, dict, set)."
        )
    )

    @field_validator("code")
    @classmethod
    def _utf8(cls, code: str) -> str:
        return unicode_text(code, "the assert code")


class CallTest(TestScoring):
    kind: Literal["call"]
    fn: str = Field(
        description=(
            "The candidate's top-level function, or `Class.method` (LeetCode style: called on "
            "a fresh `Class()`)."
        )
    )
    args: list[Any] = Field(default_factory=list, description="Positional arguments (JSON).")
    kwargs: dict[str, Any] = Field(default_factory=dict, description="Keyword arguments (JSON).")
    expected: Any = Field(
        description=(
            "Expected return value, compared on the trusted side with JSON types: a tuple "
            "matches a list, bool never matches a number, an int matches only an int."
        )
    )
    float_tolerance: float | None = Field(
        None,
        ge=0,
        allow_inf_nan=False,
        description="Absolute-or-relative tolerance for expected floats (finite).",
    )

    @model_validator(mode="after")
    def _sendable(self) -> CallTest:
        """Arguments nested deeper than the sandbox codec carries, or an expected value nested
        deeper than the judge compares, are the request's fault (422), not an item `error`
        found later (for every candidate: the item's own data is at fault)."""
        values = (("args", self.args), ("kwargs", self.kwargs), ("expected", self.expected))
        for name, value in values:
            if nesting_depth(value, MAX_VALUE_DEPTH) > MAX_VALUE_DEPTH:
                raise ValueError(f"{name} nest deeper than {MAX_VALUE_DEPTH} levels")
        return self


class StdioTest(TestScoring):
    kind: Literal["stdio"]
    stdin: str = Field("", description="Standard input.")
    stdout: str = Field(
        description=(
            "Expected standard output; lines are compared after trimming and collapsing "
            "whitespace (trailing blank lines ignored; the line counts must match)."
        )
    )
    float_tolerance: float | None = Field(
        None,
        ge=0,
        allow_inf_nan=False,
        description=(
            "A finite tolerance. With a tolerance, an expected token with a decimal point or an "
            "exponent matches a number within it (absolute or relative, computed in decimal: "
            "`1e400` is finite); an expected integer matches the same integer only (`7`, "
            "`007`, `7.0`), whatever its size; `inf` / `nan` match only themselves."
        ),
    )

    @field_validator("stdin", "stdout")
    @classmethod
    def _utf8(cls, text: str) -> str:
        return unicode_text(text, "stdin / stdout")


CodeTest = Annotated[
    AssertTest | CallTest | StdioTest | InteractiveTest, Field(discriminator="kind")
]


class CodeItem(ItemScoring, JudgeOptions):
    candidate_text_fields: ClassVar[tuple[str, ...]] = ("response", "code")

    id: str | None = Field(None, description="Caller's id, echoed in the result.")
    response: str | None = Field(
        None, description="A model output: the last fenced code block of `language` is taken."
    )
    code: str | None = Field(None, description="The program itself (instead of `response`).")
    language: Literal["python", "cpp", "c", "java", "javascript", "go", "rust"] = Field(
        "python",
        description=(
            "python | cpp (g++ 12) | c (gcc 12) | java (OpenJDK 17) | javascript (Node 18) | "
            "go (1.19) | rust (1.63, edition 2021). Only python takes assert and call tests."
        ),
    )
    tests: list[CodeTest] = Field(min_length=1, description="At least one test.")
    timeout_s: float | None = Field(
        None,
        gt=0,
        allow_inf_nan=False,
        description="Wall deadline per test (finite); capped by the server's maximum.",
    )
    memory_mb: int | None = Field(
        None, gt=0, description="Address-space limit per run; capped by the server's maximum."
    )
    stop_on_first_failure: bool = Field(
        False, description="Skip the remaining tests after the first failure (they count 0)."
    )

    @field_validator("id")
    @classmethod
    def _utf8_id(cls, item_id: str | None) -> str | None:
        return None if item_id is None else unicode_text(item_id, "id")  # echoed in the reply

    @model_validator(mode="after")
    def _check(self) -> CodeItem:
        if (self.response is None) == (self.code is None):
            raise ValueError("send exactly one of `response` and `code`")
        if self.language != "python" and any(t.kind in ("assert", "call") for t in self.tests):
            raise ValueError(f"{self.language} items take stdio (or interactive) tests only")
        check_judge_options(self, [t.kind for t in self.tests])
        return self


class CodeRequest(WireModel):
    items: list[CodeItem] = Field(min_length=1, description="The batch; results come in order.")


class TestStatus(StrEnum):
    """One test's outcome; all are the candidate's doing (the verifier's faults are item errors)."""

    __test__ = False  # not a pytest class

    passed = "passed"
    failed = "failed"
    timed_out = "timed_out"
    memory_exceeded = "memory_exceeded"
    runtime_error = "runtime_error"
    compile_error = "compile_error"


class TestVerdict(BaseModel):
    __test__ = False  # not a pytest class

    status: TestStatus
    elapsed_s: float = Field(description="Wall time of this test's run.")
    detail: str = Field("", description="Assertion line, first differing line, stderr tail...")

    @field_validator("detail")
    @classmethod
    def _printable(cls, detail: str) -> str:
        """Candidate text made safe to send: clipped, and lone surrogates (a candidate can raise
        `Exception("\\ud800")`) replaced, since they cannot be encoded as UTF-8 in the reply."""
        return detail[:_DETAIL_CHARS].encode("utf-8", "replace").decode("utf-8")


class CodeResult(ResultReuse, ItemResult):
    """`passed` iff every test passed; `timed_out` iff every failing test timed out; reward as
    the item's `scoring` says (default: weighted share of tests passed); `error` (reward null)
    only when the sandbox failed, not the candidate."""

    tests: list[TestVerdict] = Field(default_factory=list, description="One verdict per test.")


class CodeResponse(BaseModel):
    results: list[CodeResult]
