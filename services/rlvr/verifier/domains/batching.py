"""What every domain does alike with a batch: admit it, give each item its deadline, build results.

A new domain uses these instead of writing its own: `Admission` (a bounded queue of items
in flight, entered with `async with`, so no path out of a batch can keep its places),
`item_timeout_s` (the item's own deadline or the domain's default, never past the domain's cap),
`item_result` (a result whose reward follows from its status: null exactly for `error`) and
`every_result` (results filled slot by slot, each slot checked: never a shorter list).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol, TypeVar, cast

from rlvr.schemas.common import ItemResult, Status
from rlvr.verifier.errors import Overloaded, PayloadTooLarge

ResultT = TypeVar("ResultT", bound=ItemResult)
NumberT = TypeVar("NumberT", int, float)
SlotT = TypeVar("SlotT")

#: A result's `detail` may quote an exception, a REPL's or a sandbox's output: it is clipped.
MAX_DETAIL_CHARS = 2000


class Admission:
    """A domain's bounded queue: the items of the batches it is working on, at most `max_items`.

    `async with admission.admit(n):` takes `n` places for the body's duration or raises
    `Overloaded` (503 + `Retry-After`) without taking any. A batch larger than the whole queue
    could never be admitted, so it is `PayloadTooLarge` (413, never retried: the client must
    send smaller chunks), not a 503 that a retrying client would wait on until its deadline.
    Places are taken before the first await and given back in the same frame's `finally`, so a
    batch cancelled anywhere (a client hanging up right after admission, before any item's task
    ran) gives back all it took.
    """

    def __init__(self, domain: str, max_items: int, setting: str, retry_after_s: int) -> None:
        self.domain = domain
        self.max_items = max_items
        self.setting = setting  # the setting that bounds it, named in the 503's message
        self.retry_after_s = retry_after_s
        self._in_flight = 0

    @property
    def in_flight(self) -> int:
        return self._in_flight

    @asynccontextmanager
    async def admit(self, count: int) -> AsyncIterator[None]:
        if count > self.max_items:
            raise PayloadTooLarge(
                f"{count} {self.domain} items in one batch, more than its whole queue "
                f"({self.setting}={self.max_items}): send chunks of at most {self.max_items}"
            )
        if self._in_flight + count > self.max_items:
            raise Overloaded(
                f"{self.domain} queue full ({self._in_flight} items in flight, "
                f"{self.setting}={self.max_items})",
                retry_after_s=self.retry_after_s,
            )
        self._in_flight += count
        try:
            yield
        finally:
            self._in_flight -= count

    def stats(self) -> dict[str, int]:
        return {"in_flight_items": self._in_flight, "max_queue_items": self.max_items}


class TimeoutSettings(Protocol):
    """The two settings every domain has for per-item deadlines."""

    default_timeout_s: float
    max_timeout_s: float


def within_cap(requested: NumberT | None, default: NumberT, cap: NumberT) -> NumberT:
    """The item's own value, else the domain's default; never above the domain's cap."""
    return min(default if requested is None else requested, cap)


def item_timeout_s(requested_s: float | None, settings: TimeoutSettings) -> float:
    """An item's effective deadline in seconds (`timeout_s` is validated > 0 on the wire)."""
    return within_cap(requested_s, settings.default_timeout_s, settings.max_timeout_s)


def reward_for(status: Status, score: float | None = None) -> float | None:
    """Null for `error` (the verifier's fault: a trainer must drop the sample, not learn a fake
    zero); else the partial `score` when the domain gives one, 1.0 for `passed`, 0.0 otherwise."""
    if status is Status.error:
        return None
    if score is not None:
        return score
    return 1.0 if status is Status.passed else 0.0


def item_result(
    result_type: type[ResultT],
    item_id: str | None,
    status: Status,
    detail: str,
    elapsed_s: float,
    *,
    score: float | None = None,
    **fields: Any,
) -> ResultT:
    """The one way a domain builds a result: the reward derived from the status, the detail
    clipped and made UTF-8-safe (a lone surrogate would fail the whole response's encoding).

    `model_construct`: every field is built here or by the domain from validated parts, and at
    thousands of items per second re-validating each result is measurable.
    """
    result = result_type.model_construct(
        id=item_id,
        status=status,
        reward=reward_for(status, score),
        detail=detail[:MAX_DETAIL_CHARS].encode("utf-8", "replace").decode("utf-8"),
        elapsed_s=round(elapsed_s, 6),
        **fields,
    )
    return cast(ResultT, result)  # pydantic types `model_construct` as the base's Self


class MissingResultError(RuntimeError):
    """A batch left an item without a result: the verifier's own bug, so the request fails (a
    500) instead of answering with fewer results than items, which would misalign every id after
    the gap and hand a trainer rewards for the wrong samples."""


def every_result(slots: Sequence[SlotT | None], batch: str) -> list[SlotT]:
    """The results of a batch that fills one slot per item, in input order, each one checked."""
    missing = [index for index, slot in enumerate(slots) if slot is None]
    if missing:
        shown = ", ".join(map(str, missing[:10])) + (", ..." if len(missing) > 10 else "")
        raise MissingResultError(
            f"{batch}: no result for {len(missing)} of {len(slots)} items (at {shown})"
        )
    return cast(list[SlotT], list(slots))
