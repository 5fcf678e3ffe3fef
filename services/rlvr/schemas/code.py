"""Wire models of `POST /code`: programs with assert / call / stdio tests, per-test verdicts."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

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


class AssertTest(WireModel):
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


class CallTest(WireModel):
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
        None, ge=0, description="Absolute-or-relative tolerance for expected floats."
    )

    @model_validator(mode="after")
    def _sendable(self) -> CallTest:
        """Arguments nested deeper than the sandbox codec carries are the request's fault (422),
        not an item `error` found later."""
        for name, value in (("args", self.args), ("kwargs", self.kwargs)):
            if nesting_depth(value, MAX_VALUE_DEPTH) > MAX_VALUE_DEPTH:
                raise ValueError(f"{name} nest deeper than {MAX_VALUE_DEPTH} levels")
        return self


class StdioTest(WireModel):
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
        description=(
            "With a tolerance, an expected token with a decimal point or an exponent matches a "
            "number within it (absolute or relative, computed in decimal: `1e400` is finite); "
            "an expected integer matches the same integer only (`7`, `007`, `7.0`), whatever "
            "its size; `inf` / `nan` match only themselves."
        ),
    )

    @field_validator("stdin", "stdout")
    @classmethod
    def _utf8(cls, text: str) -> str:
        return unicode_text(text, "stdin / stdout")


CodeTest = Annotated[AssertTest | CallTest | StdioTest, Field(discriminator="kind")]


class CodeItem(WireModel):
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
        None, gt=0, description="Wall deadline per test; capped by the server's maximum."
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
        if self.language != "python" and any(t.kind != "stdio" for t in self.tests):
            raise ValueError(f"{self.language} items take stdio tests only")
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


class CodeResult(ItemResult):
    """`passed` iff every test passed; `timed_out` iff every failing test timed out; reward =
    passed / total; `error` (reward null) only when the sandbox failed, not the candidate."""

    tests: list[TestVerdict] = Field(default_factory=list, description="One verdict per test.")


class CodeResponse(BaseModel):
    results: list[CodeResult]
