"""The shared batching module: admission, per-item deadlines, results; and the await-point tool
the domains' admission tests use (shown here to catch a leak when there is one)."""

from __future__ import annotations

import asyncio

import pytest

from rlvr.schemas.code import CodeResult
from rlvr.schemas.common import ItemResult, Status
from rlvr.schemas.lean import LeanResult
from rlvr.schemas.math import MathResult
from rlvr.verifier.domains.batching import (
    MAX_DETAIL_CHARS,
    Admission,
    MissingResultError,
    every_result,
    item_result,
    item_timeout_s,
    reward_for,
    within_cap,
)
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.lean.config import LeanSettings
from rlvr.verifier.domains.math.config import MathSettings
from rlvr.verifier.errors import Overloaded, PayloadTooLarge
from tests.support.await_points import cancel_at_every_await_point


async def test_admission_refuses_a_batch_that_would_overfill_it_and_takes_no_place() -> None:
    admission = Admission("demo", 3, "max_queue_items", retry_after_s=4)
    async with admission.admit(2):
        assert admission.in_flight == 2
        with pytest.raises(Overloaded) as caught:
            async with admission.admit(2):
                pytest.fail("admitted past the bound")
        assert admission.in_flight == 2
        async with admission.admit(1):
            assert admission.stats() == {"in_flight_items": 3, "max_queue_items": 3}
    assert admission.in_flight == 0
    assert caught.value.status_code == 503
    assert caught.value.headers() == {"Retry-After": "4"}
    assert caught.value.message == "demo queue full (2 items in flight, max_queue_items=3)"


async def test_a_batch_larger_than_the_whole_queue_is_413_not_a_503_to_retry_forever() -> None:
    admission = Admission("demo", 3, "max_queue_items", retry_after_s=4)
    with pytest.raises(PayloadTooLarge) as caught:
        async with admission.admit(4):
            pytest.fail("admitted past the bound")
    assert admission.in_flight == 0
    assert caught.value.status_code == 413
    assert "at most 3" in caught.value.message
    async with admission.admit(3):  # exactly the bound still fits an empty queue
        assert admission.in_flight == 3


async def test_admission_gives_places_back_when_the_batch_raises_or_is_cancelled() -> None:
    admission = Admission("demo", 2, "max_queue", retry_after_s=1)
    with pytest.raises(RuntimeError):
        async with admission.admit(2):
            raise RuntimeError("a verifier bug")
    started = asyncio.Event()

    async def batch() -> None:
        async with admission.admit(2):
            started.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(batch())
    await started.wait()
    assert admission.in_flight == 2
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert admission.in_flight == 0


async def _leaky_batch(queue: dict[str, int], items: int) -> list[int]:
    """The hand-paired pattern Lean had: places taken for the batch, each given back by its
    item's task. A task cancelled before its first step never gives its place back."""
    queue["taken"] += items

    async def one(number: int) -> int:
        try:
            await asyncio.sleep(0)
            return number
        finally:
            queue["taken"] -= 1

    return list(await asyncio.gather(*(one(n) for n in range(items))))


async def test_cancelling_at_every_await_point_catches_a_leaking_admission() -> None:
    queue = {"taken": 0}
    with pytest.raises(AssertionError, match="kept 2 queue places"):
        await cancel_at_every_await_point(lambda: _leaky_batch(queue, 2), lambda: queue["taken"])


async def test_cancelling_at_every_await_point_covers_every_task_of_the_batch() -> None:
    admission = Admission("demo", 4, "max_queue_items", retry_after_s=1)
    steps: list[int] = []

    async def item(number: int) -> int:
        for _ in range(3):
            await asyncio.sleep(0)
        steps.append(number)
        return number

    async def batch() -> list[int]:
        async with admission.admit(4):
            return list(await asyncio.gather(*(item(n) for n in range(4))))

    points = await cancel_at_every_await_point(batch, lambda: admission.in_flight)
    # one suspension of the batch (gather) and three of each of the four items' tasks
    assert points == 1 + 4 * 3
    assert steps[-4:] == [0, 1, 2, 3]


def test_deadline_is_the_items_own_else_the_default_never_past_the_cap() -> None:
    for settings in (MathSettings(), LeanSettings(), CodeSettings()):
        default_s, cap_s = settings.default_timeout_s, settings.max_timeout_s
        assert item_timeout_s(None, settings) == default_s
        assert item_timeout_s(cap_s / 2, settings) == cap_s / 2
        assert item_timeout_s(cap_s * 10, settings) == cap_s
    assert within_cap(None, 512, 896) == 512
    assert within_cap(2048, 512, 896) == 896


@pytest.mark.parametrize(
    ("status", "score", "reward"),
    [
        (Status.passed, None, 1.0),
        (Status.failed, None, 0.0),
        (Status.timed_out, None, 0.0),
        (Status.error, None, None),
        (Status.failed, 0.25, 0.25),
        (Status.timed_out, 0.5, 0.5),
        (Status.error, 0.75, None),  # the verifier's fault never pays, whatever was scored
    ],
)
def test_reward_follows_from_the_status(
    status: Status, score: float | None, reward: float | None
) -> None:
    assert reward_for(status, score) == reward


@pytest.mark.parametrize("result_type", [MathResult, CodeResult, LeanResult])
@pytest.mark.parametrize("status", list(Status))
def test_every_result_the_factory_builds_is_valid_on_the_wire(
    result_type: type[ItemResult], status: Status
) -> None:
    result = item_result(result_type, "i-1", status, "why", 0.1234567891)
    assert type(result) is result_type
    assert result.reward == (None if status is Status.error else result.reward)
    assert result.elapsed_s == 0.123457
    again = result_type.model_validate(result.model_dump())  # the reward/status rule holds
    assert again == result


def test_result_detail_is_clipped_and_safe_to_encode() -> None:
    hostile = "\ud800" + "x" * (MAX_DETAIL_CHARS * 2)
    result = item_result(CodeResult, None, Status.error, hostile, 0.0)
    assert len(result.detail) == MAX_DETAIL_CHARS
    result.model_dump_json()  # a lone surrogate would raise here
    assert result.detail.startswith("?x")


def test_every_result_keeps_a_full_batch_in_input_order() -> None:
    results = [item_result(MathResult, str(i), Status.passed, "ok", 0.0) for i in range(3)]
    assert every_result(list(results), "math batch") == results


def test_a_slot_left_empty_fails_the_batch_naming_where_not_a_shorter_list() -> None:
    """The filter it replaces returned 2 results for 3 items: every id after the gap shifted."""
    done = item_result(MathResult, "a", Status.passed, "ok", 0.0)
    with pytest.raises(
        MissingResultError, match=r"math batch: no result for 1 of 3 items \(at 1\)"
    ):
        every_result([done, None, done], "math batch")
    with pytest.raises(
        MissingResultError, match=r"no result for 12 of 12 items \(at 0, .*9, \.\.\.\)"
    ):
        every_result([None] * 12, "mixed batch")
