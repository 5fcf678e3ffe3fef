"""Fair shares of the SymPy workers across concurrent batches: the least-served batch goes first.

The pool (pebble) runs its tasks first in, first out: a client's batch of 5,000 slow items
queued there ahead of another client's batch of 4 would make the small one wait for all of
them. So only a few tasks per worker (`slots`; the verifier uses four per worker) are handed to
the pool at once, and a free place goes to the waiting batch that has been served the fewest
seconds of worker time so far (what each of its finished turns cost: the seconds its task ran,
as the caller reports it, else the seconds the turn held its places); within a batch, items
keep their order. Counting seconds, not items, puts what an answer costs on its own request: a
request of slow wrong answers is charged seconds per item, a request of honest items
milliseconds, so the honest one is served before every next slow item instead of one item in
turn (issue 27: honest items waited 30-66 s behind two requests of slow ones). Batches of like
cost still alternate.

A turn may take several places (`turn(batch, places)`): a task expected to run long takes a
worker's whole share, so such tasks never queue in the pool ahead of another batch's next one.
A batch joining while others are served starts level with the least-served of them, not at
zero: it takes its share from then on, and cannot hold off batches that were there before it
for the seconds they had already used. A batch is counted while it waits or holds a place, or
for as long as it is open (`batch()`): an item between its two attempts keeps its batch's count.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Hashable, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass, field


class Turn:
    """One held turn; the body sets `cost_s` to the worker time its task used (else the turn
    is charged the seconds it held its places)."""

    __slots__ = ("cost_s",)

    def __init__(self) -> None:
        self.cost_s: float | None = None


@dataclass(slots=True)
class _Account:
    """What one batch has had of the workers, and what it waits for."""

    served_s: float  # the cost of its finished turns (from the level it started at)
    turns: int = 0  # its finished turns
    holding: int = 0  # turns it holds now
    last_served: float = 0.0  # when it last took a turn (ties go to the longest unserved)
    # its items waiting for places, each with the number of places it asks for
    waiting: deque[tuple[asyncio.Future[float], int]] = field(default_factory=deque)
    level_s: float = 0.0  # the level it started at (not its own cost)


class FairShare:
    """`async with share.turn(batch, places) as turn:` holds `places` of `slots` while the body
    runs, and charges the batch `turn.cost_s`."""

    def __init__(self, slots: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.slots = slots
        self._free = slots
        self._clock = clock
        self._accounts: dict[Hashable, _Account] = {}
        self._open: set[Hashable] = set()  # batches kept counted while idle (`batch()`)
        self._waiting = 0  # items waiting, all batches together (checked on every acquire)

    @property
    def waiting_batches(self) -> int:
        return sum(1 for account in self._accounts.values() if account.waiting)

    @property
    def waiting_items(self) -> int:
        return self._waiting

    def served_s(self, batch: Hashable) -> float:
        """Seconds the batch has been charged so far (0 for one not counted now)."""
        account = self._accounts.get(batch)
        return 0.0 if account is None else account.served_s

    def mean_cost_s(self, batch: Hashable) -> float | None:
        """What the batch's finished turns cost on average (None before its first)."""
        account = self._accounts.get(batch)
        if account is None or not account.turns:
            return None
        return (account.served_s - account.level_s) / account.turns

    def holding(self, batch: Hashable) -> int:
        """How many turns the batch holds now."""
        account = self._accounts.get(batch)
        return 0 if account is None else account.holding

    @contextmanager
    def batch(self) -> Iterator[Hashable]:
        """A new batch, counted until the block ends (even while none of its items waits)."""
        batch = object()
        self._open.add(batch)
        try:
            yield batch
        finally:
            self._open.discard(batch)
            self._forget_if_idle(batch)

    @asynccontextmanager
    async def turn(self, batch: Hashable, places: int = 1) -> AsyncIterator[Turn]:
        """Hold `places` (at least one, at most all) while the body runs."""
        places = max(1, min(places, self.slots))
        taken_at = await self._acquire(batch, places)
        turn = Turn()
        try:
            yield turn
        finally:
            cost_s = turn.cost_s if turn.cost_s is not None else self._clock() - taken_at
            self._release(batch, places, cost_s)

    async def _acquire(self, batch: Hashable, places: int) -> float:
        account = self._account(batch)
        if self._free >= places and not self._waiting:
            return self._grant(account, places)
        granted: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        entry = (granted, places)
        account.waiting.append(entry)
        self._waiting += 1
        self._dispatch()  # places may be free that the batch chosen first cannot use
        try:
            return await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():
                # granted as it was cancelled: the places go on to the next
                self._release(batch, places, self._clock() - granted.result())
            else:
                with suppress(ValueError):
                    account.waiting.remove(entry)
                    self._waiting -= 1
                self._forget_if_idle(batch)
                self._dispatch()  # a large ask that held the others back may be gone
            raise

    def _account(self, batch: Hashable) -> _Account:
        account = self._accounts.get(batch)
        if account is None:
            # level with the least-served batch counted now (zero when there is none)
            level = min((a.served_s for a in self._accounts.values()), default=0.0)
            # never served yet: it goes first among batches of its level
            account = _Account(served_s=level, level_s=level, last_served=float("-inf"))
            self._accounts[batch] = account
        return account

    def _grant(self, account: _Account, places: int) -> float:
        now = self._clock()
        self._free -= places
        account.holding += 1
        account.last_served = now
        return now

    def _release(self, batch: Hashable, places: int, cost_s: float) -> None:
        self._free += places
        account = self._accounts.get(batch)
        if account is not None:
            account.holding -= 1
            account.turns += 1
            account.served_s += max(0.0, cost_s)
        self._dispatch()
        self._forget_if_idle(batch)

    def _dispatch(self) -> None:
        """Free places to the least-served waiting batch, its head item first, while they
        suffice: a head item that asks for more places than are free waits for them (it is
        not passed over for smaller asks, or a long task could wait for ever)."""
        while self._free > 0:
            waiting = [account for account in self._accounts.values() if account.waiting]
            if not waiting:
                return
            chosen = min(waiting, key=lambda a: (a.served_s, a.last_served))
            granted, places = chosen.waiting[0]
            if granted.done():
                chosen.waiting.popleft()  # cancelled: its task is gone
                self._waiting -= 1
                continue
            if places > self._free:
                return
            chosen.waiting.popleft()
            self._waiting -= 1
            granted.set_result(self._grant(chosen, places))

    def _forget_if_idle(self, batch: Hashable) -> None:
        account = self._accounts.get(batch)
        idle = account is not None and not account.holding and not account.waiting
        if idle and batch not in self._open:
            del self._accounts[batch]
