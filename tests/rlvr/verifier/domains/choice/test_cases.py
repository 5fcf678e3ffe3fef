"""The `/choice` labelled table, judged in-process: every row's verdict, 0 adversarial passes."""

from __future__ import annotations

import pytest

from rlvr.schemas.choice import ChoiceItem
from rlvr.schemas.common import Status
from rlvr.verifier.domains.choice.verifier import judge_choice
from tests.support.reference_tables.choice_cases import CHOICE_CASES, UNSEEN_STYLES, ChoiceCase


def passes(case: ChoiceCase) -> bool:
    return judge_choice(ChoiceItem.model_validate(case.item())).status is Status.passed


def test_table_is_big_and_covers_every_adversarial_kind() -> None:
    natural = [c for c in CHOICE_CASES if not c.is_adversarial]
    adversarial = [c for c in CHOICE_CASES if c.is_adversarial]
    assert len(natural) >= 500 and len(adversarial) >= 200
    assert {c.is_correct for c in natural} == {True, False}
    assert not any(c.is_correct for c in adversarial)
    kinds = {c.category for c in adversarial}
    assert {"hedge", "think", "contradiction", "lookalike"} <= kinds


def test_no_adversarial_row_passes() -> None:
    leaked = [c.response for c in CHOICE_CASES if c.is_adversarial and passes(c)]
    assert leaked == []


def test_natural_rows_are_judged_right_at_least_98_percent() -> None:
    natural = [c for c in CHOICE_CASES if not c.is_adversarial]
    right = sum(passes(c) is c.is_correct for c in natural)
    assert right / len(natural) >= 0.98


@pytest.mark.parametrize(
    "case",
    CHOICE_CASES,
    ids=[
        f"{c.category}-{i}-{'ok' if c.is_correct else 'wrong'}" for i, c in enumerate(CHOICE_CASES)
    ],
)
def test_case_verdict_matches_label(case: ChoiceCase) -> None:
    result = judge_choice(ChoiceItem.model_validate(case.item()))
    assert (result.status is Status.passed) is case.is_correct, result.detail
    assert result.detail


def test_forms_written_after_the_reader_was_frozen_are_mostly_read() -> None:
    """A check of generalisation; one known miss: a label mid-sentence in a bare last line."""
    options = ["London", "Paris", "Rome", "Berlin"]
    read = [
        judge_choice(ChoiceItem(response=r, answer="B", options=options)).choice == "B"
        for r in UNSEEN_STYLES
    ]
    assert sum(read) >= len(read) - 1
