"""A math batch whose slot is left empty fails loudly (`MissingResultError`) instead of
answering with fewer results than items: the gap is made here by a result builder that loses
one item, the bug the check exists for."""

from __future__ import annotations

from typing import Any, cast

import pytest

from rlvr.schemas.math import MathItem, MathResult
from rlvr.verifier.domains.batching import MissingResultError
from rlvr.verifier.domains.math import verifier as math_verifier
from rlvr.verifier.domains.math.config import MathSettings
from rlvr.verifier.domains.math.workers import WorkerPool

ITEMS = [
    MathItem(id=name, response=f"so \\boxed{{{value}}}", answer="4")
    for name, value in (("right", 4), ("lost", 4), ("wrong", 5))
]


def fast_path_only() -> math_verifier.MathVerifier:
    """Every item here is decided in-process (plain numbers): the pool is never reached."""
    return math_verifier.MathVerifier(MathSettings(), cast(WorkerPool, None))


async def test_a_batch_of_fast_items_gets_one_result_per_item() -> None:
    results = await fast_path_only().verify_batch(ITEMS)
    assert [(r.id, r.status.value, r.reward) for r in results] == [
        ("right", "passed", 1.0),
        ("lost", "passed", 1.0),
        ("wrong", "failed", 0.0),
    ]


async def test_an_item_left_without_a_result_fails_the_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    build = math_verifier._final_result

    def loses_one(item: MathItem, *args: Any) -> MathResult | None:
        return None if item.id == "lost" else build(item, *args)

    monkeypatch.setattr(math_verifier, "_final_result", loses_one)
    with pytest.raises(
        MissingResultError, match=r"math batch: no result for 1 of 3 items \(at 1\)"
    ):
        await fast_path_only().verify_batch(ITEMS)
