"""The item judge: not-an-answer refusals (hard to game), strict vs loose, and argument checks."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from rlvr.schemas.ifeval import IfevalItem
from rlvr.verifier.domains.ifeval.judge import judge

VACUOUS = [
    {"id": "punctuation:no_comma"},
    {"id": "change_case:english_lowercase"},
    {"id": "length_constraints:number_words", "kwargs": {"num_words": 50, "relation": "less than"}},
    {"id": "keywords:forbidden_words", "kwargs": {"forbidden_words": ["war"]}},
]
PROMPT = "write a short note about the sea in lowercase letters without commas"


def item(response: str, constraints: list[dict[str, Any]], **fields: Any) -> IfevalItem:
    return IfevalItem.model_validate({"response": response, "constraints": constraints, **fields})


@pytest.mark.parametrize("response", ["", "   ", "\n\t\n"])
def test_an_empty_response_meets_no_vacuous_constraint(response: str) -> None:
    judgement = judge(item(response, VACUOUS))
    assert judgement.met == 0
    assert judgement.refused is not None and "empty" in judgement.refused


@pytest.mark.parametrize("response", ["** * *", "{}", "...\n---"])
def test_a_response_without_words_meets_no_vacuous_constraint(response: str) -> None:
    judgement = judge(item(response, VACUOUS))
    assert judgement.met == 0 and "no words" in (judgement.refused or "")


def test_a_response_that_only_repeats_the_prompt_is_not_an_answer() -> None:
    judgement = judge(item(PROMPT, VACUOUS, prompt=PROMPT))
    assert judgement.met == 0 and "not an answer" in (judgement.refused or "")


def test_a_response_of_only_the_keywords_is_not_an_answer() -> None:
    constraints = [{"id": "keywords:existence", "kwargs": {"keywords": ["ocean", "salt"]}}]
    assert judge(item("Ocean salt.", constraints)).met == 0
    assert judge(item("The ocean tastes of salt.", constraints)).met == 1


def test_repeating_the_request_then_answering_counts() -> None:
    request = "Tell me a fact about owls."
    constraints = [{"id": "combination:repeat_prompt", "kwargs": {"prompt_to_repeat": request}}]
    assert judge(item(request, constraints, prompt=request)).met == 0
    answered = judge(item(request + " Owls can turn their heads far.", constraints, prompt=request))
    assert answered.met == 1 and answered.refused is None


def test_where_the_answer_is_a_copy_or_an_option_repeating_given_words_is_the_answer() -> None:
    request = "Describe the sea in one line."
    copy = [{"id": "copy:copy", "kwargs": {"prompt_to_repeat": request}}]
    both = [*copy, {"id": "punctuation:no_comma"}]
    assert judge(item(request, both, prompt=request)).met == 2
    assert judge(item("", copy, prompt=request)).refused is not None  # emptiness still refuses
    options = [{"id": "format:options", "kwargs": {"options": "yes/no/maybe"}}]
    assert judge(item("Maybe.", options, prompt="Will it rain? Answer yes/no/maybe.")).met == 1
    # elsewhere the constraint's own words are no answer: the keywords, five times over
    position = {"keyword": "sea", "n": 1, "m": 1}
    keyword = [{"id": "words:keywords_specific_position", "kwargs": position}]
    assert judge(item("sea sea sea sea sea.", keyword)).refused is not None


def test_a_real_answer_meets_the_vacuous_constraints() -> None:
    judgement = judge(item("the sea is calm and blue today", VACUOUS, prompt=PROMPT))
    assert [c.met for c in judgement.constraints] == [True, True, True, True]


def test_loose_mode_forgives_a_preamble_line_and_markdown() -> None:
    constraints = [{"id": "change_case:english_lowercase"}]
    response = "**Sure!**\nthe sea is calm and blue today"
    assert judge(item(response, constraints)).met == 0
    loose = judge(item(response, constraints, mode="loose"))
    assert loose.met == 1 and "first line removed" in loose.constraints[0].why


@pytest.mark.parametrize(
    ("constraint", "fragment"),
    [
        (
            {"id": "keywords:existance", "kwargs": {"keywords": ["a"]}},
            "did you mean 'keywords:existence'",
        ),
        ({"id": "keywords:existence", "kwargs": {}}, "needs ['keywords']"),
        ({"id": "keywords:existence", "kwargs": {"keywords": "sea"}}, "non-empty list of strings"),
        ({"id": "punctuation:no_comma", "kwargs": {"n": 1}}, "unknown: ['n']"),
        (
            {
                "id": "length_constraints:number_words",
                "kwargs": {"num_words": 5, "relation": "at most"},
            },
            "'less than' or 'at least'",
        ),
        ({"id": "language:response_language", "kwargs": {"language": "zh"}}, "langdetect"),
        (
            {
                "id": "keywords:letter_frequency",
                "kwargs": {"letter": "ab", "let_frequency": 1, "let_relation": "at least"},
            },
            "one ASCII letter",
        ),
        (
            {
                "id": "length_constraints:nth_paragraph_first_word",
                "kwargs": {"num_paragraphs": 2, "nth_paragraph": 3, "first_word": "a"},
            },
            "at most num_paragraphs",
        ),
    ],
)
def test_bad_constraints_are_refused_naming_what_is_wrong(constraint: dict, fragment: str) -> None:
    with pytest.raises(ValidationError) as raised:
        item("text", [constraint])
    assert fragment in str(raised.value)


def test_null_arguments_as_in_ifevals_published_data_are_ignored() -> None:
    constraint = {"id": "punctuation:no_comma", "kwargs": {"num_words": None, "keywords": None}}
    assert judge(item("a plain answer here", [constraint])).met == 1


def test_a_passed_deadline_stops_the_item_as_timed_out() -> None:
    judgement = judge(item("a plain answer", VACUOUS), deadline=0.0)
    assert judgement.is_timed_out and judgement.constraints == []
