"""Judge the executor's raw per-test results against the expected values (host side, pure).

Positive evidence only: a test passes when the harness (trusted) reported `passed`, when a
returned plain value equals the expected one, or when captured stdout matches. An exit code,
a missing field, or anything unexpected is a failure of some kind, never a pass.
"""

from __future__ import annotations

import math
import signal
from collections.abc import Sequence
from typing import Any

from services.verifier.sandbox.codec import CodecError, decode_value
from services.verifier.schemas.code import CallTest, CodeItem, StdioTest, TestStatus, TestVerdict
from services.verifier.schemas.common import Status

_SKIPPED = "not run: an earlier test failed (stop_on_first_failure)"


# ---------------------------------------------------------------- comparisons


def numbers_close(expected: float, got: float, tolerance: float) -> bool:
    if math.isnan(expected) or math.isnan(got):
        return math.isnan(expected) and math.isnan(got)
    if expected == got:
        return True
    return abs(expected - got) <= tolerance * max(1.0, abs(expected))


def values_match(expected: Any, got: Any, tolerance: float | None = None) -> bool:
    """JSON-typed equality: tuple ~ list, bool is not a number, an int expected needs an int."""
    if isinstance(expected, bool) or expected is None or isinstance(expected, str):
        return type(got) is type(expected) and got == expected
    if isinstance(expected, int):
        return type(got) is int and got == expected
    if isinstance(expected, float):
        if type(got) not in (int, float):
            return False
        return numbers_close(expected, float(got), tolerance or 0.0)
    if isinstance(expected, list):
        return (
            type(got) in (list, tuple)
            and len(got) == len(expected)
            and all(values_match(e, g, tolerance) for e, g in zip(expected, got, strict=True))
        )
    if isinstance(expected, dict):
        return (
            type(got) is dict
            and set(got) == set(expected)
            and all(values_match(expected[k], got[k], tolerance) for k in expected)
        )
    return False


