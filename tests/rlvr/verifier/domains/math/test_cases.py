"""Our labelled case table, judged by the real pipeline (extraction, fast path, SymPy) in-process.

The pool only adds isolation and deadlines; those are tested in `test_verifier.py`.
"""

from __future__ import annotations

import pytest

import rlvr.verifier.domains.math.prewarm  # noqa: F401 — quiet math-verify's warnings
from rlvr.verifier.domains.math.config import MathSettings
from rlvr.verifier.domains.math.grade import grade
from rlvr.verifier.domains.math.judge import judge
from rlvr.verifier.domains.math.verdict import Conventions
from tests.rlvr.verifier.domains.math.cases import CASES, Case

SETTINGS = MathSettings()  # the defaults a deployment gets
CONVENTIONS = Conventions(
    percent=SETTINGS.percent,
    min_rounded_digits=SETTINGS.min_rounded_digits,
    rel_tol=SETTINGS.rel_tol,
)


def judge_in_process(response: str, answer: str) -> tuple[bool, str]:
    judged = judge(response, answer, CONVENTIONS, SETTINGS.fallback)
    if judged.slow is not None:
        verdict = grade(judged.slow, CONVENTIONS)
        return verdict.is_equal, verdict.detail
    if judged.verdict is not None:
        return judged.verdict.is_equal, judged.verdict.detail
    return False, judged.failure or ""


def test_table_is_big_and_balanced() -> None:
    assert len(CASES) >= 300
    categories = {case.category for case in CASES}
    for category in categories:
        labels = {case.is_correct for case in CASES if case.category == category}
        assert labels == {True, False}, f"{category} needs positive and negative cases"


@pytest.mark.parametrize(
    "case",
    CASES,
    ids=[f"{c.category}-{i}-{'ok' if c.is_correct else 'wrong'}" for i, c in enumerate(CASES)],
)
def test_case_verdict_matches_label(case: Case) -> None:
    is_equal, detail = judge_in_process(case.response, case.answer)
    assert is_equal is case.is_correct, detail
    assert detail
