"""InlineVerifier: a domain whose judge is a pure function of microseconds, run off the loop.

`/choice` and `/answer` judge an item by reading text, with no SymPy and nothing that can run
long, so a worker pool would cost more than the work: one thread hop per batch keeps the event
loop free. An exception raised by the judge for one item is the verifier's own fault, so it
becomes that item's `error` verdict (and a log line), never the batch's failure.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import Generic, Protocol, TypeVar

from rlvr.schemas.common import DomainHealth, ItemResult, Status
from rlvr.verifier.domains.batching import Admission, item_result

log = logging.getLogger(__name__)


class Identified(Protocol):
    @property
    def id(self) -> str | None: ...


ItemT = TypeVar("ItemT", bound=Identified)
ResultT = TypeVar("ResultT", bound=ItemResult)


class QueueSettings(Protocol):
    max_queue_items: int
    retry_after_s: int


class InlineVerifier(Generic[ItemT, ResultT]):
    """Admission (503 past `max_queue_items`), the batch judged in one worker thread, stats."""

    def __init__(
        self,
        domain: str,
        settings: QueueSettings,
        judge: Callable[[ItemT], ResultT],
        result_type: type[ResultT],
    ) -> None:
        self.domain = domain
        self.settings = settings
        self.judge = judge
        self.result_type = result_type
        self.admission = Admission(
            domain, settings.max_queue_items, "max_queue_items", settings.retry_after_s
        )
        self.judged_items = 0

    def judge_guarded(self, item: ItemT) -> ResultT:
        """One item's verdict; the judge's own exception is this item's `error`, logged."""
        started = time.perf_counter()
        try:
            return self.judge(item)
        except Exception:
            log.exception("%s: the judge failed on item %r", self.domain, item.id)
            return item_result(
                self.result_type,
                item.id,
                Status.error,
                f"internal error in the {self.domain} verifier (logged); not the response's fault",
                time.perf_counter() - started,
            )

    async def verify_batch(self, items: Sequence[ItemT]) -> list[ResultT]:
        async with self.admission.admit(len(items)):  # Overloaded -> 503 for the whole batch
            results = await asyncio.to_thread(lambda: [self.judge_guarded(i) for i in items])
        self.judged_items += len(items)
        return results

    def health(self) -> DomainHealth:
        return DomainHealth(
            ok=True, stats={**self.admission.stats(), "judged_items": self.judged_items}
        )
