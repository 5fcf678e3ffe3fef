"""Short answers: normalisation switches, quantities, graded F1, stuffing, reasons, linear time."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest
from pydantic import ValidationError

from rlvr.schemas.answer import AnswerItem, AnswerNormalization
from rlvr.verifier.domains.answer.match import judge_answer
from rlvr.verifier.domains.answer.normalize import normalize, token_f1
from rlvr.verifier.domains.answer.quantity import parse_quantity
from rlvr.verifier.domains.answer.verifier import answer_result


def test_squad_normalisation_drops_case_punctuation_and_articles() -> None:
    assert normalize("  The  Beatles!! ", AnswerNormalization()) == "beatles"


def test_each_normalisation_step_can_be_switched_off() -> None:
    rules = AnswerNormalization(is_lowercased=False, is_articles_removed=False)
    assert normalize("The Beatles.", rules) == "The Beatles"
    item = AnswerItem(response="Answer: the beatles", answer="The Beatles", normalization=rules)
    assert judge_answer(item).reason == "wrong"


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("1,000", Fraction(1000), None),
        ("1 000 km", Fraction(1000), "km"),
        ("$2.5 million", Fraction(2_500_000), "usd"),
        ("-3.25%", Fraction(-325, 100), "%"),
        ("12 kilometres", Fraction(12), "km"),
    ],
)
def test_quantities_are_read_exactly(text: str, value: Fraction, unit: str | None) -> None:
    quantity = parse_quantity(text)
    assert quantity is not None
    assert (quantity.value, quantity.unit) == (value, unit)


@pytest.mark.parametrize("text", ["1,5", "12,34", "about 5", "5 or 6", "Paris"])
def test_ambiguous_or_worded_text_is_not_a_quantity(text: str) -> None:
    assert parse_quantity(text) is None


def test_graded_f1_gives_a_partial_reward() -> None:
    item = AnswerItem(
        response="Answer: the Eiffel Tower in Paris", answer="Eiffel Tower", match="f1"
    )
    result = answer_result(item)
    assert result.reason == "partial"
    assert result.reward == pytest.approx(2 / 3, abs=1e-6)
    assert token_f1(["a"], []) == 0.0


def test_stuffing_names_the_candidate_it_found() -> None:
    result = answer_result(AnswerItem(response="Answer: Lyon, Paris", answer="Paris"))
    assert (result.reason, result.reward, result.matched) == ("stuffed", 0.0, "Paris")


def test_an_answer_inside_think_is_not_read() -> None:
    result = answer_result(AnswerItem(response="<think>Answer: Paris", answer="Paris"))
    assert (result.reason, result.extracted) == ("unfinished_thinking", None)


@pytest.mark.parametrize("answer", [[], [" "], ["x"] * 300])
def test_alias_lists_must_hold_some_answer(answer: list[str]) -> None:
    with pytest.raises(ValidationError):
        AnswerItem(response="x", answer=answer)


@pytest.mark.parametrize(
    "response", ["Paris, " * 50_000, "Answer: " * 20_000, r"\boxed{" * 20_000, "1," * 60_000]
)
def test_judging_a_hostile_response_takes_milliseconds(response: str) -> None:
    started = time.perf_counter()
    judge_answer(AnswerItem(response=response, answer=["Paris", "1,000"], match="f1"))
    assert time.perf_counter() - started < 1.0
