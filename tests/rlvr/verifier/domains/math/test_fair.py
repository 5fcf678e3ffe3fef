"""`FairShare`: the workers' places go to the least-served batch; cancelling gives them back."""

from __future__ import annotations

import asyncio

from rlvr.verifier.domains.math.fair import FairShare


class _Clock:
    """A clock the test moves: each turn's cost is what the test says, not the machine's."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def _served_order(share: FairShare, items: list[tuple[str, float]]) -> list[str]:
    """Every item queues at once, in the order given; each turn costs its item's seconds."""
    order: list[str] = []

    async def item(batch: str, cost_s: float) -> None:
        async with share.turn(batch) as turn:
            order.append(batch)
            turn.cost_s = cost_s
            await asyncio.sleep(0)

    await asyncio.gather(*(item(batch, cost_s) for batch, cost_s in items))
    return order


async def test_a_cheap_batch_goes_before_the_next_item_of_a_costly_one() -> None:
    """Issue 27: the workers' time, not the items, is shared: a request of honest items is not
    served one item per slow item of the others."""
    share = FairShare(1, clock=_Clock())
    order = await _served_order(share, [("slow", 2.0)] * 4 + [("honest", 0.01)] * 3)
    # the slow batch's first item took the free place; then it has been served 2 s, the
    # honest batch nothing, and each honest item costs less than the next slow one
    assert order == ["slow", "honest", "honest", "honest", "slow", "slow", "slow"]


async def test_batches_of_like_cost_alternate() -> None:
    share = FairShare(1, clock=_Clock())
    order = await _served_order(share, [("a", 1.0)] * 4 + [("b", 1.0)] * 4)
    assert order == ["a", "b"] * 4


async def test_a_newcomer_starts_level_with_the_least_served_batch() -> None:
    """A batch joining late takes its share from then on; it does not get the seconds the
    batches already there had used (which would hold them off for that long)."""
    share = FairShare(1, clock=_Clock())
    with share.batch() as old:
        for _ in range(10):  # 10 s served alone
            async with share.turn(old) as turn:
                turn.cost_s = 1.0
        assert share.served_s(old) == 10.0
        order: list[str] = []

        async def item(batch: object, name: str) -> None:
            async with share.turn(batch) as turn:
                order.append(name)
                turn.cost_s = 1.0
                await asyncio.sleep(0)

        await asyncio.gather(
            *(item(old, "old") for _ in range(3)), *(item("new", "new") for _ in range(3))
        )
    assert order == ["old", "new", "old", "new", "old", "new"]
    assert share.served_s(old) == 0.0  # closed: no longer counted


async def test_a_turn_of_several_places_is_not_passed_over_for_smaller_ones() -> None:
    share = FairShare(2, clock=_Clock())
    release = asyncio.Event()
    granted: list[str] = []

    async def hold(batch: str, places: int, until: asyncio.Event | None = None) -> None:
        async with share.turn(batch, places):
            granted.append(batch)
            if until is not None:
                await until.wait()

    holder = asyncio.create_task(hold("a", 1, release))
    await asyncio.sleep(0)
    large = asyncio.create_task(hold("b", 2))  # one place free: it waits for the second
    await asyncio.sleep(0)
    small = asyncio.create_task(hold("c", 1))  # would fit, but b asked first at its level
    await asyncio.sleep(0)
    assert granted == ["a"] and share.waiting_items == 2
    release.set()
    await asyncio.gather(holder, large, small)
    assert granted == ["a", "b", "c"]


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
