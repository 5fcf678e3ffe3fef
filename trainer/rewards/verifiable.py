"""The verifiable rewards: the service's TRL adapter, with our dataset columns and metrics added.

The HTTP calls, batching, retries and the `error` -> `None` rule live in the adapter
(`services.verifier.adapters.trl`). This wrapper only decodes the JSON-encoded `tests` column
and logs, per call, the share of completions the verifier scored 1 (`accuracy`) and the share it
could not score (`verifier/unscored`).
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Sequence
from typing import Any

RewardFunc = Callable[..., Any]

# Our names for the adapter's reward functions, and the adapter's domain argument for each.
ADAPTER_FUNCTIONS: dict[str, str] = {
    "verify": "verify_reward",
    "math": "math_reward",
    "code": "code_reward",
    "lean": "lean_reward",
}
ADAPTER_DOMAINS: dict[str, str] = {
    "verify": "mixed",
    "math": "math",
    "code": "code",
    "lean": "lean",
}


def decode_columns(columns: dict[str, Any]) -> dict[str, Any]:
    """Column values as the verifier's wire format wants them (tests as lists, not JSON)."""
    if "tests" in columns:
        columns = {
            **columns,
            "tests": [json.loads(t) if isinstance(t, str) else t for t in columns["tests"]],
        }
    return columns


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
    """`func` with columns decoded and its accuracy logged through TRL's `log_metric`."""

    @functools.wraps(func)
    async def wrapped(prompts: Sequence[Any], completions: Sequence[Any], **columns: Any) -> Any:
        rewards = func(prompts=prompts, completions=completions, **decode_columns(columns))
        if inspect.isawaitable(rewards):
            rewards = await rewards
        log_metric = columns.get("log_metric")
        if log_metric is not None:
            for name, value in reward_stats(rewards).items():
                log_metric(name, value)
        return rewards

    return wrapped


def verifiable_reward(name: str, base_url: str | None = None) -> RewardFunc:
    """The adapter's reward function for one of our names (`verify`, `math`, `code`, `lean`),
    talking to `base_url` (default: `$VERIFIER_URL`)."""
    from services.verifier.adapters import trl as adapter

    func = adapter.make_reward_function(
        ADAPTER_DOMAINS[name],  # type: ignore[arg-type]
        base_url=base_url,
        name=ADAPTER_FUNCTIONS[name],
    )
    return instrument(func)
