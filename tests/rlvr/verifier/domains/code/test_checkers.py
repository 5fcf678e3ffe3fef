"""Checkers and interactors on the host: comparisons, the meaning of a judge's exit, the wire
contract (what is refused), and what the job carries into the sandbox."""

from __future__ import annotations

import json
import signal
from typing import Any

import pytest
from pydantic import ValidationError

from rlvr.schemas.code import CodeItem, TestStatus
from rlvr.verifier.domains.code.check import (
    JudgeFault,
    compare_floats,
    compare_tokens,
    grade_test,
    grade_tests,
    numbers_close,
)
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.deadlines import job_deadline_s
from rlvr.verifier.domains.code.job_builder import build_job
from rlvr.verifier.sandbox.wire.protocol import JudgeReport, RunReport, judge_outcome
from tests.support import run_reports

BIG = "1" * 5000


@pytest.mark.parametrize(
    ("expected", "got", "match"),
    [
        ("1 2\n3", "1\n2 3\n", True),
        ("1 2 3", "1 2  3   \n\n", True),
        ("1 2 3", "1 2", False),
        ("1 2", "1 2 3", False),
        ("yes", "YES", False),
        ("7", "007", False),  # tokens are text: no numeric reading
        (BIG, BIG, True),
        (BIG, BIG[:-1] + "2", False),
        ("", "\n\n", True),
    ],
)
def test_tokens_compare_text_whatever_the_line_breaks(expected: str, got: str, match: bool) -> None:
    assert (compare_tokens(expected, got) is None) is match


@pytest.mark.parametrize(
    ("expected", "got", "abs_tol", "rel_tol", "match"),
    [
        ("0.333333333", "0.3333333", 1e-6, 1e-6, True),
        ("0.333333333", "0.3334", 1e-6, 1e-6, False),
        ("1000000", "1000000.5", 1e-6, 1e-6, True),  # relative: 0.5 <= 1e-6 * 1e6
        ("1000000", "1000002", 1e-6, 1e-6, False),
        ("3", "3.0000000001", 1e-6, 1e-6, True),  # any numeric token, integers too
        ("3", "3.1", 1e-6, 1e-6, False),
        ("1e400", "1.0000000001e400", 0, 1e-6, True),  # beyond float range: decimal
        ("1e400", "2e400", 0, 1e-6, False),
        ("1e400", "inf", 1e-6, 1e-6, False),
        ("inf", "inf", 1e-6, 1e-6, True),
        ("-inf", "inf", 1e-6, 1e-6, False),
        ("nan", "NaN", 1e-6, 1e-6, True),
        ("nan", "0", 1e-6, 1e-6, False),
        (BIG, BIG, 0, 0, True),
        (BIG, BIG[:-1] + "2", 0, 0, False),  # a 5,000-digit integer, digit for digit
        (BIG, BIG + ".0", 0, 0, True),
        ("1152921504606846977", "1152921504606846976", 0, 0, False),
        ("0.5", "abc", 1, 1, False),
        ("abc", "abc", 0, 0, True),
        ("1_000", "1000", 1, 1, False),  # Python's spelling is not a number here
    ],
)
def test_float_tokens_within_absolute_or_relative_tolerance(
    expected: str, got: str, abs_tol: float, rel_tol: float, match: bool
) -> None:
    assert numbers_close(expected, got, abs_tol, rel_tol) is match


def test_float_checker_counts_tokens_and_names_the_first_difference() -> None:
    assert compare_floats("1.0 2.0\n3.0", "1 2 3", 1e-6, 1e-6) is None
    assert compare_floats("1.0 2.0", "1 2 3", 1e-6, 1e-6) == "expected 2 tokens, got 3"
    assert "token 2" in (compare_floats("1 2", "1 5", 1e-6, 1e-6) or "")


def report(code: int | None, sig: int | None = None, timed_out: bool = False) -> JudgeReport:
    sig = None if sig is None else int(sig)  # as JSON brings it: an int, not a `Signals`
    return {"exit_code": code, "signal": sig, "timed_out": timed_out, "stderr": "", "elapsed_s": 0}


