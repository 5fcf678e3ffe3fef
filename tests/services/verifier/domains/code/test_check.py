"""Host-side judging: JSON-typed value comparison, stdout comparison, verdict and reward rules."""

from __future__ import annotations

from typing import Any

import pytest

from services.verifier.domains.code.check import (
    compare_stdout,
    item_outcome,
    judge_test,
    judge_tests,
    values_match,
)
from services.verifier.schemas.code import CallTest, CodeItem, StdioTest, TestStatus, TestVerdict
from services.verifier.schemas.common import Status


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
        ({"exit_code": 0, "stdout": "5\n"}, TestStatus.passed),
        ({"exit_code": 0, "stdout": "6\n"}, TestStatus.failed),
        ({"exit_code": 1, "stdout": "5\n", "stderr": "Traceback"}, TestStatus.runtime_error),
        ({"exit_code": None, "signal": 9, "timed_out": True}, TestStatus.timed_out),
        ({"exit_code": None, "signal": 24}, TestStatus.timed_out),
        ({"exit_code": None, "signal": 9}, TestStatus.memory_exceeded),
        ({"exit_code": 3, "stderr": "MemoryError\n"}, TestStatus.memory_exceeded),
        ({"exit_code": 134, "stderr": "std::bad_alloc"}, TestStatus.memory_exceeded),
        ({"exit_code": 0, "stdout": "5\n", "stdout_over": True}, TestStatus.failed),
        ({}, TestStatus.runtime_error),  # nothing known: never a pass
    ],
)
def test_stdio_verdicts(raw: dict[str, Any], status: TestStatus) -> None:
    assert judge_test(raw, STDIO).status is status


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        ({"replies": [{"ready": {}}, {"value": '{"$t":"tuple","v":[1,2]}'}]}, TestStatus.passed),
        ({"replies": [{"ready": {}}, {"value": "[1,2,3]"}]}, TestStatus.failed),
        ({"replies": [{"ready": {}}, {"unplain": "x"}]}, TestStatus.failed),
        ({"replies": [{"ready": {}}, {"raised": "ValueError"}]}, TestStatus.runtime_error),
        ({"replies": [{"ready": {}}, {"memory": True}]}, TestStatus.memory_exceeded),
        ({"replies": [{"load": "memory"}]}, TestStatus.memory_exceeded),
        ({"replies": [{"load": "error", "detail": "SyntaxError"}]}, TestStatus.runtime_error),
        ({"replies": [{"ready": {}}], "timed_out": True}, TestStatus.timed_out),
        ({"replies": [{"ready": {}}]}, TestStatus.runtime_error),
        ({"replies": [{"ready": {}}, {"value": "{bad"}]}, TestStatus.failed),
        ({"replies": [{"ready": {}}, {"status": "passed"}]}, TestStatus.runtime_error),
    ],
)
def test_call_verdicts(raw: dict[str, Any], status: TestStatus) -> None:
    assert judge_test(raw, CALL).status is status


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
    raws: list[dict[str, Any]] = [
        {"exit_code": 0, "stdout": "4\n"},
        {"exit_code": 0, "stdout": "5\n"},
        {"skipped": True},
    ]
    statuses = [v.status for v in judge_tests(item, raws)]
    assert statuses == [TestStatus.failed, TestStatus.failed, TestStatus.failed]


def test_a_short_answer_from_the_executor_is_an_error_not_a_verdict() -> None:
    item = CodeItem(code="x", tests=[STDIO, STDIO])
    with pytest.raises(ValueError):
        judge_tests(item, [{"exit_code": 0, "stdout": "5\n"}])
