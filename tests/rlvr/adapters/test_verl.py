"""The verl adapter against a live service, called the way verl's reward managers call it.

verl itself (it needs ray and tensordict) is not installed here; the calls below use the exact
keyword arguments of verl 0.9's `NaiveRewardManager` (`compute_score(data_source=...,
solution_str=..., ground_truth=..., extra_info=...)`) and `BatchRewardManager`
(`compute_score(data_sources=..., solution_strs=..., ground_truths=..., extra_infos=...,
**reward_kwargs)`).
"""

from __future__ import annotations

import asyncio
import json

import pytest

from rlvr.adapters import verl
from rlvr.client import ConfigurationError


def test_compute_score_returns_score_and_numeric_verdict_fields(
    verifier_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFIER_URL", verifier_url)
    right = verl.compute_score(
        data_source="gsm8k", solution_str="so \\boxed{72}", ground_truth="72", extra_info={}
    )
    wrong = verl.compute_score(
        data_source="gsm8k", solution_str="so \\boxed{71}", ground_truth="72", extra_info=None
    )
    assert right == {
        "score": 1.0,
        "passed": 1.0,
        "failed": 0.0,
        "timed_out": 0.0,
        "verifier_error": 0.0,
    }
    assert wrong["score"] == 0.0 and wrong["failed"] == 1.0
    assert all(isinstance(v, float) for v in right.values())  # verl averages these


def test_structured_ground_truth_as_json_or_dict(verifier_url: str) -> None:
    label = {"domain": "math", "answer": "\\frac{1}{2}"}
    for ground_truth in (json.dumps(label), label):
        out = verl.compute_score(
            data_source="x",
            solution_str="\\boxed{1/2}",
            ground_truth=ground_truth,
            base_url=verifier_url,
        )
        assert out["passed"] == 1.0


def test_verifier_error_scores_error_score_and_is_flagged(verifier_url: str) -> None:
    # No Lean toolchain on this service: the verifier's own error, not the candidate's.
    label = json.dumps({"domain": "lean", "statement": "theorem t : True"})
    out = verl.compute_score(
        data_source="minif2f",
        solution_str="```lean\ntheorem t : True := trivial\n```",
        ground_truth=label,
        base_url=verifier_url,
        error_score=-1.0,
    )
    assert out["verifier_error"] == 1.0 and out["score"] == -1.0 and out["passed"] == 0.0


def test_compute_score_batch_keeps_order(verifier_url: str) -> None:
    n = 40
    out = verl.compute_score_batch(
        data_sources=["math"] * n,
        solution_strs=[f"\\boxed{{{i}}}" for i in range(n)],
        ground_truths=[str(i if i % 3 else i + 1) for i in range(n)],
        extra_infos=[{}] * n,
        base_url=verifier_url,  # what verl passes from custom_reward_function.reward_kwargs
    )
    assert [o["score"] for o in out] == [0.0 if i % 3 == 0 else 1.0 for i in range(n)]


async def test_compute_score_async(verifier_url: str) -> None:
    out = await verl.compute_score_async(
        data_source="math", solution_str="\\boxed{5}", ground_truth="5", base_url=verifier_url
    )
    assert out["score"] == 1.0


async def test_concurrent_async_calls_are_coalesced_into_few_batches(verifier_url: str) -> None:
    # verl's reward loop awaits one call per sample, all at once: they must share requests.
    n = 300
    calls = [
        verl.compute_score_async(
            data_source="math",
            solution_str=f"\\boxed{{{i}}}",
            ground_truth=str(i if i % 2 else -1),
            base_url=verifier_url,
        )
        for i in range(n)
    ]
    out = await asyncio.gather(*calls)
    assert [o["score"] for o in out] == [float(i % 2) for i in range(n)]
    coalescer = verl._coalescers[asyncio.get_running_loop()][(verifier_url, None)]
    assert 1 <= coalescer.batches_sent <= 3


async def test_a_bad_label_fails_only_its_own_sample(verifier_url: str) -> None:
    good = verl.compute_score_async(
        data_source="m", solution_str="\\boxed{1}", ground_truth="1", base_url=verifier_url
    )
    bad = verl.compute_score_async(
        data_source="m",
        solution_str="x",
        ground_truth='{"domain": "math"}',  # no answer
        base_url=verifier_url,
    )
    results = await asyncio.gather(good, bad, return_exceptions=True)
    assert results[0] == {
        "score": 1.0,
        "passed": 1.0,
        "failed": 0.0,
        "timed_out": 0.0,
        "verifier_error": 0.0,
    }
    assert isinstance(results[1], ConfigurationError)
