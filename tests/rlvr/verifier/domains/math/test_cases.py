"""Our labelled case table, judged by the real pipeline (extraction, fast path, SymPy) in-process.

The pool only adds isolation and deadlines; those are tested in `test_verifier.py`.
"""

from __future__ import annotations

import pytest

import rlvr.verifier.domains.math.prewarm  # noqa: F401 — quiet math-verify's warnings
from tests.support.math_judge import judge_in_process
from tests.support.math_tables.cases import CASES, Case


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
