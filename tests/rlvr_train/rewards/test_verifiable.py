"""The verifiable rewards through the TRL adapter against a live service."""

from __future__ import annotations

import pytest

from rlvr.adapters import trl as adapter
from rlvr_train.rewards.mixing import build_reward_funcs, check_weights
from rlvr_train.rewards.verifiable import VERIFIABLE_NAMES, reward_stats, verifiable_reward


async def test_verify_reward_scores_math_rows_and_logs_accuracy(verifier_url: str) -> None:
    reward = verifiable_reward("verify", verifier_url)
    logged: dict[str, list[float]] = {}
    rewards = await reward(
        prompts=["1+1?", "2+2?", "3+3?"],
        completions=["\\boxed{2}", "it is 5", [{"role": "assistant", "content": "\\boxed{6}"}]],
        domain=["math", "math", "math"],
        answer=["2", "4", "6"],
        tests=[None, None, None],
        log_metric=lambda name, value: logged.setdefault(name, []).append(value),
    )
    assert rewards == [1.0, 0.0, 1.0]
    assert logged["accuracy"] == [pytest.approx(2 / 3)]
    assert logged["verifier/unscored"] == [0.0]
    assert logged["verify_reward/passed"] == [2.0] and logged["verify_reward/failed"] == [1.0]
    assert reward.__name__ == "verify_reward"  # TRL's metric name


def test_our_names_are_the_adapters_functions_without_the_suffix() -> None:
    public = {n for n in adapter.__all__ if n.endswith("_reward")}
    assert {f"{name}_reward" for name in VERIFIABLE_NAMES} == public
    assert [verifiable_reward(name).__name__ for name in VERIFIABLE_NAMES] == [
        f"{name}_reward" for name in VERIFIABLE_NAMES
    ]
    with pytest.raises(ValueError, match="unknown verifiable reward"):
        verifiable_reward("maths")


async def test_json_tests_column_reaches_the_adapter_as_trl_passes_it(verifier_url: str) -> None:
    """The dataset stores `tests` JSON-encoded; the adapter decodes it (no second decoder
    here): a row whose `tests` cell is not JSON is the adapter's configuration error."""
    from rlvr.client import ConfigurationError

    reward = verifiable_reward("verify", verifier_url)
    with pytest.raises(ConfigurationError, match="not JSON"):
        await reward(
            prompts=["p"], completions=["```python\nx = 1\n```"], domain=["code"],
            answer=[None], tests=["[{not json"],
        )  # fmt: skip


def test_reward_stats_leave_unscored_items_out_of_accuracy() -> None:
    assert reward_stats([1.0, 0.0, None, 1.0]) == {
        "accuracy": pytest.approx(2 / 3),
        "verifier/unscored": 0.25,
    }


def test_reward_funcs_are_built_by_name_and_weights_must_match() -> None:
    funcs = build_reward_funcs(["math", "format", "reward_model"], reward_model="/rm")
    assert [getattr(f, "__name__", f) for f in funcs] == [
        "math_reward",
        "answer_format_reward",
        "/rm",
    ]
    with pytest.raises(ValueError, match="reward_model_name_or_path"):
        build_reward_funcs(["reward_model"])
    with pytest.raises(ValueError, match="unknown reward"):
        build_reward_funcs(["mathh"])
    assert check_weights(["a", "b"], [1.0, 0.5]) == [1.0, 0.5]
    with pytest.raises(ValueError, match="2 reward functions"):
        check_weights(["a", "b"], [1.0])
