"""IfevalVerifier: judge a batch of instruction-following items, in order, off the event loop.

Short responses (most of them) are judged together on one thread, each with its own deadline
checked between checks. Long ones go to a killable process pool (the math domain's), one task
each, killed at the deadline: Punkt over a megabyte of text takes seconds. A verifier fault on
one item is that item's `error`; the rest of the batch is unaffected.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from rlvr.schemas.common import DomainHealth, Status
from rlvr.schemas.ifeval import IfevalItem, IfevalResult
from rlvr.verifier.domains.batching import Admission, every_result, item_result, item_timeout_s
from rlvr.verifier.domains.ifeval.config import IfevalSettings
from rlvr.verifier.domains.ifeval.judge import Judgement, judge
from rlvr.verifier.domains.ifeval.language import warm_up
from rlvr.verifier.domains.ifeval.registry import MODEL_BACKED
from rlvr.verifier.domains.ifeval.text import count_sentences
from rlvr.verifier.domains.math.workers import WorkerPool, preload_in_forkserver

log = logging.getLogger(__name__)

_JUDGE_MODULE = "rlvr.verifier.domains.ifeval.worker"
preload_in_forkserver(_JUDGE_MODULE)  # before any pool starts the process's forkserver


def score_of(item: IfevalItem, judgement: Judgement) -> float:
    total = len(item.constraints)
    if item.scoring == "all":
        return float(judgement.met == total)
    return judgement.met / total


def detail_of(item: IfevalItem, judgement: Judgement) -> str:
    if judgement.refused is not None:
        return judgement.refused
    total = len(item.constraints)
    unmet = [f"{c.id}: {c.why}" for c in judgement.constraints if not c.met]
    head = f"{judgement.met} of {total} constraints met"
    return head if not unmet else f"{head}; not met: " + "; ".join(unmet)


def result_of(
    item: IfevalItem, judgement: Judgement, timeout_s: float, elapsed_s: float
) -> IfevalResult:
    """The item's result from its judgement (pure)."""
    if judgement.is_timed_out:
        done, total = len(judgement.constraints), len(item.constraints)
        detail = f"timed out after {timeout_s:g} s ({done} of {total} constraints judged)"
        return item_result(
            IfevalResult,
            item.id,
            Status.timed_out,
            detail,
            elapsed_s,
            constraints=judgement.constraints,
        )
    status = Status.passed if judgement.met == len(item.constraints) else Status.failed
    return item_result(
        IfevalResult,
        item.id,
        status,
        detail_of(item, judgement),
        elapsed_s,
        score=score_of(item, judgement),
        constraints=judgement.constraints,
    )


def error_result(item: IfevalItem, message: str, elapsed_s: float) -> IfevalResult:
    return item_result(IfevalResult, item.id, Status.error, message, elapsed_s, constraints=[])


def judge_timed(item: IfevalItem, timeout_s: float) -> Judgement:
    """`judge` with a deadline `timeout_s` from now. NLTK's own regex guard raises
    `TimeoutError` on a pathological match: that is the item's time-out too."""
    try:
        return judge(item, time.perf_counter() + timeout_s)
    except TimeoutError:
        return Judgement([], is_timed_out=True)


def judge_in_worker(item: IfevalItem, timeout_s: float) -> tuple[Judgement, float]:
    """`judge_timed` and the seconds it took (the worker's time, not the wait for a worker)."""
    started = time.perf_counter()
    judgement = judge_timed(item, timeout_s)
    return judgement, time.perf_counter() - started


