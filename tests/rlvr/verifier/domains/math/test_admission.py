"""`/math`'s bounded queue, with the real killable pool: a batch past the bound is refused whole,
and a batch cancelled at any await point (in any of its tasks) gives back every place."""

from __future__ import annotations

import pytest

from rlvr.schemas.common import Status
from rlvr.schemas.math import MathItem
from rlvr.verifier.domains.math.config import MathSettings
from rlvr.verifier.domains.math.verifier import open_math_verifier
from rlvr.verifier.errors import Overloaded, PayloadTooLarge
from tests.support.await_points import cancel_at_every_await_point

# decided in-process (fast path), by SymPy in a worker, and past a quick attempt in a worker
FAST = MathItem(id="fast", response="\\boxed{4}", answer="4")
SYMPY = MathItem(id="sympy", response="\\boxed{(1+x)^2}", answer="(x+1)^2")
HUGE = MathItem(id="huge", response="\\boxed{10^{10^{10}}}", answer="10^{10^{10}}+1", timeout_s=0.4)


def settings(**overrides: object) -> MathSettings:
    # no cache: every batch takes the same path through the pool
    base: dict[str, object] = {"workers": 1, "cache_size": 0, "quick_attempt_s": 0.2}
    return MathSettings.model_validate({**base, **overrides})


async def test_batch_past_the_queue_bound_is_refused_whole_with_retry_after() -> None:
    async with open_math_verifier(settings(max_queue_items=2, retry_after_s=3)) as verifier:
        with pytest.raises(PayloadTooLarge) as too_large:  # never admissible: not a 503
            await verifier.verify_batch([FAST, SYMPY, FAST])
        assert "max_queue_items=2" in too_large.value.message
        async with verifier.admission.admit(1):  # another batch's item in flight
            with pytest.raises(Overloaded) as caught:
                await verifier.verify_batch([FAST, FAST])
        assert caught.value.headers() == {"Retry-After": "3"}
        assert "max_queue_items=2" in caught.value.message
        assert verifier.health().stats["in_flight_items"] == 0
        results = await verifier.verify_batch([FAST, SYMPY])
    assert [r.status for r in results] == [Status.passed, Status.passed]


async def test_batch_cancelled_at_every_await_point_gives_back_every_place() -> None:
    batch = [FAST, SYMPY, HUGE]
    async with open_math_verifier(settings(max_queue_items=len(batch))) as verifier:
        points = await cancel_at_every_await_point(
            lambda: verifier.verify_batch(batch), lambda: verifier.admission.in_flight
        )
        # the places all came back: a batch of exactly the bound is admitted and judged
        results = await verifier.verify_batch(batch)
        stats = verifier.health().stats
    assert points >= 4  # the judging thread, gather, and each pool attempt at the least
    assert [r.status for r in results] == [Status.passed, Status.passed, Status.timed_out]
    assert stats["in_flight_items"] == 0 and stats["max_queue_items"] == len(batch)
