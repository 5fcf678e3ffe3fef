"""The `<answer>` a reasoning-gym response gives: last tag, variants, never inside thinking."""

from __future__ import annotations

import time

import pytest

from rlvr.verifier.domains.gym.extract import extract_gym_answer
from rlvr.verifier.domains.gym.tasks import UnknownTask, check_tasks


@pytest.mark.parametrize(
    ("response", "answer", "reason"),
    [
        ("<answer>42</answer>", "42", None),
        ("<answer>1</answer> no wait <answer> 2 </answer>", "2", None),
        ("<ANSWER>7</ANSWER>", "7", None),
        ("< answer >7</ answer >", "7", None),
        ("reasoning... <answer>7", "7", None),  # cut off right after the answer
        ("<think><answer>7</answer></think>", None, "no_answer"),
        ("<think><answer>7</answer>", None, "unfinished_thinking"),
        ("the answer is 7", None, "no_answer"),
    ],
)
def test_extracts_the_last_answer_tag(
    response: str, answer: str | None, reason: str | None
) -> None:
    extracted = extract_gym_answer(response)
    assert (extracted.answer, extracted.reason) == (answer, reason)


def test_many_open_tags_take_milliseconds() -> None:
    started = time.perf_counter()
    extract_gym_answer("<answer>" * 50_000)
    assert time.perf_counter() - started < 1.0


def test_an_unknown_task_names_the_close_ones() -> None:
    with pytest.raises(UnknownTask, match="basic_arithmetic") as raised:
        check_tasks(["basic_arithmetic", "basic_arithmetc"], frozenset({"basic_arithmetic"}))
    assert "items[1]" in raised.value.message
