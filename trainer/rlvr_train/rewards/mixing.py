"""Which reward functions a run uses, by name, and the weights that mix them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rlvr_train.errors import UsageError, did_you_mean
from rlvr_train.rewards.format import answer_format_reward, think_format_reward
from rlvr_train.rewards.verifiable import VERIFIABLE_NAMES, verifiable_reward

FORMAT_REWARDS = {"format": answer_format_reward, "think_format": think_format_reward}
REWARD_MODEL = "reward_model"
REWARD_NAMES = (*VERIFIABLE_NAMES, *FORMAT_REWARDS, REWARD_MODEL)


def build_reward_funcs(
    names: Sequence[str], reward_model: str | None = None, verifier_url: str | None = None
) -> list[Any]:
    """Reward functions in the order named; `reward_model` becomes the checkpoint's path, which
    TRL loads as a sequence-classification model scoring prompt + completion."""
    funcs: list[Any] = []
    for name in names:
        if name in VERIFIABLE_NAMES:
            funcs.append(verifiable_reward(name, verifier_url))
        elif name in FORMAT_REWARDS:
            funcs.append(FORMAT_REWARDS[name])
        elif name == REWARD_MODEL:
            if not reward_model:
                raise UsageError("reward `reward_model` needs --reward_model_name_or_path")
            funcs.append(reward_model)
        else:
            hint = did_you_mean(name, REWARD_NAMES)
            raise UsageError(
                f"unknown reward {name!r}; {hint + ' ' if hint else ''}"
                f"choose from {', '.join(REWARD_NAMES)}"
            )
    return funcs


def check_weights(names: Sequence[str], weights: Sequence[float] | None) -> list[float] | None:
    """One weight per reward function, or none (all 1)."""
    if weights is None:
        return None
    if len(weights) != len(names):
        raise UsageError(
            f"{len(weights)} reward weights for {len(names)} reward functions ({list(names)})"
        )
    return list(weights)
