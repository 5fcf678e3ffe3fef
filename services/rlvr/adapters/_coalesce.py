"""Coalesce single-item calls made concurrently into batch calls (for per-sample reward APIs).

verl's reward loop awaits one `compute_score_async` per sample, hundreds at once; sending each
as its own request would pay the per-request cost hundreds of times. A `Coalescer` holds items
for at most `window_s` (or until `max_items` wait) and sends them as one batch.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Coalescer(Generic[T, R]):
    """Batches `submit(item)` calls of one event loop into `call(items)`; results in order.

    A failed batch call fails every caller in that batch with the same exception, so callers
    should validate their own item before submitting it.
    """

    def __init__(
        self,
        call: Callable[[list[T]], Awaitable[Sequence[R]]],
        window_s: float = 0.005,
        max_items: int = 1024,
    ) -> None:
        self._call = call
        self._window_s = window_s
        self._max_items = max_items
        self._pending: list[tuple[T, asyncio.Future[R]]] = []
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.batches_sent = 0

    async def submit(self, item: T) -> R:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = loop.create_future()
        self._pending.append((item, future))
        if len(self._pending) >= self._max_items:
            self._flush()
        elif self._timer is None:
            self._timer = loop.call_later(self._window_s, self._flush)
        return await future

    def _flush(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        batch, self._pending = self._pending, []
        if batch:
            self.batches_sent += 1
            task = asyncio.get_running_loop().create_task(self._run(batch))
            self._tasks.add(task)  # keep a reference until it finishes
            task.add_done_callback(self._tasks.discard)

    async def _run(self, batch: list[tuple[T, asyncio.Future[R]]]) -> None:
        try:
            results = await self._call([item for item, _ in batch])
            if len(results) != len(batch):
                raise RuntimeError(f"batch of {len(batch)} got {len(results)} results")
        except BaseException as exc:  # every waiting caller must hear about it
            for _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
            return
        for (_, future), result in zip(batch, results, strict=True):
            if not future.done():
                future.set_result(result)
