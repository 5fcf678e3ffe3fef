"""The TRL reward functions against a live service: signature, chat/plain text, metrics."""

from __future__ import annotations

import pytest

from services.verifier.adapters.trl import make_reward_function, math_reward, verify_reward
from services.verifier.client import ConfigurationError


async def test_math_reward_scores_plain_and_chat_completions(
    verifier_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFIER_URL", verifier_url)
    logged: dict[str, float] = {}
    rewards = await math_reward(
        prompts=["What is 2+2?"] * 3,
        completions=[
            "It is \\boxed{4}",
            [{"role": "assistant", "content": "\\boxed{4}"}],
            [{"role": "assistant", "content": [{"type": "text", "text": "\\boxed{5}"}]}],
        ],
        answer=["4", "4", "4"],
        log_metric=lambda name, value: logged.__setitem__(name, value),
        trainer_state=None,
    )
    assert rewards == [1.0, 1.0, 0.0]
    assert logged == {
        "math_reward/passed": 2.0,
        "math_reward/failed": 1.0,
        "math_reward/timed_out": 0.0,
        "math_reward/error": 0.0,
    }


async def test_verify_reward_reads_the_domain_column(verifier_url: str) -> None:
    reward = make_reward_function("mixed", base_url=verifier_url)
    rewards = await reward(
        prompts=["p", "p"],
        completions=["\\boxed{7}", "\\boxed{8}"],
        domain=["math", "math"],
        answer=["7", "7"],
    )
    assert reward.__name__ == "verify_reward"
    assert rewards == [1.0, 0.0]


async def test_verify_reward_reads_openrlhf_style_labels(verifier_url: str) -> None:
    reward = make_reward_function("mixed", base_url=verifier_url)
    rewards = await reward(
        prompts=["p", "p"],
        completions=["\\boxed{7}", "\\boxed{9}"],
        label=["7", '{"domain": "math", "answer": "9"}'],
    )
    assert rewards == [1.0, 1.0]


async def test_missing_dataset_column_names_the_column(verifier_url: str) -> None:
    reward = make_reward_function("math", base_url=verifier_url)
    with pytest.raises(ConfigurationError, match="answer"):
        await reward(prompts=["p"], completions=["\\boxed{1}"])


def test_module_functions_have_trl_metric_names() -> None:
    assert math_reward.__name__ == "math_reward"
    assert verify_reward.__name__ == "verify_reward"