def _tokens(text: str) -> list[list[str]]:
    lines = [line.split() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _token_match(expected: str, got: str, tolerance: float | None) -> bool:
    if expected == got:
        return True
    if tolerance is None:
        return False
    try:
        return numbers_close(float(expected), float(got), tolerance)
    except ValueError:
        return False


def compare_stdout(expected: str, got: str, tolerance: float | None = None) -> str | None:
    """None when the outputs match line by line, else a description of the first difference."""
    want, have = _tokens(expected), _tokens(got)
    for number, (w, h) in enumerate(zip(want, have, strict=False), start=1):
        if len(w) != len(h) or not all(
            _token_match(a, b, tolerance) for a, b in zip(w, h, strict=True)
        ):
            return f"line {number}: expected {' '.join(w)[:200]!r}, got {' '.join(h)[:200]!r}"
    if len(want) != len(have):
        return f"expected {len(want)} lines, got {len(have)}"
    return None


# ---------------------------------------------------------------- one test


def _tail(text: str, size: int = 500) -> str:
    return text[-size:].strip()


def _process_verdict(raw: dict[str, Any], test: StdioTest) -> tuple[TestStatus, str]:
    if raw.get("timed_out"):
        return TestStatus.timed_out, "wall-clock limit exceeded"
    if raw.get("stdout_over"):
        return TestStatus.failed, "output limit exceeded"
    code, sig, stderr = raw.get("exit_code"), raw.get("signal"), str(raw.get("stderr", ""))
    if sig == signal.SIGXCPU:
        return TestStatus.timed_out, "CPU-time limit exceeded"
    if (code == 3 and stderr.rstrip().endswith("MemoryError")) or "std::bad_alloc" in stderr:
        return TestStatus.memory_exceeded, _tail(stderr)
    if sig == signal.SIGKILL:
        return TestStatus.memory_exceeded, "killed (out of memory)"
    if code != 0:
        what = f"signal {sig}" if sig is not None else f"exit code {code}"
        return TestStatus.runtime_error, f"{what}: {_tail(stderr)}".strip()
    difference = compare_stdout(test.stdout, str(raw.get("stdout", "")), test.float_tolerance)
    if difference is None:
        return TestStatus.passed, ""
    return TestStatus.failed, difference


def _call_verdict(raw: dict[str, Any], test: CallTest) -> tuple[TestStatus, str]:
    replies = raw.get("replies") or []
    stderr = _tail(str(raw.get("stderr", "")))
    first = replies[0] if replies else {}
    if first.get("load") == "memory":
        return TestStatus.memory_exceeded, "MemoryError while loading the code"
    if "load" in first:
        return TestStatus.runtime_error, _tail(str(first.get("detail", "")))
    if raw.get("response_over"):
        return TestStatus.failed, "return value too large"
    if raw.get("output_over"):
        return TestStatus.failed, "output limit exceeded"
    if len(replies) < 2:
        if raw.get("timed_out"):
            return TestStatus.timed_out, "wall-clock limit exceeded"
        return TestStatus.runtime_error, f"the process ended without an answer {stderr}".strip()
    reply = replies[1]
    if reply.get("memory"):
        return TestStatus.memory_exceeded, "MemoryError"
    if "raised" in reply:
        return TestStatus.runtime_error, f"{reply['raised']}: {reply.get('message', '')}"[:500]
    if "unplain" in reply:
        return TestStatus.failed, f"{test.fn}() returned something that is not plain data"
    if "value" not in reply or type(reply["value"]) is not str:
        return TestStatus.runtime_error, "malformed answer"
    try:
        got = decode_value(reply["value"])
    except CodecError as exc:
        return TestStatus.failed, f"malformed return value: {exc}"
    if values_match(test.expected, got, test.float_tolerance):
        return TestStatus.passed, ""
    return TestStatus.failed, f"expected {test.expected!r:.200}, got {got!r:.200}"


def _assert_verdict(raw: dict[str, Any]) -> tuple[TestStatus, str]:
    verdict = raw.get("verdict")
    if raw.get("timed_out"):
        return TestStatus.timed_out, "wall-clock limit exceeded"
    if raw.get("output_over"):
        return TestStatus.failed, "output limit exceeded"
    if type(verdict) is not dict:
        return TestStatus.runtime_error, "the test harness was killed"
    status = verdict.get("status")
    detail = str(verdict.get("detail", ""))[:1000]
    if status in ("passed", "failed", "runtime_error", "memory_exceeded"):
        return TestStatus(status), detail
    return TestStatus.runtime_error, detail or "the test harness failed"


def judge_test(raw: dict[str, Any], test: Any) -> TestVerdict:
    elapsed_s = round(float(raw.get("elapsed_s", 0.0)), 6)
    if raw.get("skipped"):
        reason = raw.get("reason") or _SKIPPED
        status = TestStatus.failed if reason == _SKIPPED else TestStatus.runtime_error
        return TestVerdict(status=status, elapsed_s=0.0, detail=reason)
    if raw.get("status") == "compile_error":
        return TestVerdict(
            status=TestStatus.compile_error, elapsed_s=elapsed_s, detail=str(raw.get("detail"))
        )
    if test.kind == "stdio":
        status, detail = _process_verdict(raw, test)
    elif test.kind == "call":
        status, detail = _call_verdict(raw, test)
    else:
        status, detail = _assert_verdict(raw)
    return TestVerdict(status=status, elapsed_s=elapsed_s, detail=detail)


# ---------------------------------------------------------------- one item


def judge_tests(item: CodeItem, raw_tests: Sequence[dict[str, Any]]) -> list[TestVerdict]:
    if len(raw_tests) != len(item.tests):
        raise ValueError(f"executor returned {len(raw_tests)} results for {len(item.tests)} tests")
    verdicts: list[TestVerdict] = []
    for raw, test in zip(raw_tests, item.tests, strict=True):
        if item.stop_on_first_failure and verdicts and verdicts[-1].status != TestStatus.passed:
            verdicts.append(TestVerdict(status=TestStatus.failed, elapsed_s=0.0, detail=_SKIPPED))
            continue
        verdicts.append(judge_test(raw, test))
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
