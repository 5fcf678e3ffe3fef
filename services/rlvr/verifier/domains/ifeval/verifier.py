"""IfevalVerifier: judge a batch of instruction-following items, in order, off the event loop.

Short responses (most of them) are judged on one thread, each with its own deadline checked
between checks. Long ones go to a killable process pool (the math domain's), one task each,
killed at the deadline: Punkt over a megabyte of text takes seconds. A verifier fault on one
item is that item's `error`; the rest of the batch is unaffected.

A big batch's short items are shared with the pool too, or the service would judge them on one
core while the workers idle (langdetect, Punkt and NLTK's word tokenizer cost 0.2-0.9 ms an
item). They are cut into chunks of `share_chunk_items`, one pool task per chunk so that the
pickling and the pipe are paid per chunk, not per item; the thread and each worker take the
next chunk when they are done with one, so the faster side judges more and neither waits on a
fixed split. A batch under `share_min_items` short items stays on the thread: no IPC latency.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from rlvr.schemas.common import DomainHealth, Status
from rlvr.schemas.ifeval import IfevalItem, IfevalResult
from rlvr.verifier.domains.batching import Admission, every_result, item_result, item_timeout_s
from rlvr.verifier.domains.ifeval import verb_start
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


def judge_short(item: IfevalItem, timeout_s: float) -> IfevalResult:
    """A short item's result, judged here (the service's thread, or a worker given a chunk):
    `judge_timed` within its own deadline, a fault in a check this item's `error`."""
    started = time.perf_counter()
    try:
        judgement = judge_timed(item, timeout_s)
    except Exception as exc:  # our bug: this item's error, never the batch's
        log.exception("ifeval check raised")
        message = f"verifier error: {type(exc).__name__}: {exc}"[:300]
        return error_result(item, message, time.perf_counter() - started)
    return result_of(item, judgement, timeout_s, time.perf_counter() - started)


def judge_chunk_in_worker(
    items: Sequence[IfevalItem], timeouts_s: Sequence[float]
) -> list[IfevalResult]:
    """A chunk of short items in a worker, one after another, each with its own deadline."""
    return [judge_short(item, timeout_s) for item, timeout_s in zip(items, timeouts_s, strict=True)]


class IfevalVerifier:
    #: The inline limit for items with a model-backed check (see `_is_inline`).
    model_inline_max_chars = 5_000

    def __init__(self, settings: IfevalSettings, pool: WorkerPool) -> None:
        self.settings = settings
        self.pool = pool
        self.admission = Admission(
            "ifeval", settings.max_queue_items, "max_queue_items", settings.retry_after_s
        )
        self.inline_items = 0  # judged on the service's thread
        self.pooled_items = 0  # long ones, judged in a worker one task each
        self.shared_items = 0  # short ones of a big batch, judged in a worker in chunks

    async def verify_batch(self, items: Sequence[IfevalItem]) -> list[IfevalResult]:
        async with self.admission.admit(len(items)):  # Overloaded -> 503 for the whole batch
            return await self._verify_admitted(items)

    async def _verify_admitted(self, items: Sequence[IfevalItem]) -> list[IfevalResult]:
        short = [i for i, item in enumerate(items) if self._is_inline(item)]
        pooled = [i for i, item in enumerate(items) if not self._is_inline(item)]
        self.pooled_items += len(pooled)
        results: list[IfevalResult | None] = [None] * len(items)
        chunks = self._chunks(short)
        sharers = self.pool.workers if len(chunks) > 1 else 0
        stop = threading.Event()  # a cancelled batch stops its thread at the next item
        try:
            await asyncio.gather(
                asyncio.to_thread(self._judge_chunks_inline, items, chunks, results, stop),
                *(self._share_chunks(items, chunks, results) for _ in range(sharers)),
                *(self._judge_in_pool(items, index, results) for index in pooled),
            )
        finally:
            stop.set()
        return every_result(results, "ifeval batch")

    def _chunks(self, indices: list[int]) -> deque[list[int]]:
        """The short items' indices as the chunks the thread and the pool take from: one chunk
        (all on the thread) under `share_min_items`."""
        if len(indices) < max(self.settings.share_min_items, 2):
            return deque([indices] if indices else [])
        size = self.settings.share_chunk_items
        return deque(indices[start : start + size] for start in range(0, len(indices), size))

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

    def _timeout_s(self, item: IfevalItem) -> float:
        return item_timeout_s(item.timeout_s, self.settings)

    def _judge_chunks_inline(
        self,
        items: Sequence[IfevalItem],
        chunks: deque[list[int]],
        results: list[IfevalResult | None],
        stop: threading.Event,
    ) -> None:
        """Take chunks from the front until none is left (`popleft` is atomic: the pool's
        coroutines take from the back at the same time)."""
        while not stop.is_set():
            try:
                chunk = chunks.popleft()
            except IndexError:
                return
            self.inline_items += len(chunk)
            for index in chunk:
                if stop.is_set():
                    return
                item = items[index]
                results[index] = judge_short(item, self._timeout_s(item))

    async def _share_chunks(
        self,
        items: Sequence[IfevalItem],
        chunks: deque[list[int]],
        results: list[IfevalResult | None],
    ) -> None:
        """One worker's share of a big batch's short items: a chunk per task, from the back,
        until the thread and the other workers have taken the rest."""
        while chunks:
            try:
                chunk = chunks.pop()
            except IndexError:
                return
            self.shared_items += len(chunk)
            group = [items[index] for index in chunk]
            timeouts_s = [self._timeout_s(item) for item in group]
            # the kill is the backstop: each item stops itself at its deadline, in turn
            outcome = await self.pool.run(
                judge_chunk_in_worker, (group, timeouts_s), sum(timeouts_s) + 1.0
            )
            for position, (index, item) in enumerate(zip(chunk, group, strict=True)):
                if outcome.kind == "ok":
                    results[index] = outcome.value[position]
                elif outcome.kind == "timeout":
                    timed_out = Judgement([], is_timed_out=True)
                    timeout_s = timeouts_s[position]
                    results[index] = result_of(item, timed_out, timeout_s, timeout_s)
                else:
                    results[index] = error_result(item, outcome.message, 0.0)

    async def _judge_in_pool(
        self, items: Sequence[IfevalItem], index: int, results: list[IfevalResult | None]
    ) -> None:
        item = items[index]
        timeout_s = self._timeout_s(item)
        # the kill is the backstop: the judge itself stops between checks at the deadline
        outcome = await self.pool.run(judge_in_worker, (item, timeout_s), timeout_s + 1.0)
        if outcome.kind == "ok":
            judgement, spent_s = outcome.value
            results[index] = result_of(item, judgement, timeout_s, min(spent_s, timeout_s))
        elif outcome.kind == "timeout":
            timed_out = Judgement([], is_timed_out=True)
            results[index] = result_of(item, timed_out, timeout_s, timeout_s)
        else:
            results[index] = error_result(item, outcome.message, 0.0)

    def health(self) -> DomainHealth:
        return self.pool.health(
            "ifeval",
            **self.admission.stats(),
            inline_items=self.inline_items,
            pooled_items=self.pooled_items,
            shared_items=self.shared_items,
        )


def _warm() -> None:
    warm_up()
    verb_start.warm()
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
