"""The reference-answer domains through the TRL and verl adapters, against a live service."""

from __future__ import annotations

import json

import pytest

from rlvr.adapters import verl
from rlvr.adapters.trl import domain_item, make_reward_function
from rlvr.client import ConfigurationError
from rlvr.formats.gym import problems


async def test_choice_reward_reads_answer_and_options_columns(verifier_url: str) -> None:
    reward = make_reward_function("choice", base_url=verifier_url)
    options = ["London", "Paris", "Rome", "Berlin"]
    rewards = await reward(
        prompts=["p"] * 3,
        completions=[r"\boxed{B}", "The answer is Rome.", "A or B"],
        answer=["B", "C", "B"],
        options=[options, options, None],
    )
    assert rewards == [1.0, 1.0, 0.0]


async def test_answer_reward_keeps_alias_lists_and_grades_f1(verifier_url: str) -> None:
    reward = make_reward_function("answer", base_url=verifier_url)
    rewards = await reward(
        prompts=["p"] * 3,
        completions=["Answer: Everest", "Answer: Everest, K2", "Answer: Eiffel Tower in Paris"],
        answer=[["Mount Everest", "Everest"], ["Mount Everest", "Everest"], "Eiffel Tower"],
        match=["exact", "exact", "f1"],
    )
    assert rewards[:2] == [1.0, 0.0]
    assert rewards[2] == pytest.approx(2 / 3, abs=1e-6)  # 2 of 4 tokens, all of the reference


async def test_gym_reward_takes_the_task_from_a_json_entry_column(verifier_url: str) -> None:
    problem = next(problems("basic_arithmetic", 1, seed=5))
    reward = make_reward_function("gym", base_url=verifier_url)
    rewards = await reward(
        prompts=["p"] * 2,
        completions=[f"<answer>{problem.entry['answer']}</answer>", "<answer>x</answer>"],
        entry=[json.dumps(problem.entry)] * 2,
    )
    assert rewards == [1.0, 0.0]


def test_a_gym_row_without_task_or_source_names_what_is_missing() -> None:
    with pytest.raises(ConfigurationError, match="task"):
        domain_item("gym", "x", {"entry": [{"question": "q", "metadata": {}}]}, 0)


@pytest.mark.parametrize(
    ("data_source", "ground_truth", "extra_info", "expected"),
    [
        ("choice/mmlu", "B", None, {"domain": "choice", "answer": "B"}),
        (
            "choice/gpqa",
            "A",
            {"options": ["x", "y"]},
            {"domain": "choice", "answer": "A", "options": ["x", "y"]},
        ),
        (
            "answer/triviaqa",
            ["Paris", "paris"],
            None,
            {"domain": "answer", "answer": ["Paris", "paris"]},
        ),
        (
            "gym/leg_counting",
            {"question": "q", "answer": "4", "metadata": {}},
            None,
            {
                "domain": "gym",
                "task": "leg_counting",
                "entry": {"question": "q", "answer": "4", "metadata": {}},
            },
        ),
        ("openai/gsm8k", "42", None, "42"),  # other sources: unchanged (a math ground truth)
        ("choice/mmlu", {"domain": "math", "answer": "1"}, None, {"domain": "math", "answer": "1"}),
    ],
)
def test_verl_data_source_routes_plain_ground_truths(
    data_source: str, ground_truth: object, extra_info: dict | None, expected: object
) -> None:
    assert verl.routed_label(data_source, ground_truth, extra_info) == expected


def test_verl_scores_a_batch_routed_by_data_source(verifier_url: str) -> None:
    problem = next(problems("basic_arithmetic", 1, seed=5))
    scores = verl.compute_score_batch(
        data_sources=["choice/mmlu", "answer/nq", "reasoning_gym/basic_arithmetic", "gsm8k"],
        solution_strs=[
            r"\boxed{C}",
            "Answer: Lyon, Paris",
            f"<answer>{problem.entry['answer']}</answer>",
            r"\boxed{7}",
        ],
        ground_truths=["C", ["Paris"], json.dumps(problem.entry), "7"],
        base_url=verifier_url,
    )
    assert [s["score"] for s in scores] == [1.0, 0.0, 1.0, 1.0]
