"""Instruction-following labels in every public format -> /ifeval constraints, judged end to end."""

from __future__ import annotations

import json

import pytest

from rlvr.formats.ifeval import (
    FUNC_NAMES,
    FormatError,
    constraints_from_ground_truth,
    convert,
    detect_format,
)
from rlvr.schemas.ifeval import INSTRUCTION_KWARGS, IfevalItem
from rlvr.verifier.domains.ifeval.judge import judge

IFEVAL_ROW = {
    "key": 1000,
    "prompt": "Write a 300+ word summary of the wikipedia page. Do not use any commas.",
    "instruction_id_list": ["punctuation:no_comma", "length_constraints:number_words"],
    # as the published data gives them: every argument name, unused ones null
    "kwargs": [
        {"num_words": None, "relation": None, "keywords": None},
        {"num_words": 300, "relation": "at least", "keywords": None},
    ],
}
OPEN_INSTRUCT_GT = (
    "[{'instruction_id': ['detectable_format:title', 'keywords:existence'], "
    "'kwargs': [None, {'keywords': ['owl', 'night']}]}]"
)


def test_an_ifeval_row_keeps_its_constraints_and_drops_null_arguments() -> None:
    problem = convert(IFEVAL_ROW)
    assert detect_format(IFEVAL_ROW) == "ifeval"
    assert problem.id == "1000" and problem.prompt == IFEVAL_ROW["prompt"]
    assert problem.constraints == [
        {"id": "punctuation:no_comma", "kwargs": {}},
        {
            "id": "length_constraints:number_words",
            "kwargs": {"num_words": 300, "relation": "at least"},
        },
    ]


@pytest.mark.parametrize(
    "ground_truth",
    [
        OPEN_INSTRUCT_GT,  # a Python-literal string
        json.dumps(
            [
                {
                    "instruction_id": ["detectable_format:title", "keywords:existence"],
                    "kwargs": [None, {"keywords": ["owl", "night"]}],
                }
            ]
        ),
        [
            {
                "instruction_id": ["detectable_format:title", "keywords:existence"],
                "kwargs": [None, {"keywords": ["owl", "night"]}],
            }
        ],
        {
            "instruction_id": ["detectable_format:title", "keywords:existence"],
            "kwargs": [None, {"keywords": ["owl", "night"]}],
        },
    ],
)
def test_open_instruct_ground_truth_in_every_encoding(ground_truth: object) -> None:
    problem = convert(
        {"ground_truth": ground_truth, "messages": [{"role": "user", "content": "Q"}]}
    )
    assert [c["id"] for c in problem.constraints] == [
        "detectable_format:title",
        "keywords:existence",
    ]
    assert problem.prompt == "Q"
    judged = judge(problem.item("<<Night Owls>>\nThe owl hunts at night."))
    assert judged.met == 2


def test_a_python_literal_ground_truth_is_never_evaluated_as_code() -> None:
    with pytest.raises(FormatError, match="neither JSON nor a Python literal"):
        constraints_from_ground_truth("[__import__('os').system('true')]")


def test_the_old_func_name_form_becomes_the_ifeval_instruction() -> None:
    label = json.dumps(
        {
            "func_name": "validate_word_constraint",
            "N": 50,
            "quantifier": "at most",
            "keyword_list": None,
            "end_phrase": None,
        }
    )
    assert constraints_from_ground_truth(label) == [
        {
            "id": "length_constraints:number_words",
            "kwargs": {"num_words": 51, "relation": "less than"},
        }
    ]
    assert constraints_from_ground_truth({"func_name": "validate_lowercase"}) == [
        {"id": "change_case:english_lowercase", "kwargs": {}}
    ]


def test_every_func_name_maps_to_a_known_instruction() -> None:
    assert {ifeval_id for ifeval_id, _ in FUNC_NAMES.values()} <= set(INSTRUCTION_KWARGS)
    assert len(FUNC_NAMES) == 25


@pytest.mark.parametrize(
    ("label", "fragment"),
    [
        ({"func_name": "validate_word_constraint", "N": 5, "quantifier": "around"}, "around"),
        ({"func_name": "nope"}, "unknown func_name"),
        (
            '[{"instruction_id": ["words:start_verbs"], "kwargs": [{}]}]',
            "unknown instruction id",
        ),
        ('[{"kwargs": [{}]}]', "no `instruction_id`"),
        (
            '[{"instruction_id": ["punctuation:no_comma", "startend:quotation"], "kwargs": [{}]}]',
            "one kwargs",
        ),
    ],
)
def test_bad_labels_say_what_is_wrong(label: object, fragment: str) -> None:
    with pytest.raises(FormatError, match=fragment):
        constraints_from_ground_truth(label)


def test_a_row_in_no_known_format_is_refused() -> None:
    with pytest.raises(FormatError, match="no instruction-following format"):
        convert({"question": "x"})


IFBENCH_ROW = {  # IFBench_test.jsonl's shape: every argument name, unused ones null, floats
    "key": "7",
    "prompt": "Describe a garden. Include keyword rose in the 2-th sentence.",
    "instruction_id_list": ["sentence:keyword", "count:numbers"],
    "kwargs": [
        {"N": 2.0, "word": "rose", "small_n": None, "percentage": None},
        {"N": 1.0, "word": None, "small_n": None, "percentage": None},
    ],
}
IFEVALG_GT = (  # open-instruct's ground_truth with IFEvalG's additions (a list-valued word)
    "[{'instruction_id': ['last_word:last_word_sent', 'punctuation:punctuation_exclamation'], "
    "'kwargs': [{'last_word': ['now']}, None]}]"
)


def test_ifbench_and_ifevalg_labels_convert_and_judge() -> None:
    problem = convert(IFBENCH_ROW)
    assert [c["id"] for c in problem.constraints] == ["sentence:keyword", "count:numbers"]
    response = "The garden is quiet. A red rose grows by the 1 gate."
    judged = judge(IfevalItem(response=response, constraints=problem.constraints))
    assert [c.met for c in judged.constraints] == [True, True]
    constraints = constraints_from_ground_truth(IFEVALG_GT)
    answer = "Come here now. Go home now."
    judged = judge(IfevalItem(response=answer, constraints=constraints))
    assert [c.met for c in judged.constraints] == [True, True]