@pytest.mark.parametrize(
    ("judge", "outcome"),
    [
        (report(0), "accepted"),
        (report(1), "rejected"),
        (report(2), "rejected"),
        (report(7), "rejected"),
        (report(3), "fault"),  # testlib's _fail: the checker's own failure
        (report(None, signal.SIGSEGV), "fault"),
        (report(None, signal.SIGKILL), "fault"),
        (report(None, None, timed_out=True), "fault"),
        (report(0, None, timed_out=True), "fault"),
        (report(None), "fault"),
    ],
)
def test_a_judge_exit_means_what_testlib_says(judge: JudgeReport, outcome: str) -> None:
    assert judge_outcome(judge) == outcome


def stdio_item(**extra: Any) -> CodeItem:
    base = {"code": "print(1)", "tests": [{"kind": "stdio", "stdin": "5", "stdout": "EXPECTED-7f"}]}
    return CodeItem.model_validate({**base, **extra})


PROGRAM = {"kind": "program", "language": "python", "code": "import sys; sys.exit(0)"}
INTERACTOR = {"language": "cpp", "code": "int main() { return 0; }"}


def test_a_checker_program_gets_the_answer_and_nothing_else_does() -> None:
    settings = CodeSettings()
    for checker in (None, {"kind": "lines"}, {"kind": "tokens"}, {"kind": "float"}):
        job = build_job(stdio_item(checker=checker), "print(1)", settings)
        assert "EXPECTED-7f" not in json.dumps(job)
        assert "checker" not in job
    job = build_job(stdio_item(checker=PROGRAM), "print(1)", settings)
    assert job["tests"][0] == {"kind": "stdio", "stdin": "5", "answer": "EXPECTED-7f"}
    assert job["checker"] == {"language": "python", "code": PROGRAM["code"]}
    assert job["judge_limits"]["timeout_s"] > 0
    # the host waits for the checker's own time too
    assert job_deadline_s(job) > job_deadline_s(build_job(stdio_item(), "print(1)", settings))


