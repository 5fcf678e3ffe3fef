"""Format rewards: a table of completions and their graded scores."""

from __future__ import annotations

import pytest

from rlvr_train.rewards.format import answer_format_reward, think_format_reward


@pytest.mark.parametrize(
    ("text", "score"),
    [
        ("The answer is \\boxed{42}", 1.0),
        ("\\boxed{42}\n", 1.0),
        ("\\boxed{1} or \\boxed{2}", 0.75),
        ("\\boxed{42} because", 0.75),
        ("\\boxed{4", 0.5),
        ("\\boxed{\\boxed{", 0.25),
        ("\\boxed{}", 0.25),
        ("42", 0.0),
        ("", 0.0),
    ],
)
def test_math_answer_format(text: str, score: float) -> None:
    assert answer_format_reward([""], [text], domain=["math"]) == [score]


@pytest.mark.parametrize(
    ("text", "score"),
    [
        ("```python\ndef f():\n    return 1\n```", 1.0),
        ("```python\na=1\n```\n```python\nb=2\n```", 0.5),
        ("def f(): return 1", 0.0),
    ],
)
def test_code_answer_format(text: str, score: float) -> None:
    assert answer_format_reward([""], [text], domain=["code"]) == [score]


def test_chat_completions_are_read_from_their_content() -> None:
    chat = [[{"role": "assistant", "content": "\\boxed{3}"}]]
    assert answer_format_reward([[]], chat, domain=["math"]) == [1.0]


@pytest.mark.parametrize(
    ("text", "score"),
    [
        ("<think>2+2=4</think>\n\\boxed{4}", 1.0),
        ("<think>2+2=4</think>", 0.0),
        ("\\boxed{4}", 0.0),
        ("<think></think>4", 0.0),
    ],
)
def test_think_format(text: str, score: float) -> None:
    assert think_format_reward([""], [text]) == [score]
