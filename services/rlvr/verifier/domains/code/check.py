"""Judge the executor's raw per-test results against the expected values (host side, pure).

Positive evidence only: a test passes when the harness (trusted) reported `passed`, when a
returned plain value equals the expected one, or when captured stdout matches. An exit code,
a missing field, or anything unexpected is a failure of some kind, never a pass.
"""

from __future__ import annotations

import decimal
import math
import re
import signal
from collections.abc import Sequence
from typing import Any

from rlvr.schemas.code import (
    CallTest,
    Checker,
    CodeItem,
    FloatChecker,
    StdioTest,
    TestStatus,
    TestVerdict,
)
from rlvr.schemas.common import Status
from rlvr.verifier.domains.code.not_run import AFTER_FAILURE, NOT_RUN, OUT_OF_BUDGET
from rlvr.verifier.domains.code.values import (
    ReplyError,
    parse_reply,
    preview,
    preview_expected,
    tree_matches,
)
from rlvr.verifier.sandbox.wire.languages import MEMORY_MARKERS
from rlvr.verifier.sandbox.wire.protocol import (
    AssertReport,
    CallReport,
    InteractiveReport,
    JudgeReport,
    RunReport,
    SkippedReport,
    SkipReason,
    StdioReport,
    decode_run_report,
    judge_outcome,
)


class JudgeFault(ValueError):
    """The problem's checker or interactor failed (crashed, timed out, exit 3, did not
    compile): the verifier's fault, so the item is `error` (reward null), never a pass."""


# ---------------------------------------------------------------- comparisons

_INT_TOKEN = re.compile(r"[+-]?[0-9]+")
_FLOAT_TOKEN = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_SPECIAL_TOKEN = re.compile(r"[+-]?(?:inf|infinity|nan)", re.IGNORECASE)
# Enough digits that a difference within any tolerance >= 1e-30 is computed faithfully; the
# exponent range is unbounded so `1e400` stays a finite number (a float would make it `inf`).
_DECIMALS = decimal.Context(
    prec=60, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN, traps=[decimal.InvalidOperation]
)


