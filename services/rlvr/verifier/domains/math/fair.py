"""Fair shares of the SymPy workers across concurrent batches: round-robin, one slot at a time.

The pool (pebble) runs its tasks first in, first out: a client's batch of 5,000 slow items
queued there ahead of another client's batch of 4 would make the small one wait for all of
them. So only a few tasks per worker (`slots`; the verifier uses four per worker) are handed to
the pool at once, and a free place goes to the batches waiting for one in turn: the head item
of the next batch in the rotation, after which that batch goes to the back. A batch that
arrives waits for the tasks already handed over and at most one item of each batch ahead of
it, whatever their sizes; within a batch, items keep their order.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager, suppress


class FairShare:
    """`async with share.turn(batch):` holds one of `slots` places while the body runs."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._free = slots
        # batches with items waiting, in the order they are served next
        self._waiting: OrderedDict[Hashable, deque[asyncio.Future[None]]] = OrderedDict()

    @property
    def waiting_batches(self) -> int:
        return len(self._waiting)

    @property
    def waiting_items(self) -> int:
        return sum(len(queue) for queue in self._waiting.values())

    @asynccontextmanager
    async def turn(self, batch: Hashable) -> AsyncIterator[None]:
        await self._acquire(batch)
        try:
            yield
        finally:
            self._release()

    async def _acquire(self, batch: Hashable) -> None:
        if self._free > 0 and not self._waiting:
            self._free -= 1
            return
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(batch, deque()).append(granted)
        try:
            await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():
                self._release()  # granted just as it was cancelled: pass the place on
            else:
                self._forget(batch, granted)
            raise

    def _forget(self, batch: Hashable, granted: asyncio.Future[None]) -> None:
        queue = self._waiting.get(batch)
        if queue is None:
            return
        with suppress(ValueError):
            queue.remove(granted)
        if not queue:
            del self._waiting[batch]

    def _release(self) -> None:
        self._free += 1
        while self._free > 0 and self._waiting:
            batch, queue = next(iter(self._waiting.items()))
            granted = queue.popleft()
            if queue:
                self._waiting.move_to_end(batch)  # its next item waits for the others' turns
            else:
                del self._waiting[batch]
            if not granted.done():
                granted.set_result(None)
                self._free -= 1
