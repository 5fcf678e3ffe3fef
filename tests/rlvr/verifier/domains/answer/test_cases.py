"""The `/answer` labelled table, judged in-process: every row's verdict, 0 adversarial passes."""

from __future__ import annotations

import pytest

from rlvr.schemas.answer import AnswerItem
from rlvr.schemas.common import Status
from rlvr.verifier.domains.answer.verifier import answer_result
from tests.support.reference_tables.answer_cases import (
    ANSWER_CASES,
    EVEREST,
    UNSEEN_STYLES,
    AnswerCase,
)


def passes(case: AnswerCase) -> bool:
    return answer_result(AnswerItem.model_validate(case.item())).status is Status.passed


def test_table_is_big_and_covers_every_adversarial_kind() -> None:
    natural = [c for c in ANSWER_CASES if not c.is_adversarial]
    adversarial = [c for c in ANSWER_CASES if c.is_adversarial]
    assert len(natural) >= 500 and len(adversarial) >= 150
    assert {c.is_correct for c in natural} == {True, False}
    assert not any(c.is_correct for c in adversarial)
    kinds = {c.category for c in adversarial}
    assert {"several_candidates", "alias_list", "think", "f1_stuffing", "numbers"} <= kinds


def test_no_adversarial_row_passes() -> None:
    leaked = [c.response for c in ANSWER_CASES if c.is_adversarial and passes(c)]
    assert leaked == []


def test_natural_rows_are_judged_right_at_least_98_percent() -> None:
    natural = [c for c in ANSWER_CASES if not c.is_adversarial]
    right = sum(passes(c) is c.is_correct for c in natural)
    assert right / len(natural) >= 0.98


@pytest.mark.parametrize(
    "case",
    ANSWER_CASES,
    ids=[
        f"{c.category}-{i}-{'ok' if c.is_correct else 'wrong'}" for i, c in enumerate(ANSWER_CASES)
    ],
)
def test_case_verdict_matches_label(case: AnswerCase) -> None:
    result = answer_result(AnswerItem.model_validate(case.item()))
    assert (result.status is Status.passed) is case.is_correct, result.detail


def test_forms_written_after_the_reader_was_frozen_are_mostly_matched() -> None:
    """A check of generalisation under exact match: the known misses are extra words
    (`It is …`, `… (8,849 m)`, `…, in Nepal`) and an abbreviation no alias has (`Mt`)."""
    passed = [
        answer_result(AnswerItem(response=r, answer=EVEREST)).status is Status.passed
        for r in UNSEEN_STYLES
    ]
    assert sum(passed) >= len(passed) - 4