class IfevalVerifier:
    #: The inline limit for items with a model-backed check (see `_is_inline`).
    model_inline_max_chars = 5_000

    def __init__(self, settings: IfevalSettings, pool: WorkerPool) -> None:
        self.settings = settings
        self.pool = pool
        self.admission = Admission(
            "ifeval", settings.max_queue_items, "max_queue_items", settings.retry_after_s
        )
        self.inline_items = 0
        self.pooled_items = 0

    async def verify_batch(self, items: Sequence[IfevalItem]) -> list[IfevalResult]:
        async with self.admission.admit(len(items)):  # Overloaded -> 503 for the whole batch
            return await self._verify_admitted(items)

    async def _verify_admitted(self, items: Sequence[IfevalItem]) -> list[IfevalResult]:
        inline = [i for i, item in enumerate(items) if self._is_inline(item)]
        pooled = [i for i, item in enumerate(items) if not self._is_inline(item)]
        self.inline_items += len(inline)
        self.pooled_items += len(pooled)
        stop = threading.Event()  # a cancelled batch stops its thread at the next item
        inline_run = asyncio.to_thread(self._judge_inline, [items[i] for i in inline], stop)
        try:
            inline_results = await asyncio.gather(
                inline_run, *(self._judge_in_pool(items[i]) for i in pooled)
            )
        finally:
            stop.set()
        judged_inline: list[IfevalResult] = inline_results[0]  # type: ignore[assignment]
        pooled_results: list[IfevalResult] = inline_results[1:]  # type: ignore[assignment]
        results: list[IfevalResult | None] = [None] * len(items)
        for index, result in zip(inline, judged_inline, strict=True):
            results[index] = result
        for index, result in zip(pooled, pooled_results, strict=True):
            results[index] = result
        return every_result(results, "ifeval batch")

    def _is_inline(self, item: IfevalItem) -> bool:
        """Short enough to judge on the service's thread: `inline_max_chars`, or the lower
        `model_inline_max_chars` when a check runs a model over the text (Punkt, NLTK word
        tokens, langdetect: linear, but up to ~0.1 ms a character on hostile text such as
        one-emoji sentences), so such an item's deadline holds by a kill."""
        size = len(item.response)
        if size > self.settings.inline_max_chars:
            return False
        if size <= self.model_inline_max_chars:
            return True
        return not any(c.id in MODEL_BACKED for c in item.constraints)

    def _judge_inline(
        self, items: Sequence[IfevalItem], stop: threading.Event
    ) -> list[IfevalResult]:
        results = []
        for item in items:
            if stop.is_set():
                break
            started = time.perf_counter()
            timeout_s = item_timeout_s(item.timeout_s, self.settings)
            try:
                judgement = judge_timed(item, timeout_s)
            except Exception as exc:  # our bug: this item's error, never the batch's
                log.exception("ifeval check raised")
                message = f"verifier error: {type(exc).__name__}: {exc}"[:300]
                results.append(error_result(item, message, time.perf_counter() - started))
                continue
            results.append(result_of(item, judgement, timeout_s, time.perf_counter() - started))
        return results

    async def _judge_in_pool(self, item: IfevalItem) -> IfevalResult:
        timeout_s = item_timeout_s(item.timeout_s, self.settings)
        # the kill is the backstop: the judge itself stops between checks at the deadline
        outcome = await self.pool.run(judge_in_worker, (item, timeout_s), timeout_s + 1.0)
        if outcome.kind == "ok":
            judgement, spent_s = outcome.value
            return result_of(item, judgement, timeout_s, min(spent_s, timeout_s))
        if outcome.kind == "timeout":
            return result_of(item, Judgement([], is_timed_out=True), timeout_s, timeout_s)
        return error_result(item, outcome.message, 0.0)

    def health(self) -> DomainHealth:
        return self.pool.health(
            "ifeval",
            **self.admission.stats(),
            inline_items=self.inline_items,
            pooled_items=self.pooled_items,
        )


def _warm() -> None:
    warm_up()
    count_sentences("Loaded. Ready.")


@asynccontextmanager
async def open_ifeval_verifier(settings: IfevalSettings) -> AsyncIterator[IfevalVerifier]:
    await asyncio.to_thread(_warm)
    pool = WorkerPool(settings.workers, preload=[_JUDGE_MODULE])
    try:
        await asyncio.to_thread(pool.warm_up, _warm, (), 120.0)
        yield IfevalVerifier(settings, pool)
    finally:
        await asyncio.to_thread(pool.close)
