"""`stop_on_first_failure` has one owner, the host: it fails every test after the first one that
did not pass (`check.grade_reports`). PID 1 only saves work: it stops after a failure it can see
(`jobs.is_definite_failure`), and the host reads the tests it did not run as failed. That is
only sound if PID 1 never stops after a test the host would pass; this checks it on every report
shape and field combination that matters, the way the host reads them."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from rlvr.schemas.code import CodeItem, TestStatus
from rlvr.verifier.domains.code.check import JudgeFault, grade_test
from rlvr.verifier.sandbox.inside.jobs import is_definite_failure
from rlvr.verifier.sandbox.wire.protocol import RunReport, SkipReason
from tests.support import run_reports

JUDGES: dict[str, dict[str, Any] | None] = {
    "none": None,
    "accepted": {"exit_code": 0, "signal": None, "timed_out": False, "stderr": "", "elapsed_s": 0},
    "rejected": {"exit_code": 1, "signal": None, "timed_out": False, "stderr": "", "elapsed_s": 0},
    "failed": {"exit_code": 3, "signal": None, "timed_out": False, "stderr": "", "elapsed_s": 0},
    "killed": {"exit_code": None, "signal": 9, "timed_out": False, "stderr": "", "elapsed_s": 0},
    "output at fault": {
        "exit_code": 3, "signal": None, "timed_out": False, "stderr": "", "elapsed_s": 0,
        "output_at_fault": True,
    },
}  # fmt: skip
PROGRAM_CHECKER = {"kind": "program", "language": "python", "code": "raise SystemExit(0)"}


def item(test: dict[str, Any], checker: dict[str, Any] | None = None) -> CodeItem:
    fields: dict[str, Any] = {"code": "x", "tests": [test]}
    if checker is not None:
        fields["checker"] = checker
    if test["kind"] == "interactive":
        fields["interactor"] = {"language": "python", "code": "pass"}
    return CodeItem.model_validate(fields)


def cases() -> list[tuple[str, RunReport, CodeItem]]:
    found: list[tuple[str, RunReport, CodeItem]] = []
    stdio_test = {"kind": "stdio", "stdin": "", "stdout": "1"}
    for exit_code, signal, timed_out, over, stdout, judge in itertools.product(
        (0, 1, None), (None, 9), (False, True), (False, True), ("1\n", "2\n"), JUDGES
    ):
        fields = {"exit_code": exit_code, "signal": signal, "timed_out": timed_out}
        report = run_reports.stdio(**fields, stdout_over=over, stdout=stdout)
        checker = None
        if JUDGES[judge] is not None:
            report["judge"], report["stdout"] = JUDGES[judge], ""
            checker = PROGRAM_CHECKER
        name = f"stdio {fields} over={over} {stdout!r} judge={judge}"
        found.append((name, report, item(stdio_test, checker)))
    interactive_test = {"kind": "interactive", "input": "5"}
    for exit_code, timed_out, over, judge in itertools.product(
        (0, 1, None), (False, True), (False, True), JUDGES
    ):
        report = run_reports.interactive(exit_code=exit_code, timed_out=timed_out, output_over=over)
        if JUDGES[judge] is not None:
            report["judge"] = JUDGES[judge]
        name = f"interactive exit={exit_code} timed_out={timed_out} over={over} judge={judge}"
        found.append((name, report, item(interactive_test)))
    call_test = {"kind": "call", "fn": "f", "args": [], "expected": 1}
    replies_variants: list[list[dict[str, Any]]] = [
        [{"ready": True}, {"value": "1"}],
        [{"ready": True}, {"value": "2"}],
        [{"ready": True}, {"raised": "ValueError", "message": "x"}],
        [{"ready": True}, {"memory": True}],
        [{"ready": True}, {"unplain": "object"}],
        [{"ready": True}],
        [{"load": "error", "detail": "SyntaxError"}],
        [],
    ]
    for replies, timed_out, response_over, output_over in itertools.product(
        replies_variants, (False, True), (False, True), (False, True)
    ):
        if len(replies) == 2 and (timed_out or response_over or output_over):
            continue  # PID 1 sets these only on the report of a call that got no answer
        report = run_reports.call(
            replies, timed_out=timed_out, response_over=response_over, output_over=output_over
        )
        name = f"call {replies} timed_out={timed_out} over={response_over},{output_over}"
        found.append((name, report, item(call_test)))
    assert_test = {"kind": "assert", "code": "assert f() == 1"}
    verdicts: list[dict[str, Any] | None] = [
        {"status": status, "detail": ""}
        for status in ("passed", "failed", "runtime_error", "memory_exceeded", "odd")
    ] + [None]
    for verdict, timed_out, over in itertools.product(verdicts, (False, True), (False, True)):
        report = run_reports.asserted(verdict, timed_out=timed_out, output_over=over)
        found.append((f"assert {verdict} {timed_out} {over}", report, item(assert_test)))
    for reason in SkipReason:
        found.append((f"skipped {reason}", run_reports.skipped(reason), item(stdio_test)))
    found.append(("compile error", run_reports.compile_error(), item(stdio_test)))
    return found


CASES = cases()


def host_passes(report: RunReport, case: CodeItem) -> bool:
    try:
        verdict = grade_test(report, case.tests[0], case.checker)
    except (JudgeFault, ValueError):  # the item's error: never a pass
        return False
    return verdict.status is TestStatus.passed


@pytest.mark.parametrize(("name", "report", "case"), CASES, ids=[name for name, _, _ in CASES])
def test_pid_1_never_stops_after_a_test_the_host_passes(
    name: str, report: RunReport, case: CodeItem
) -> None:
    if is_definite_failure(report):
        assert not host_passes(report, case)


def test_the_table_holds_both_kinds_of_failure() -> None:
    """Both sides of the rule are exercised: failures PID 1 sees (it stops) and failures only
    the host sees (a wrong answer: PID 1 runs on, the host fails the rest)."""
    seen = [is_definite_failure(report) for _, report, _ in CASES]
    only_host = [
        name
        for name, report, case in CASES
        if not is_definite_failure(report) and not host_passes(report, case)
    ]
    assert sum(seen) > 100 and len(seen) - sum(seen) > 10
    assert any(name.startswith("stdio") and "'2\\n'" in name for name in only_host)
    assert any(name.startswith("call") for name in only_host)
