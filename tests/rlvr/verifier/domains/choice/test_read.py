"""Reading a choice: the reasons it reports, label sets, the wire model's checks, linear time."""

from __future__ import annotations

import time

import pytest
from pydantic import ValidationError

from rlvr.schemas.choice import ChoiceItem
from rlvr.schemas.choice_labels import infer_kind, label_set
from rlvr.verifier.domains.choice.read import ChoiceReason, read_choice
from rlvr.verifier.domains.choice.verifier import judge_choice

ABCD = label_set("letters", 4)
OPTIONS = ["London", "Paris", "Rome", "Berlin"]


@pytest.mark.parametrize(
    ("response", "label", "reason"),
    [
        (r"\boxed{B}", "B", None),
        ("The answer is Paris.", "B", None),
        ("A or C", None, ChoiceReason.hedged),
        (r"\boxed{A} then \boxed{C}", None, ChoiceReason.hedged),
        ("B) Rome", None, ChoiceReason.contradicts_text),
        ("<think>The answer is B", None, ChoiceReason.unfinished_thinking),
        ("The answer is not B", None, ChoiceReason.no_answer),
        ("The answer is В", None, ChoiceReason.no_answer),  # Cyrillic Ve
        ("Final answer: Ｂ", "B", None),  # fullwidth B is B
    ],
)
def test_reading_names_the_label_or_the_reason(
    response: str, label: str | None, reason: ChoiceReason | None
) -> None:
    reading = read_choice(response, ABCD, OPTIONS)
    assert reading.label == label
    assert reading.reason == reason


def test_a_quoted_option_that_contains_labels_is_not_a_hedge() -> None:
    options = ["Both A and B", "Neither", "Only A", "Only B"]
    assert read_choice("The answer is (A) Both A and B.", ABCD, options).label == "A"


def test_the_pronoun_i_is_not_label_i() -> None:
    ten = label_set("letters", 10)
    assert read_choice("Answer: I think it is C.", ten, None).label == "C"
    assert read_choice("The answer is I.", ten, None).label == "I"


@pytest.mark.parametrize(
    ("answer", "kind"), [("B", "letters"), ("I", "letters"), ("3", "numbers"), ("iv", "roman")]
)
def test_the_label_kind_follows_from_the_answer(answer: str, kind: str) -> None:
    assert infer_kind(answer) == kind


def test_a_reason_code_and_choice_come_back() -> None:
    result = judge_choice(ChoiceItem(response="Answer: (C)", answer="B", options=OPTIONS))
    assert (result.choice, result.reason, result.reward) == ("C", "wrong_choice", 0.0)


@pytest.mark.parametrize(
    "fields",
    [
        {"answer": "E", "options": OPTIONS},
        {"answer": "5", "labels": "numbers", "num_options": 4},
        {"answer": "B", "options": OPTIONS, "num_options": 5},
        {"answer": "B", "options": ["only one"]},
    ],
)
def test_an_answer_outside_the_label_set_is_rejected(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        ChoiceItem.model_validate({"response": "B", **fields})


@pytest.mark.parametrize(
    "response",
    [
        "A or " * 40_000,
        r"\boxed{" * 20_000,
        "The answer is " * 20_000,
        "<answer>" * 20_000,
        "B " * 100_000,
    ],
)
def test_reading_a_hostile_response_takes_milliseconds(response: str) -> None:
    started = time.perf_counter()
    read_choice(response, ABCD, OPTIONS)
    assert time.perf_counter() - started < 1.0