def _tokens(text: str) -> list[list[str]]:
    lines = [line.split() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _canonical_int(token: str) -> tuple[bool, str]:
    negative = token.startswith("-")
    digits = token.lstrip("+-").lstrip("0") or "0"
    return negative and digits != "0", digits


def _special(token: str) -> str:
    word = token.lower().lstrip("+")
    return "nan" if word.endswith("nan") else ("-inf" if word.startswith("-") else "inf")


def _token_match(expected: str, got: str, tolerance: float | None) -> bool:
    """An expected integer is matched exactly, whatever its size (`2.0` is 2, `1.0000001e9` is
    not 1000000007); an expected token with a decimal point or an exponent is matched within
    `tolerance`, exactly in decimal (so `1e400` is a finite number); `inf`/`nan` match only the
    same special value."""
    if expected == got:
        return True
    if tolerance is None:
        return False
    special_e, special_g = _SPECIAL_TOKEN.fullmatch(expected), _SPECIAL_TOKEN.fullmatch(got)
    if special_e or special_g:
        return bool(special_e and special_g) and _special(expected) == _special(got)
    if not (_FLOAT_TOKEN.fullmatch(expected) and _FLOAT_TOKEN.fullmatch(got)):
        return False
    if _INT_TOKEN.fullmatch(expected):
        if _INT_TOKEN.fullmatch(got):
            return _canonical_int(expected) == _canonical_int(got)
        return _decimals_close(expected, got, 0.0)
    return _decimals_close(expected, got, tolerance)


def _decimals_close(expected: str, got: str, tolerance: float) -> bool:
    want_f, have_f = float(expected), float(got)
    if tolerance and math.isfinite(want_f) and math.isfinite(have_f):  # usual: floats suffice
        if want_f == have_f:
            return True
        return abs(want_f - have_f) <= tolerance * max(1.0, abs(want_f))
    try:  # beyond float range (`1e400`): exact decimal arithmetic, unbounded exponent
        want, have = decimal.Decimal(expected), decimal.Decimal(got)
        difference = _DECIMALS.abs(_DECIMALS.subtract(want, have))
        scale = max(decimal.Decimal(1), _DECIMALS.abs(want))
        return difference <= _DECIMALS.multiply(decimal.Decimal(tolerance), scale)
    except (decimal.DecimalException, ValueError, OverflowError):
        return False  # an exponent beyond any context: not a number we can place


def compare_stdout(expected: str, got: str, tolerance: float | None = None) -> str | None:
    """None when the outputs match line by line, else a description of the first difference."""
    want, have = _tokens(expected), _tokens(got)
    for number, (w, h) in enumerate(zip(want, have, strict=False), start=1):
        if len(w) != len(h) or not all(
            _token_match(a, b, tolerance) for a, b in zip(w, h, strict=True)
        ):
            return f"line {number}: expected {_clip(w)!r}, got {_clip(h)!r}"
    if len(want) != len(have):
        return f"expected {len(want)} lines, got {len(have)}"
    return None


def compare_tokens(expected: str, got: str) -> str | None:
    """None when the whitespace-separated tokens are equal, whatever the line breaks."""
    want, have = expected.split(), got.split()
    for number, (w, h) in enumerate(zip(want, have, strict=False), start=1):
        if w != h:
            return f"token {number}: expected {w[:200]!r}, got {h[:200]!r}"
    if len(want) != len(have):
        return f"expected {len(want)} tokens, got {len(have)}"
    return None


def numbers_close(expected: str, got: str, abs_tol: float, rel_tol: float) -> bool:
    """Equal tokens, or two numbers with `|e - g| <= abs_tol` or `|e - g| <= rel_tol * |e|`
    (any numeric token, integer or not: the dataset chose a float comparison). Exact in decimal
    when a float cannot decide (no tolerance, or beyond float range), so a 5,000-digit integer
    is compared digit for digit and `1e400` is finite; `inf`/`nan` match only themselves."""
    if expected == got:
        return True
    special_e, special_g = _SPECIAL_TOKEN.fullmatch(expected), _SPECIAL_TOKEN.fullmatch(got)
    if special_e or special_g:
        return bool(special_e and special_g) and _special(expected) == _special(got)
    if not (_FLOAT_TOKEN.fullmatch(expected) and _FLOAT_TOKEN.fullmatch(got)):
        return False
    want_f, have_f = float(expected), float(got)
    if (abs_tol or rel_tol) and math.isfinite(want_f) and math.isfinite(have_f):
        difference_f = abs(want_f - have_f)
        return difference_f <= abs_tol or difference_f <= rel_tol * abs(want_f)
    try:
        want, have = decimal.Decimal(expected), decimal.Decimal(got)
        difference = _DECIMALS.abs(_DECIMALS.subtract(want, have))
        if difference <= _DECIMALS.create_decimal(abs_tol):
            return True
        bound = _DECIMALS.multiply(_DECIMALS.create_decimal(rel_tol), _DECIMALS.abs(want))
        return difference <= bound
    except (decimal.DecimalException, ValueError, OverflowError):
        return False


def compare_floats(expected: str, got: str, abs_tol: float, rel_tol: float) -> str | None:
    """None when the token sequences match under `numbers_close`."""
    want, have = expected.split(), got.split()
    for number, (w, h) in enumerate(zip(want, have, strict=False), start=1):
        if not numbers_close(w, h, abs_tol, rel_tol):
            return f"token {number}: expected {w[:200]!r}, got {h[:200]!r}"
    if len(want) != len(have):
        return f"expected {len(want)} tokens, got {len(have)}"
    return None


def compare_output(test: StdioTest, got: str, checker: Checker | None) -> str | None:
    """The item's comparison of one stdio output (not a checker program: that runs inside)."""
    if checker is None or checker.kind == "lines":
        return compare_stdout(test.stdout, got, test.float_tolerance)
    if checker.kind == "tokens":
        return compare_tokens(test.stdout, got)
    if isinstance(checker, FloatChecker):
        return compare_floats(test.stdout, got, checker.abs_tol, checker.rel_tol)
    raise ValueError(f"checker {checker.kind!r} is judged in the sandbox, not here")


def _clip(tokens: list[str], size: int = 200) -> str:
    out: list[str] = []
    total = 0
    for token in tokens:
        out.append(token[: size - total + 1])
        total += len(token) + 1
        if total > size:
            break
    return " ".join(out)[:size]


# ---------------------------------------------------------------- one test


def _tail(text: str, size: int = 500) -> str:
    return text[-size:].strip()


def _text(value: Any, size: int = 500) -> str:
    """A candidate-written field as text: a string is clipped, anything else is not expanded
    (`str` of a deep or huge structure the candidate sent would cost or raise on the host)."""
    return value[:size] if type(value) is str else "<malformed>"


def _timeout_detail(raw: StdioReport | InteractiveReport | CallReport | AssertReport) -> str:
    return OUT_OF_BUDGET if raw.get("out_of_budget") else "wall-clock limit exceeded"


def run_failure(raw: StdioReport | InteractiveReport) -> tuple[TestStatus, str] | None:
    """How the candidate's process failed by itself (time, output, memory, crash), if it did."""
    if raw["timed_out"]:
        return TestStatus.timed_out, _timeout_detail(raw)
    is_over = raw["stdout_over"] if raw["kind"] == "stdio" else raw["output_over"]
    if is_over:
        return TestStatus.failed, "output limit exceeded"
    code, sig, stderr = raw["exit_code"], raw["signal"], raw["stderr"]
    if sig == signal.SIGXCPU:
        return TestStatus.timed_out, "CPU-time limit exceeded"
    if (code == 3 and stderr.rstrip().endswith("MemoryError")) or "std::bad_alloc" in stderr:
        return TestStatus.memory_exceeded, _tail(stderr)
    if code != 0 and any(marker in stderr for marker in MEMORY_MARKERS):
        return TestStatus.memory_exceeded, _tail(stderr)  # a runtime's own out-of-memory exit
    if sig == signal.SIGKILL:
        return TestStatus.memory_exceeded, "killed (out of memory)"
    if code != 0:
        what = f"signal {sig}" if sig is not None else f"exit code {code}"
        return TestStatus.runtime_error, f"{what}: {_tail(stderr)}".strip()
    return None


def _judge_said(report: JudgeReport, what: str) -> tuple[TestStatus, str] | None:
    """A checker's or interactor's verdict: None if it accepted, `failed` with its message if
    it rejected; JudgeFault if it failed itself."""
    outcome = judge_outcome(report)
    message = _tail(str(report.get("stderr", "")))
    if outcome == "fault":
        if report["timed_out"]:
            why = "timed out"
        elif report["signal"] is not None:
            why = f"was killed by signal {report['signal']}"
        elif report["exit_code"] is None:
            why = "did not run"
        else:
            why = f"failed (exit code {report['exit_code']})"
        raise JudgeFault(f"the problem's {what} {why}: {message}".strip())
    if outcome == "rejected" and report.get("output_at_fault"):
        why = f"the {what} failed on this output and accepts the expected answer"
        return TestStatus.failed, f"{why}: {message}" if message else why
    if outcome == "rejected":
        return TestStatus.failed, f"{what}: {message}" if message else f"rejected by the {what}"
    return None


def _process_verdict(
    raw: StdioReport, test: StdioTest, checker: Checker | None
) -> tuple[TestStatus, str]:
    failure = run_failure(raw)
    if failure is not None:
        return failure
    if "judge" in raw:
        said = _judge_said(raw["judge"], "checker")
        return said if said is not None else (TestStatus.passed, "")
    if checker is not None and checker.kind == "program":
        raise ValueError("the checker program gave no verdict")
    difference = compare_output(test, raw["stdout"], checker)
    if difference is None:
        return TestStatus.passed, ""
    return TestStatus.failed, difference


def _interactive_verdict(raw: InteractiveReport) -> tuple[TestStatus, str]:
    """The interactor's word first (it may have stopped the candidate); then the candidate's
    own failures; a pass needs both: the interactor accepted and the candidate exited 0."""
    if "judge" in raw:
        said = _judge_said(raw["judge"], "interactor")
        if said is not None:
            return said
    failure = run_failure(raw)
    if failure is not None:
        return failure
    if "judge" not in raw:
        return TestStatus.runtime_error, "the interaction ended without the interactor's verdict"
    return TestStatus.passed, ""


def _call_verdict(raw: CallReport, test: CallTest) -> tuple[TestStatus, str]:
    replies = raw["replies"]
    stderr = _tail(raw["stderr"])
    first = replies[0] if replies else {}
    if first.get("load") == "memory":
        return TestStatus.memory_exceeded, "MemoryError while loading the code"
    if "load" in first:
        return TestStatus.runtime_error, _tail(_text(first.get("detail", ""), 4000))
    if raw["response_over"]:
        return TestStatus.failed, "return value too large"
    if raw["output_over"]:
        return TestStatus.failed, "output limit exceeded"
    if len(replies) < 2:
        if raw["timed_out"]:
            return TestStatus.timed_out, _timeout_detail(raw)
        return TestStatus.runtime_error, f"the process ended without an answer {stderr}".strip()
    reply = replies[1]
    if reply.get("memory"):
        return TestStatus.memory_exceeded, "MemoryError"
    if "raised" in reply:
        raised, message = _text(reply["raised"], 100), _text(reply.get("message", ""))
        return TestStatus.runtime_error, f"{raised}: {message}"[:500]
    if "unplain" in reply:
        return TestStatus.failed, f"{test.fn}() returned something that is not plain data"
    if "value" not in reply or type(reply["value"]) is not str:
        return TestStatus.runtime_error, "malformed answer"
    try:
        got = parse_reply(reply["value"])
    except ReplyError as exc:
        return TestStatus.failed, f"malformed return value: {exc}"
    if tree_matches(test.expected, got, test.float_tolerance):
        return TestStatus.passed, ""
    return TestStatus.failed, f"expected {preview_expected(test.expected)}, got {preview(got)}"


def _assert_verdict(raw: AssertReport) -> tuple[TestStatus, str]:
    verdict = raw["verdict"]
    if raw["timed_out"]:
        return TestStatus.timed_out, _timeout_detail(raw)
    if raw["output_over"]:
        return TestStatus.failed, "output limit exceeded"
    if verdict is None:
        return TestStatus.runtime_error, "the test harness was killed"
    status = verdict.get("status")
    detail = _text(verdict.get("detail", ""), 1000)
    if status in ("passed", "failed", "runtime_error", "memory_exceeded"):
        return TestStatus(status), detail
    return TestStatus.runtime_error, detail or "the test harness failed"


def _skipped_verdict(raw: SkippedReport) -> TestVerdict:
    reason = raw["reason"]
    if reason == SkipReason.JUDGE_NOT_COMPILED:  # the problem's fault: JudgeFault (`error`)
        if "judge" not in raw:
            raise ValueError("a judge that did not compile reported without its compiler's word")
        _judge_said(raw["judge"], "checker or interactor")
        raise ValueError("a judge that did not compile reported as accepted")
    status, detail = NOT_RUN[reason]
    return TestVerdict(status=status, elapsed_s=0.0, detail=detail)


def grade_test(raw: RunReport, test: Any, checker: Checker | None = None) -> TestVerdict:
    """One test's verdict from its (decoded) report; a report of a kind the test cannot have
    (a call report for a stdio test) is the executor's fault: ValueError."""
    if raw["kind"] == "skipped":
        return _skipped_verdict(raw)
    elapsed_s = round(float(raw["elapsed_s"]), 6)
    if raw["kind"] == "compile_error":
        detail = _text(raw["detail"], 4000)
        return TestVerdict(status=TestStatus.compile_error, elapsed_s=elapsed_s, detail=detail)
    if raw["kind"] == "stdio" and test.kind == "stdio":
        status, detail = _process_verdict(raw, test, checker)
    elif raw["kind"] == "interactive" and test.kind == "interactive":
        status, detail = _interactive_verdict(raw)
    elif raw["kind"] == "call" and test.kind == "call":
        status, detail = _call_verdict(raw, test)
    elif raw["kind"] == "assert" and test.kind == "assert":
        status, detail = _assert_verdict(raw)
    else:
        raise ValueError(f"a {raw['kind']} run report for a {test.kind} test")
    return TestVerdict(status=status, elapsed_s=elapsed_s, detail=detail)


# ---------------------------------------------------------------- one item


def decode_reports(item: CodeItem, raw_tests: object) -> list[RunReport]:
    """The executor's reports as they arrived (parsed JSON), one per test of `item`, decoded;
    ValueError for anything else (the verifier's `error`, never a verdict on the candidate)."""
    if type(raw_tests) is not list:
        raise ValueError(f"executor returned {type(raw_tests).__name__} for the tests, not a list")
    if len(raw_tests) != len(item.tests):
        raise ValueError(f"executor returned {len(raw_tests)} results for {len(item.tests)} tests")
    return [decode_run_report(raw) for raw in raw_tests]


def grade_tests(item: CodeItem, raw_tests: object) -> list[TestVerdict]:
    """The item's verdicts from the executor's reports as they arrived (`decode_reports`)."""
    return grade_reports(item, decode_reports(item, raw_tests))


def grade_reports(item: CodeItem, reports: Sequence[RunReport]) -> list[TestVerdict]:
    """The item's verdicts from its decoded reports (a later test after a failure, under
    `stop_on_first_failure`, is failed whatever it did: the host owns that rule)."""
    verdicts: list[TestVerdict] = []
    for raw, test in zip(reports, item.tests, strict=True):
        if item.stop_on_first_failure and verdicts and verdicts[-1].status != TestStatus.passed:
            verdicts.append(
                TestVerdict(status=TestStatus.failed, elapsed_s=0.0, detail=AFTER_FAILURE)
            )
            continue
        verdicts.append(grade_test(raw, test, item.checker))
    return verdicts


def item_outcome(verdicts: Sequence[TestVerdict]) -> tuple[Status, float, str]:
    """(status, reward, detail): passed iff all passed; timed_out iff every failure timed out."""
    total = len(verdicts)
    passed = sum(v.status == TestStatus.passed for v in verdicts)
    reward = passed / total if total else 0.0
    failures = [v for v in verdicts if v.status != TestStatus.passed]
    if not failures:
        return Status.passed, reward, f"{passed}/{total} tests passed"
    first = failures[0]
    detail = f"{passed}/{total} tests passed; first failure: {first.status.value}"
    if first.detail:
        detail += f": {first.detail[:300]}"
    if all(v.status == TestStatus.timed_out for v in failures):
        return Status.timed_out, reward, detail
    return Status.failed, reward, detail