def test_total_timeout_shortens_what_the_host_waits_for() -> None:
    tests = [{"kind": "stdio", "stdout": "1"}] * 50
    plain = CodeItem.model_validate({"code": "x", "timeout_s": 5, "tests": tests})
    budget = CodeItem.model_validate(
        {"code": "x", "timeout_s": 5, "tests": tests, "total_timeout_s": 10}
    )
    settings = CodeSettings()
    assert build_job(budget, "x", settings)["total_timeout_s"] == 10
    assert job_deadline_s(build_job(budget, "x", settings)) < job_deadline_s(
        build_job(plain, "x", settings)
    )


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"tests": [{"kind": "interactive", "input": "1"}]}, "need the item's `interactor`"),
        (
            {"interactor": INTERACTOR, "tests": [{"kind": "stdio", "stdout": "1"}]},
            "needs interactive tests",
        ),
        (
            {
                "interactor": INTERACTOR,
                "tests": [{"kind": "interactive"}, {"kind": "stdio", "stdout": "1"}],
            },
            "interactive tests only",
        ),
        (
            {"checker": {"kind": "tokens"}, "tests": [{"kind": "call", "fn": "f", "expected": 1}]},
            "judges stdio tests",
        ),
        (
            {"checker": {"kind": "program", "language": "rust", "code": "x"}, "tests": []},
            "checker",
        ),
        (
            {
                "checker": {"kind": "float", "abs_tol": -1},
                "tests": [{"kind": "stdio", "stdout": ""}],
            },
            "abs_tol",
        ),
        ({"total_timeout_s": 0, "tests": [{"kind": "stdio", "stdout": ""}]}, "total_timeout_s"),
        (
            {
                "checker": {"kind": "program", "language": "python", "code": "\ud800"},
                "tests": [{"kind": "stdio", "stdout": ""}],
            },
            "code",
        ),
    ],
)
def test_inconsistent_judging_fields_are_refused(item: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        CodeItem.model_validate({"code": "x", **item})


def test_interactive_items_take_any_language_with_the_interactor() -> None:
    item = CodeItem.model_validate(
        {
            "code": "int main(){}",
            "language": "cpp",
            "interactor": INTERACTOR,
            "tests": [{"kind": "interactive", "input": "42"}],
        }
    )
    job = build_job(item, "int main(){}", CodeSettings())
    assert job["tests"] == [{"kind": "interactive", "input": "42"}]
    assert job["interactor"]["language"] == "cpp"


@pytest.mark.parametrize(
    ("judge", "status"),
    [
        (report(0), TestStatus.passed),
        (report(1), TestStatus.failed),
        (report(2), TestStatus.failed),
    ],
)
def test_a_checker_programs_word_is_the_verdict(judge: JudgeReport, status: TestStatus) -> None:
    item = stdio_item(checker=PROGRAM)
    assert grade_test(run_reports.stdio(judge=judge), item.tests[0], item.checker).status == status


@pytest.mark.parametrize(
    "judge",
    [report(3), report(None, signal.SIGSEGV), report(None, None, timed_out=True), report(None)],
)
def test_a_failing_checker_is_the_verifiers_fault_never_a_pass(judge: JudgeReport) -> None:
    item = stdio_item(checker=PROGRAM)
    with pytest.raises(JudgeFault):
        grade_tests(item, [run_reports.stdio(judge=judge)])


def test_a_checker_program_without_a_verdict_is_never_a_pass() -> None:
    item = stdio_item(checker=PROGRAM)
    with pytest.raises(ValueError):
        grade_test(run_reports.stdio(stdout="EXPECTED-7f"), item.tests[0], item.checker)


def test_the_candidates_own_failure_comes_before_any_checker() -> None:
    item = stdio_item(checker=PROGRAM)
    raw = run_reports.stdio(exit_code=1, judge=report(0))
    assert grade_test(raw, item.tests[0], item.checker).status == TestStatus.runtime_error


def interactive_item() -> CodeItem:
    return CodeItem.model_validate(
        {"code": "x", "interactor": INTERACTOR, "tests": [{"kind": "interactive", "input": "1"}]}
    )


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (run_reports.interactive(judge=report(0)), TestStatus.passed),
        (run_reports.interactive(judge=report(1)), TestStatus.failed),
        (
            run_reports.interactive(exit_code=None, signal=int(signal.SIGKILL), judge=report(1)),
            TestStatus.failed,
        ),
        (run_reports.interactive(exit_code=1, judge=report(0)), TestStatus.runtime_error),
        (run_reports.interactive(timed_out=True), TestStatus.timed_out),
        (run_reports.interactive(timed_out=True, judge=report(0)), TestStatus.timed_out),
        # no verdict from the interactor: not a pass
        (run_reports.interactive(), TestStatus.runtime_error),
    ],
)
def test_interactive_verdicts(raw: RunReport, status: TestStatus) -> None:
    item = interactive_item()
    assert grade_test(raw, item.tests[0]).status == status


def test_a_failing_interactor_is_the_verifiers_fault() -> None:
    item = interactive_item()
    for judge in (report(3), report(None, signal.SIGABRT), report(None, None, timed_out=True)):
        with pytest.raises(JudgeFault):
            grade_tests(item, [run_reports.interactive(judge=judge)])


def test_tests_cut_or_skipped_by_the_total_budget_are_timed_out() -> None:
    item = CodeItem.model_validate(
        {"code": "x", "total_timeout_s": 1, "tests": [{"kind": "stdio", "stdout": "1"}] * 2}
    )
    raws: list[RunReport] = [
        run_reports.stdio(exit_code=None, timed_out=True, out_of_budget=True),
        run_reports.skipped("out_of_budget"),
    ]
    verdicts = grade_tests(item, raws)
    assert [v.status for v in verdicts] == [TestStatus.timed_out] * 2
    assert all("total_timeout_s" in v.detail for v in verdicts)


def test_a_judge_that_did_not_compile_is_the_verifiers_fault_with_the_compilers_word() -> None:
    item = stdio_item(checker=PROGRAM)
    note = {**report(None), "stderr": "did not compile: checker.cpp:1: error"}
    with pytest.raises(JudgeFault, match=r"did not run: did not compile: checker\.cpp:1"):
        grade_tests(item, [run_reports.skipped("judge_not_compiled", judge=note)])
    with pytest.raises(ValueError, match="without its compiler's word"):
        grade_tests(item, [run_reports.skipped("judge_not_compiled")])
