"""Host-side judging: JSON-typed value comparison, stdout comparison, verdict and reward rules."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rlvr.schemas.code import CallTest, CodeItem, StdioTest, TestStatus, TestVerdict
from rlvr.schemas.common import Status
from rlvr.verifier.domains.code.check import (
    compare_stdout,
    grade_test,
    grade_tests,
    item_outcome,
    tree_matches,
)
from rlvr.verifier.domains.code.not_run import NOT_RUN
from rlvr.verifier.sandbox.wire.codec import encode_value
from rlvr.verifier.sandbox.wire.protocol import RunReport, SkipReason
from tests.support.run_reports import call, skipped, stdio


def values_match(expected: Any, got: Any, tolerance: float | None = None) -> bool:
    """JSON-typed equality of an expected value and a local one, as the codec would send it."""
    return tree_matches(expected, json.loads(encode_value(got)), tolerance)


@pytest.mark.parametrize(
    ("expected", "got", "tolerance", "match"),
    [
        (3, 3, None, True),
        (3, 3.0, None, False),
        (3, True, None, False),
        (True, 1, None, False),
        (True, True, None, True),
        (1.0, 1, None, True),
        (0.1 + 0.2, 0.3, None, False),
        (0.3, 0.1 + 0.2, 1e-9, True),
        (float("nan"), float("nan"), None, True),
        ([1, 2], (1, 2), None, True),
        ([1, 2], [1, 2, 3], None, False),
        ({"a": [1]}, {"a": [1]}, None, True),
        ({"a": 1}, {"a": 1, "b": 2}, None, False),
        (None, None, None, True),
        (None, 0, None, False),
        ("a", "a", None, True),
        ("a", b"a", None, False),
        ([1], {1}, None, False),
    ],
)
def test_values_match_with_json_types(expected: Any, got: Any, tolerance: Any, match: bool) -> None:
    assert values_match(expected, got, tolerance) is match


@pytest.mark.parametrize(
    ("expected", "got", "tolerance", "same"),
    [
        ("1 2\n3\n", "1  2 \n3", None, True),
        ("1 2\n3\n", "1 2\n3\n\n\n", None, True),
        ("1 2\n3\n", "1 2\n", None, False),
        ("1 2\n", "1 2\n3\n", None, False),
        ("a\r\nb\r\n", "a\nb\n", None, True),
        ("0.333333\n", "0.3333333333\n", 1e-5, True),
        ("0.333333\n", "0.3333333333\n", None, False),
        ("YES\n", "yes\n", None, False),
        ("", "", None, True),
        ("\n", "", None, True),
    ],
)
def test_compare_stdout(expected: str, got: str, tolerance: Any, same: bool) -> None:
    assert (compare_stdout(expected, got, tolerance) is None) is same


def test_stdout_difference_names_the_first_differing_line() -> None:
    assert compare_stdout("1\n2\n3\n", "1\n5\n3\n") == "line 2: expected '2', got '5'"


STDIO = StdioTest(kind="stdio", stdin="", stdout="5\n")
CALL = CallTest(kind="call", fn="f", args=[], expected=[1, 2])


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (stdio(exit_code=0, stdout="5\n"), TestStatus.passed),
        (stdio(exit_code=0, stdout="6\n"), TestStatus.failed),
        (stdio(exit_code=1, stdout="5\n", stderr="Traceback"), TestStatus.runtime_error),
        (stdio(exit_code=None, signal=9, timed_out=True), TestStatus.timed_out),
        (stdio(exit_code=None, signal=24), TestStatus.timed_out),
        (stdio(exit_code=None, signal=9), TestStatus.memory_exceeded),
        (stdio(exit_code=3, stderr="MemoryError\n"), TestStatus.memory_exceeded),
        (stdio(exit_code=134, stderr="std::bad_alloc"), TestStatus.memory_exceeded),
        (stdio(exit_code=0, stdout="5\n", stdout_over=True), TestStatus.failed),
    ],
)
def test_stdio_verdicts(raw: RunReport, status: TestStatus) -> None:
    assert grade_test(raw, STDIO).status is status


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (call([{"ready": {}}, {"value": '{"$t":"tuple","v":[1,2]}'}]), TestStatus.passed),
        (call([{"ready": {}}, {"value": "[1,2,3]"}]), TestStatus.failed),
        (call([{"ready": {}}, {"unplain": "x"}]), TestStatus.failed),
        (call([{"ready": {}}, {"raised": "ValueError"}]), TestStatus.runtime_error),
        (call([{"ready": {}}, {"memory": True}]), TestStatus.memory_exceeded),
        (call([{"load": "memory"}]), TestStatus.memory_exceeded),
        (call([{"load": "error", "detail": "SyntaxError"}]), TestStatus.runtime_error),
        (call([{"ready": {}}], timed_out=True), TestStatus.timed_out),
        (call([{"ready": {}}]), TestStatus.runtime_error),
        (call([{"ready": {}}, {"value": "{bad"}]), TestStatus.failed),
        (call([{"ready": {}}, {"status": "passed"}]), TestStatus.runtime_error),
    ],
)
def test_call_verdicts(raw: RunReport, status: TestStatus) -> None:
    assert grade_test(raw, CALL).status is status


def verdicts(*statuses: TestStatus) -> list[TestVerdict]:
    return [TestVerdict(status=s, elapsed_s=0.0) for s in statuses]


def test_item_outcome_rules() -> None:
    p, f, t = TestStatus.passed, TestStatus.failed, TestStatus.timed_out
    assert item_outcome(verdicts(p, p))[:2] == (Status.passed, 1.0)
    assert item_outcome(verdicts(p, f, p, f))[:2] == (Status.failed, 0.5)
    assert item_outcome(verdicts(p, t))[:2] == (Status.timed_out, 0.5)
    assert item_outcome(verdicts(t, f))[:2] == (Status.failed, 0.0)


def test_stop_on_first_failure_counts_later_tests_as_failed() -> None:
    item = CodeItem(code="x", tests=[STDIO, STDIO, STDIO], stop_on_first_failure=True)
    raws = [stdio(stdout="4\n"), stdio(stdout="5\n"), skipped("after_failure")]
    statuses = [v.status for v in grade_tests(item, raws)]
    assert statuses == [TestStatus.failed, TestStatus.failed, TestStatus.failed]


def test_a_short_answer_from_the_executor_is_an_error_not_a_verdict() -> None:
    item = CodeItem(code="x", tests=[STDIO, STDIO])
    with pytest.raises(ValueError):
        grade_tests(item, [stdio(stdout="5\n")])


@pytest.mark.parametrize(
    "raw",
    [
        {},  # nothing known: never a pass
        {"exit_code": 0, "stdout": "5\n"},  # untagged
        {**stdio(stdout="5\n"), "kind": "call"},  # the tag says call: it lacks `replies`
        call([{"ready": True}, {"value": "5"}]),  # a call report for a stdio test
        skipped("not run: an earlier test failed"),  # a reason as prose, not a code
        "5\n",
    ],
)
def test_a_report_the_test_cannot_have_is_an_error_not_a_verdict(raw: Any) -> None:
    item = CodeItem(code="x", tests=[STDIO])
    with pytest.raises(ValueError):
        grade_tests(item, [raw])


# ---------------------------------------------------------------- issue 13: host-side judging


@pytest.mark.parametrize(
    ("expected", "got", "tolerance", "same"),
    [
        # integers on both sides compare exactly, whatever the tolerance
        ("1152921504606846976\n", "1152921504606846977\n", 0.0, False),
        ("1000000007\n", "1000000100\n", 1e-6, False),
        ("1000000007\n", "1000000007\n", 1e-6, True),
        ("7\n", "007\n", 1e-6, True),
        ("0\n", "-0\n", 1e-6, True),
        ("9" * 5000 + "\n", "9" * 4999 + "8\n", 1e-6, False),  # beyond int() digit limits
        # an expected integer is exact: a float spelling of the same value only
        ("2\n", "2.0\n", 1e-6, True),
        ("2\n", "20e-1\n", 1e-6, True),
        ("2\n", "2.0000001\n", 1e-6, False),
        ("1000000007\n", "1.0000001e9\n", 1e-6, False),
        ("9007199254740993\n", "9007199254740992.0\n", 1e-6, False),  # floats would say equal
        # a decimal point or an exponent in the expected token: tolerance applies
        ("2.0\n", "2.0000001\n", 1e-6, True),
        ("1e9\n", "1000000100\n", 1e-6, True),
        ("2.5\n", "2.6\n", 1e-6, False),
        # inf / nan never match a finite value; 1e400 is finite
        ("1e400\n", "inf\n", 1e-6, False),
        ("inf\n", "1e400\n", 1e-6, False),
        ("1e400\n", "1.0000000001e400\n", 1e-6, True),
        ("1e400\n", "1e401\n", 1e-6, False),
        ("inf\n", "1e308\n", 1e-6, False),
        ("inf\n", "Infinity\n", 1e-6, True),
        ("-inf\n", "inf\n", 1e-6, False),
        ("nan\n", "NaN\n", 1e-6, True),
        ("nan\n", "0.0\n", 1e-6, False),
        ("1.5\n", "nan\n", 1e9, False),
        # float() would accept these; they are not decimal numbers
        ("10\n", "1_0\n", 1e-6, False),
        ("3\n", "\u0663\n", 1e-6, False),  # Arabic-Indic digit three
        ("1e99999999999999999999\n", "1e99999999999999999998\n", 0.5, False),
    ],
)
def test_stdio_tolerance_rules(expected: str, got: str, tolerance: Any, same: bool) -> None:
    assert (compare_stdout(expected, got, tolerance) is None) is same


def call_raw(value: str) -> RunReport:
    return call([{"ready": {}}, {"value": value}])


@pytest.mark.parametrize(
    ("expected", "value", "tolerance", "status"),
    [
        (2.5, '{"$t":"int","v":"' + hex(10**400) + '"}', None, TestStatus.failed),
        (2.5, '{"$t":"int","v":"' + hex(10**400) + '"}', 1e300, TestStatus.failed),
        (1e300, '{"$t":"int","v":"' + hex(10**300) + '"}', 1e-9, TestStatus.passed),
        (2.5, "Infinity", 1e-6, TestStatus.failed),
        (float("inf"), "1e308", 1e-6, TestStatus.failed),
        (10**1500, '{"$t":"int","v":"' + hex(10**1500) + '"}', None, TestStatus.passed),
        (10**1500, '{"$t":"int","v":"' + hex(10**1500 + 1) + '"}', None, TestStatus.failed),
        (10**1500, '{"$t":"int","v":"0x' + "f" * 100_000 + '"}', None, TestStatus.failed),
        (1, '{"$t":"int","v":"0xzz"}', None, TestStatus.failed),
        ({"a": 1, "b": 2}, '{"$t":"dict","v":[["a",1],["a",1]]}', None, TestStatus.failed),
        ({"a": 1, "b": 2}, '{"$t":"dict","v":[["b",2],["a",1]]}', None, TestStatus.passed),
        ({"1": 1}, '{"$t":"dict","v":[[1,1]]}', None, TestStatus.failed),
        ([1, 2], '{"$t":"set","v":[1,2]}', None, TestStatus.failed),
        ([1, 2], "[1," + "[" * 50_000 + "]" * 50_000 + "]", None, TestStatus.failed),
        ("x", "1" * 5000, None, TestStatus.failed),  # decimal over 4,300 digits: forged
    ],
)
def test_call_values_are_compared_without_rebuilding_them(
    expected: Any, value: str, tolerance: Any, status: TestStatus
) -> None:
    test = CallTest(kind="call", fn="f", expected=expected, float_tolerance=tolerance)
    verdict = grade_test(call_raw(value), test)
    assert verdict.status is status, verdict.detail
    assert len(verdict.detail) < 600


def test_colliding_set_members_are_never_hashed() -> None:
    """2**61-1 multiples all hash to 0: building this set would take minutes of C code."""
    members = ",".join(str(i * (2**61 - 1)) for i in range(1, 150_000))
    test = CallTest(kind="call", fn="f", expected=[0])
    verdict = grade_test(call_raw('{"$t":"set","v":[' + members + "]}"), test)
    assert verdict.status is TestStatus.failed
    assert verdict.detail.startswith("expected [0], got {2305843009213693951, ")


def test_colliding_dict_keys_are_never_hashed() -> None:
    pairs = ",".join(f"[{i * (2**61 - 1)},0]" for i in range(1, 100_000))
    test = CallTest(kind="call", fn="f", expected={"a": 0})
    assert grade_test(call_raw('{"$t":"dict","v":[' + pairs + "]}"), test).status is (
        TestStatus.failed
    )


def test_huge_values_are_described_not_rendered() -> None:
    test = CallTest(kind="call", fn="f", expected=1)
    big = grade_test(call_raw('{"$t":"int","v":"' + hex(10**5000) + '"}'), test)
    assert big.status is TestStatus.failed
    assert "hex digits" in big.detail
    many = grade_test(call_raw("[" + ",".join(["1"] * 300_000) + "]"), test)
    assert many.status is TestStatus.failed and len(many.detail) < 600


@pytest.mark.parametrize(
    "reply",
    [
        {"raised": ["x"] * 100_000, "message": {"a": 1}},
        {"raised": "ValueError", "message": "\ud800 lone surrogate"},
    ],
)
def test_candidate_written_fields_are_not_expanded(reply: dict[str, Any]) -> None:
    verdict = grade_test(call([{"ready": {}}, reply]), CALL)
    assert verdict.status is TestStatus.runtime_error
    verdict.detail.encode("utf-8")  # sendable


def test_a_forged_load_failure_is_runtime_error_whatever_it_holds() -> None:
    nested: Any = []
    for _ in range(5000):
        nested = [nested]
    verdict = grade_test(call([{"load": "error", "detail": nested}]), CALL)
    assert verdict.status is TestStatus.runtime_error


def test_every_skip_code_is_worded_once_and_never_as_a_pass() -> None:
    assert set(NOT_RUN) == set(SkipReason)
    assert all(status is not TestStatus.passed for status, _ in NOT_RUN.values())
    assert all(detail.startswith("not run: ") for _, detail in NOT_RUN.values())


# (JUDGE_NOT_COMPILED is the item's `error`: test_checkers.py)
@pytest.mark.parametrize(
    "reason", [r for r in SkipReason if r is not SkipReason.JUDGE_NOT_COMPILED]
)
def test_a_skipped_test_gets_the_verdict_its_code_says(reason: SkipReason) -> None:
    verdict = grade_test(skipped(reason), STDIO)
    assert (verdict.status, verdict.detail) == NOT_RUN[reason]
