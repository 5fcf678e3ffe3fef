"""The TRL reward functions against a live service: signature, chat/plain text, metrics."""

from __future__ import annotations

import pytest

from rlvr.adapters.trl import (
    code_reward,
    lean_reward,
    make_reward_function,
    make_reward_functions,
    math_reward,
    verify_reward,
)
from rlvr.client import ConfigurationError, RetryPolicy, TransportError
from tests.support.server import free_port


async def test_math_reward_scores_plain_and_chat_completions(
    verifier_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFIER_URL", verifier_url)
    logged: dict[str, float] = {}
    extra: dict[str, list[str]] = {}
    rewards = await math_reward(
        prompts=["What is 2+2?"] * 3,
        completions=[
            "It is \\boxed{4}",
            [{"role": "assistant", "content": "\\boxed{4}"}],
            [{"role": "assistant", "content": [{"type": "text", "text": "\\boxed{5}"}]}],
        ],
        answer=["4", "4", "4"],
        log_metric=lambda name, value: logged.__setitem__(name, value),
        log_extra=lambda column, values: extra.__setitem__(column, values),
        trainer_state=None,
    )
    assert rewards == [1.0, 1.0, 0.0]
    assert extra["math_reward/status"] == ["passed", "passed", "failed"]
    assert len(extra["math_reward/detail"]) == 3 and all(extra["math_reward/detail"])
    assert logged == {
        "math_reward/passed": 2.0,
        "math_reward/failed": 1.0,
        "math_reward/timed_out": 0.0,
        "math_reward/error": 0.0,
    }


async def test_math_reward_sends_the_prompt_so_a_restated_expression_earns_nothing(
    verifier_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """TRL's call shape with a conversational dataset: the last user message is the problem;
    `2\\sin x\\cos x` equals the ground truth `\\sin(2x)` but restates the problem, so only
    `\\sin(2x)` is paid; under another prompt the same answer is paid (it is equivalent, and
    no form rule refuses it). A `problem` column, when the dataset has one, is used instead."""
    monkeypatch.setenv("VERIFIER_URL", verifier_url)
    chat = [{"role": "user", "content": "Write $2\\sin x\\cos x$ as one trigonometric function."}]
    rewards = await math_reward(
        prompts=[chat, chat, [{"role": "user", "content": "Simplify."}]],
        completions=[
            [{"role": "assistant", "content": "\\boxed{2\\sin x\\cos x}"}],
            [{"role": "assistant", "content": "\\boxed{\\sin(2x)}"}],
            [{"role": "assistant", "content": "\\boxed{2\\sin x\\cos x}"}],
        ],
        answer=["\\sin(2x)"] * 3,
        trainer_state=None,
    )
    assert rewards == [0.0, 1.0, 1.0]
    from_column = await math_reward(
        prompts=["Simplify."] * 2,
        completions=["\\boxed{2\\sin x\\cos x}", "\\boxed{\\sin(2x)}"],
        answer=["\\sin(2x)"] * 2,
        problem=["Write $2\\sin x\\cos x$ as one trigonometric function."] * 2,
    )
    assert from_column == [0.0, 1.0]
    mixed = await verify_reward(
        prompts=["Write $2\\sin x\\cos x$ as one trigonometric function."] * 2,
        completions=["\\boxed{2\\sin x\\cos x}", "\\boxed{\\sin(2x)}"],
        label=["\\sin(2x)"] * 2,
    )
    assert mixed == [0.0, 1.0]


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


async def test_verifier_error_becomes_none_and_is_counted(verifier_url: str) -> None:
    # This service has no Lean toolchain: the lean verifier answers `error` (its own fault),
    # which must reach TRL as None (sample dropped), never as a fake 0.
    reward = make_reward_function("lean", base_url=verifier_url)
    logged: dict[str, float] = {}
    rewards = await reward(
        prompts=["prove it"],
        completions=["```lean\ntheorem t : 1 + 1 = 2 := by decide\n```"],
        statement=["theorem t : 1 + 1 = 2"],
        log_metric=lambda name, value: logged.__setitem__(name, value),
    )
    assert rewards == [None]
    assert logged["lean_reward/error"] == 1.0 and logged["lean_reward/passed"] == 0.0


async def test_mixed_batch_keeps_math_rewards_and_drops_only_the_errors(verifier_url: str) -> None:
    # Code is disabled on this service: code rows are the verifier's errors, math rows are scored.
    reward = make_reward_function("mixed", base_url=verifier_url)
    rewards = await reward(
        prompts=["p"] * 3,
        completions=["\\boxed{2}", "```python\ndef f(): return 1\n```", "\\boxed{3}"],
        domain=["math", "code", "math"],
        answer=["2", None, "2"],
        tests=[None, '[{"kind": "call", "fn": "f", "expected": 1}]', None],
    )
    assert rewards == [1.0, None, 0.0]


async def test_unreachable_service_raises_by_default_or_gives_none_when_asked() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    policy = RetryPolicy(max_attempts=2, initial_backoff_s=0.01, jitter_s=0.0)
    loud = make_reward_function("math", base_url=url, retry=policy)
    with pytest.raises(TransportError):
        await loud(prompts=["p"], completions=["\\boxed{1}"], answer=["1"])
    quiet = make_reward_function("math", base_url=url, retry=policy, on_unavailable="none")
    assert await quiet(prompts=["p"] * 2, completions=["a", "b"], answer=["1", "2"]) == [None, None]


def test_factory_builds_every_function_with_trl_names() -> None:
    functions = make_reward_functions(base_url="http://127.0.0.1:1")
    assert sorted(functions) == [
        "answer_reward",
        "choice_reward",
        "code_reward",
        "gym_reward",
        "ifeval_reward",
        "lean_reward",
        "math_reward",
        "verify_reward",
    ]
    assert all(fn.__name__ == name for name, fn in functions.items())
    assert code_reward.__name__ == "code_reward" and lean_reward.__name__ == "lean_reward"
