"""The verifiable rewards: the service's TRL adapter under our short names, with accuracy logged.

Everything about talking to the verifier lives in the adapter (`rlvr.adapters.trl`):
building items from the dataset columns (including the JSON-encoded `tests` column), batching,
retries, the `error` -> `None` rule and the per-status counts. Our names are the adapter's
function names without `_reward` (`verify_reward` -> `verify`), so a reward the adapter adds is
ours too. This wrapper only adds two metrics per call: the share of scored completions the
verifier judged fully right (`accuracy`) and the share it could not score (`verifier/unscored`).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

from rlvr.adapters import trl as adapter

RewardFunc = Callable[..., Any]
SUFFIX = "_reward"


def reward_stats(rewards: Sequence[float | None]) -> dict[str, float]:
    """Share of completions judged fully right, and of those the verifier could not judge."""
    if not rewards:
        return {}
    scored = [r for r in rewards if r is not None]
    return {
        "accuracy": sum(1.0 for r in scored if r >= 1.0) / max(len(scored), 1),
        "verifier/unscored": 1.0 - len(scored) / len(rewards),
    }


def instrument(func: RewardFunc) -> RewardFunc:
    """`func` (keeping its name, TRL's metric name) with its accuracy logged through TRL's
    `log_metric`; the columns reach the adapter as TRL passed them."""

    @functools.wraps(func)
    async def wrapped(prompts: Sequence[Any], completions: Sequence[Any], **columns: Any) -> Any:
        rewards = func(prompts=prompts, completions=completions, **columns)
        if inspect.isawaitable(rewards):
            rewards = await rewards
        log_metric = columns.get("log_metric")
        if log_metric is not None:
            for name, value in reward_stats(rewards).items():
                log_metric(name, value)
        return rewards

    return wrapped


def verifiable_rewards(base_url: str | None = None) -> dict[str, RewardFunc]:
    """The adapter's reward functions by our name, talking to `base_url` (default:
    `$VERIFIER_URL`)."""
    functions = adapter.make_reward_functions(base_url=base_url)
    return {name.removesuffix(SUFFIX): instrument(func) for name, func in functions.items()}


VERIFIABLE_NAMES: tuple[str, ...] = tuple(verifiable_rewards())  # no client is built yet


def verifiable_reward(name: str, base_url: str | None = None) -> RewardFunc:
    """One of `verifiable_rewards`, by our name (`verify`, `math`, `code`, `lean`)."""
    rewards = verifiable_rewards(base_url)
    if name not in rewards:
        raise ValueError(f"unknown verifiable reward {name!r}; choose from {sorted(rewards)}")
    return rewards[name]
