"""`/verify` fans a mixed batch out by domain and puts the results back in input order; an item
no domain answered fails the request loudly (`MissingResultError`, a 500) instead of a response
shorter than the request. The gap is made here by a grouping that drops one item."""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from rlvr.schemas.common import Status
from rlvr.schemas.math import MathItem, MathResult
from rlvr.schemas.verify import VERIFY_ITEM_ADAPTER, VerifyItem
from rlvr.verifier.api.routes import verify as route
from rlvr.verifier.domains.batching import MissingResultError, item_result


class EchoMath:
    """A math verifier that passes every item (the route's ordering is under test, not math)."""

    async def verify_batch(self, items: Sequence[MathItem]) -> list[MathResult]:
        return [item_result(MathResult, item.id, Status.passed, "ok", 0.0) for item in items]


class NoMetrics:
    def defer_batch(self, *args: Any) -> None:
        pass


def request() -> Any:
    return SimpleNamespace(
        app=SimpleNamespace(state=SimpleNamespace(verifiers={"math": EchoMath()})),
        scope={"state": {}},
    )


ITEMS: list[VerifyItem] = [
    VERIFY_ITEM_ADAPTER.validate_python(
        {"domain": "math", "id": str(i), "response": "\\boxed{1}", "answer": "1"}
    )
    for i in range(3)
]


async def test_results_come_back_one_per_item_in_input_order() -> None:
    results = await route.verify_mixed(request(), ITEMS, NoMetrics())  # type: ignore[arg-type]
    assert [(r.id, r.domain, r.status.value) for r in results] == [
        ("0", "math", "passed"),
        ("1", "math", "passed"),
        ("2", "math", "passed"),
    ]


async def test_an_item_no_domain_answered_fails_the_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def drops_the_last(items: Sequence[VerifyItem]) -> dict[str, list[int]]:
        return {"math": list(range(len(items) - 1))}

    monkeypatch.setattr(route, "group_by_domain", drops_the_last)
    with pytest.raises(
        MissingResultError, match=r"mixed batch: no result for 1 of 3 items \(at 2\)"
    ):
        await route.verify_mixed(request(), ITEMS, NoMetrics())  # type: ignore[arg-type]


def test_openrlhf_samples_get_their_own_results_and_mismatches_their_error() -> None:
    results = [item_result(MathResult, str(i), Status.passed, "ok", 0.0) for i in range(2)]
    joined = route.rejoined([ITEMS[0], None, ITEMS[1]], results)
    assert [r.id for r in joined] == ["0", None, "1"]
    assert joined[1].status is Status.error and "prompt" in joined[1].detail


@pytest.mark.parametrize("answered", [1, 3])
def test_openrlhf_results_that_do_not_match_the_samples_fail_the_request(answered: int) -> None:
    results = [item_result(MathResult, str(i), Status.passed, "ok", 0.0) for i in range(answered)]
    with pytest.raises(MissingResultError, match=f"openrlhf batch: {answered} results for 2 items"):
        route.rejoined([ITEMS[0], None, ITEMS[1]], results)
