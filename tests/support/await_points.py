"""Cancel a batch at its n-th await point, counted over every task the batch starts.

How the admission tests show that no await point can lose a queue place: the batch runs as a
real task (real cancellation semantics); a task factory wraps each task created inside the batch
(gather's, wait_for's, the domain's own) so that every suspension of any of them is counted, and
at the n-th one the batch's task is cancelled, as a client hanging up then would cancel it.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable, Coroutine, Generator
from typing import Any

_BATCH: contextvars.ContextVar[_Suspensions | None] = contextvars.ContextVar(
    "await_points_batch", default=None
)


class _Suspensions:
    """The suspensions of one batch's tasks; cancels the batch at suspension `cancel_at`."""

    def __init__(self, cancel_at: int) -> None:
        self.cancel_at = cancel_at
        self.count = 0
        self.batch: asyncio.Future[Any] | None = None

    def suspended(self) -> None:
        self.count += 1
        if self.count == self.cancel_at and self.batch is not None:
            self.batch.cancel()


class _Counted(Coroutine[Any, Any, Any]):
    """The task's coroutine, wrapped: every time it suspends (yields a future to its task, or
    yields to the loop) is counted. Sent and thrown into exactly as the task would, so a task
    cancelled before its first step closes the coroutine unstarted, as without the wrapper."""

    def __init__(self, coro: Coroutine[Any, Any, Any], suspensions: _Suspensions) -> None:
        self._coro = coro
        self._suspensions = suspensions

    def send(self, value: Any) -> Any:
        yielded = self._coro.send(value)  # StopIteration (its result) propagates to the task
        self._suspensions.suspended()
        return yielded

    def throw(self, typ: Any, val: Any = None, tb: Any = None) -> Any:
        yielded = self._coro.throw(typ, val, tb) if val is not None else self._coro.throw(typ)
        self._suspensions.suspended()
        return yielded

    def close(self) -> None:
        self._coro.close()

    def __await__(self) -> Generator[Any, Any, Any]:
        return (yield from self._coro.__await__())


def _task_factory(
    loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any], **kwargs: Any
) -> asyncio.Task[Any]:
    suspensions = _BATCH.get()  # the creator's context: set only inside a batch's tasks
    if suspensions is not None:
        coro = _Counted(coro, suspensions)
    return asyncio.Task(coro, loop=loop, **kwargs)


async def run_cancelled_at(make_batch: Callable[[], Awaitable[Any]], cancel_at: int) -> bool:
    """Run a fresh batch, cancelling it at its `cancel_at`-th await point (0: before its first
    step). True when it was cancelled, False when it finished before reaching that point."""
    loop = asyncio.get_running_loop()
    suspensions = _Suspensions(cancel_at)
    previous = loop.get_task_factory()
    loop.set_task_factory(_task_factory)  # type: ignore[arg-type]
    try:
        token = _BATCH.set(suspensions)
        try:
            batch = asyncio.ensure_future(make_batch())
        finally:
            _BATCH.reset(token)
        suspensions.batch = batch
        if cancel_at == 0:
            batch.cancel()
        try:
            await batch
        except asyncio.CancelledError:
            if not batch.cancelled():
                raise  # this test itself was cancelled
            return True
        return False
    finally:
        loop.set_task_factory(previous)


async def cancel_at_every_await_point(
    make_batch: Callable[[], Awaitable[Any]],
    in_flight: Callable[[], int],
    max_points: int = 5000,
) -> int:
    """Cancel a fresh batch before its first step, then at its await point 1, 2, ... until one
    finishes first; after every cancellation no queue place may still be taken. Returns the
    number of await points the batch had (each one was cancelled at)."""
    for point in range(max_points):
        cancelled = await run_cancelled_at(make_batch, point)
        held = in_flight()
        assert held == 0, f"a batch cancelled at await point {point} kept {held} queue places"
        if not cancelled:
            return point - 1
    raise AssertionError(f"the batch still had await points after {max_points}")
