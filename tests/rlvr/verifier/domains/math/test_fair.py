"""`FairShare`: the workers' places go round-robin across batches; cancelling gives them back."""

from __future__ import annotations

import asyncio

from rlvr.verifier.domains.math.fair import FairShare


async def _served_order(share: FairShare, batches: dict[str, int]) -> list[str]:
    """Each batch's items queue at once (the big one first); each holds its place briefly."""
    order: list[str] = []

    async def item(batch: str) -> None:
        async with share.turn(batch):
            order.append(batch)
            await asyncio.sleep(0.001)

    tasks = [asyncio.create_task(item(b)) for b, n in batches.items() for _ in range(n)]
    await asyncio.gather(*tasks)
    return order


async def test_a_small_batch_is_served_between_the_items_of_a_big_one() -> None:
    order = await _served_order(FairShare(1), {"big": 50, "small": 3})
    # the big batch's first item took the free place; then the two alternate
    assert order[:7] == ["big", "big", "small", "big", "small", "big", "small"]
    assert order.count("big") == 50


async def test_no_more_holders_than_places() -> None:
    share = FairShare(2)
    holding = 0
    most = 0

    async def item(batch: int) -> None:
        nonlocal holding, most
        async with share.turn(batch):
            holding += 1
            most = max(most, holding)
            await asyncio.sleep(0.001)
            holding -= 1

    await asyncio.gather(*(item(i % 3) for i in range(30)))
    assert most == 2
    assert share.waiting_items == 0 and share.waiting_batches == 0


async def test_a_cancelled_waiter_leaves_the_queue_and_its_place_goes_on() -> None:
    share = FairShare(1)
    release = asyncio.Event()

    async def holder() -> None:
        async with share.turn("a"):
            await release.wait()

    first = asyncio.create_task(holder())
    await asyncio.sleep(0)
    waiter = asyncio.create_task(holder())
    await asyncio.sleep(0)
    assert share.waiting_items == 1
    waiter.cancel()
    await asyncio.sleep(0)
    assert share.waiting_items == 0
    release.set()
    await first
    async with share.turn("b"):  # the place is free again, not lost to the cancelled waiter
        pass
