"""Converters of multiple-choice, short-answer and reasoning-gym rows into items and labels."""

from __future__ import annotations

import json

import pytest
import reasoning_gym

from rlvr.formats import answer, choice, gym
from rlvr.schemas.answer import AnswerItem
from rlvr.schemas.choice import ChoiceItem
from rlvr.schemas.gym import GymItem
from rlvr.schemas.verify import VERIFY_ITEM_ADAPTER, item_from_label


def test_mmlu_row_gives_letters_options_and_a_valid_item() -> None:
    problem = choice.from_mmlu({"question": "2+2?", "choices": ["3", "4", "5", "6"], "answer": 1})
    assert problem.answer == "B"
    assert "B) 4" in problem.prompt
    ChoiceItem.model_validate(problem.item(r"\boxed{B}"))


def test_mmlu_pro_takes_ten_options_and_a_letter() -> None:
    options = [str(n) for n in range(10)]
    problem = choice.from_mmlu_pro({"question": "q", "options": options, "answer": "J"})
    assert (problem.answer, len(problem.options)) == ("J", 10)


def test_gpqa_shuffles_the_same_way_every_time_and_tracks_the_answer() -> None:
    row = {
        "Question": "Which is a noble gas?",
        "Correct Answer": "Argon",
        "Incorrect Answer 1": "Oxygen",
        "Incorrect Answer 2": "Nitrogen",
        "Incorrect Answer 3": "Carbon",
    }
    first, again = choice.from_gpqa(row), choice.from_gpqa(row)
    assert first.options == again.options
    assert first.options[choice.LETTERS.index(first.answer)] == "Argon"


def test_arc_numeric_labels_become_a_numbers_label_set() -> None:
    row = {
        "question": "q",
        "choices": {"text": ["a", "b", "c"], "label": ["1", "2", "3"]},
        "answerKey": "2",
    }
    problem = choice.from_arc(row)
    assert (problem.answer, problem.labels) == ("2", "numbers")
    ChoiceItem.model_validate(problem.item("Answer: 2"))


@pytest.mark.parametrize(
    "row",
    [
        {"question": "q", "choices": ["a"], "answer": 0},
        {"question": "q", "choices": ["a", "b"], "answer": 5},
        {"choices": ["a", "b"], "answer": 0},
    ],
)
def test_a_bad_choice_row_raises_format_error(row: dict) -> None:
    with pytest.raises(choice.FormatError):
        choice.from_mmlu(row)


def test_triviaqa_puts_the_value_first_then_its_aliases() -> None:
    row = {"question": "q", "answer": {"value": "Paris", "aliases": ["Paris", "City of Light"]}}
    problem = answer.from_triviaqa(row)
    assert problem.aliases == ["Paris", "City of Light"]
    AnswerItem.model_validate(problem.item("Answer: Paris"))


def test_squad_and_nq_rows_give_aliases() -> None:
    squad = {"context": "c", "question": "q", "answers": {"text": ["x", "x", "y"]}}
    assert answer.from_squad(squad).aliases == ["x", "y"]
    assert answer.from_natural_questions({"question": "q", "answer": ["a"]}).aliases == ["a"]
    with pytest.raises(answer.FormatError):
        answer.from_natural_questions({"question": "q", "answer": []})


def test_labels_round_trip_into_verify_items() -> None:
    labels = [
        choice.from_mmlu({"question": "q", "choices": ["a", "b"], "answer": 0}).label(),
        answer.from_natural_questions({"question": "q", "answer": ["a"]}).label(match="f1"),
        next(gym.problems("leg_counting", 1, seed=2)).label(),
    ]
    domains = [
        VERIFY_ITEM_ADAPTER.validate_python(item_from_label(lb, "x")).domain for lb in labels
    ]
    assert domains == ["choice", "answer", "gym"]


def test_a_gym_entry_becomes_json_safe_and_names_its_task() -> None:
    entry = reasoning_gym.create_dataset("arc_agi", size=1, seed=1)[0]
    problem = gym.from_entry(entry)
    assert problem.task == "arc_agi"
    assert json.loads(json.dumps(problem.entry)) == problem.entry
    GymItem.model_validate(problem.item("<answer>1</answer>"))


def test_json_safe_turns_sets_tuples_and_odd_values_into_json() -> None:
    assert gym.json_safe({"a": (1, 2), "b": {3, 1}, "c": object.__name__}) == {
        "a": [1, 2],
        "b": [1, 3],
        "c": "object",
    }
    with pytest.raises(gym.FormatError):
        gym.from_entry({"question": "q", "metadata": {}})
