"""MathVerifier: judge a batch, easy items in-process, SymPy items in the killable pool, cached.

The whole batch's extraction and fast decisions run on one thread off the event loop; items
that need SymPy go to the pool, first with a short budget (`quick_attempt_s`) so a pathological
item cannot hold the workers while others wait, then with the rest of their deadline. An item's
`elapsed_s` is the worker time it took (never more than its deadline); one that waits for a
worker longer than `max_queue_wait_s` for its first attempt is an `error` (the verifier was
overloaded); one that already ran out of its quick attempt and then waits that long for the rest
of its deadline is `timed_out` (what an answer costs to check is the answer's).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Hashable, Sequence
from contextlib import asynccontextmanager

from rlvr.schemas.common import DomainHealth, Status
from rlvr.schemas.math import MathItem, MathResult
from rlvr.verifier.domains.batching import Admission, every_result, item_result, item_timeout_s
from rlvr.verifier.domains.lru import BoundedLru
from rlvr.verifier.domains.math.cache import CachedOutcome, TimedOut
from rlvr.verifier.domains.math.config import MathSettings
from rlvr.verifier.domains.math.fair import FairShare
from rlvr.verifier.domains.math.grade import grade, grade_timed
from rlvr.verifier.domains.math.judge import Judged, judge
from rlvr.verifier.domains.math.verdict import Conventions, SlowJob, Verdict
from rlvr.verifier.domains.math.workers import Outcome, WorkerPool, preload_in_forkserver

log = logging.getLogger(__name__)

_GRADER_MODULE = "rlvr.verifier.domains.math.prewarm"
GIL_SLICE_S = 0.002  # the longest the in-process judging holds the GIL before offering it
PLACES_PER_WORKER = 4  # tasks handed to the pool per worker at once (the fair share's places)
preload_in_forkserver(_GRADER_MODULE)  # before any pool starts the process's forkserver


class MathVerifier:
    def __init__(self, settings: MathSettings, pool: WorkerPool) -> None:
        self.settings = settings
        self.pool = pool
        self.admission = Admission(
            "math", settings.max_queue_items, "max_queue_items", settings.retry_after_s
        )
        self.conventions = Conventions(
            percent=settings.percent,
            min_rounded_digits=settings.min_rounded_digits,
            rel_tol=settings.rel_tol,
            decimal_for_exact=settings.decimal_for_exact,
            form_rules=settings.form_rules,
        )
        self.cache: BoundedLru[tuple[str, bool, str, bool], CachedOutcome] = BoundedLru(
            settings.cache_size
        )
        # the workers' time shared across concurrent batches, least-served first (fair.py); a few
        # places per worker keep tasks queued in the pool, so no worker idles while a loaded
        # event loop hands it the next one (two per worker: 18 items/s against the pool's own
        # 24 on a loaded machine, four: 28 against 19; see benchmarks/RESULTS.md)
        self.share = FairShare(PLACES_PER_WORKER * settings.workers)
        self.fast_items = 0
        self.slow_items = 0

    async def verify_batch(self, items: Sequence[MathItem]) -> list[MathResult]:
        async with self.admission.admit(len(items)):  # Overloaded -> 503 for the whole batch
            return await self._verify_admitted(items)

    async def _verify_admitted(self, items: Sequence[MathItem]) -> list[MathResult]:
        started = time.perf_counter()
        judged = await asyncio.to_thread(self._judge_all, items, started)
        # this request's account of the workers' time, kept while any of its items may still
        # ask for a worker (between an item's two attempts too)
        with self.share.batch() as batch:
            return await self._verify_judged(items, judged, started, batch)

    async def _verify_judged(
        self,
        items: Sequence[MathItem],
        judged: list[tuple[Judged, MathResult | None]],
        started: float,
        batch: Hashable,
    ) -> list[MathResult]:
        results: list[MathResult | None] = [None] * len(items)
        slow: list[tuple[int, Awaitable[MathResult]]] = []
        for index, (item, (verdict, final)) in enumerate(zip(items, judged, strict=True)):
            if verdict.slow is None:
                results[index] = final  # built in the judging thread (None: a lost result)
                continue
            cached = self.cache.get(verdict.slow.cache_key)
            timeout_s = item_timeout_s(item.timeout_s, self.settings)
            if isinstance(cached, Verdict):
                results[index] = _verdict_result(item, verdict.extracted, cached, 0.0)
            elif isinstance(cached, TimedOut) and cached.timeout_s >= timeout_s:
                results[index] = _timed_out(item, verdict.extracted, timeout_s, 0.0)
            else:
                # the quick attempts of this batch's own slow items ahead of this one are its
                # batch's cost, not an overload: they extend the time it may wait for a worker
                ahead_s = (len(slow) // self.settings.workers + 1) * self.settings.quick_attempt_s
                slow.append((index, self._slow(item, verdict, timeout_s, started, batch, ahead_s)))
        self.fast_items += len(items) - len(slow)
        self.slow_items += len(slow)
        if slow:
            # gather owns the tasks: cancelling the batch cancels every item still running
            done = await asyncio.gather(*(coroutine for _, coroutine in slow))
            for (index, _), result in zip(slow, done, strict=True):
                results[index] = result
        return every_result(results, "math batch")

    def _judge_all(
        self, items: Sequence[MathItem], started: float
    ) -> list[tuple[Judged, MathResult | None]]:
        """Each item judged in-process, with its final result when no SymPy is needed (built
        here, off the event loop: thousands of results cost the loop tens of ms). The GIL is
        given up every `GIL_SLICE_S` so the event loop never waits a whole switch interval
        for it while a big batch is read."""
        fallback = self.settings.fallback
        judged: list[tuple[Judged, MathResult | None]] = []
        slice_started = time.perf_counter()
        for item in items:
            verdict = judge(item.response, item.answer, self.conventions, fallback, item.problem)
            now = time.perf_counter()
            final = _final_result(item, verdict, now - started) if verdict.slow is None else None
            judged.append((verdict, final))
            if now - slice_started > GIL_SLICE_S:
                time.sleep(0)  # releases the GIL: the event loop takes it if it is waiting
                slice_started = time.perf_counter()
        return judged

    async def _slow(
        self,
        item: MathItem,
        judged: Judged,
        timeout_s: float,
        batch_started: float,
        batch: Hashable,
        ahead_s: float = 0.0,
    ) -> MathResult:
        job = judged.slow
        assert job is not None
        patience_s = self.settings.max_queue_wait_s + 2 * timeout_s + ahead_s
        attempt = _Attempt()
        try:
            outcome, spent_s = await asyncio.wait_for(
                self._grade_in_pool(job, timeout_s, attempt, batch), patience_s
            )
        except TimeoutError:
            if attempt.quick_timed_out:
                # it already used its quick attempt and was too slow: the wait for the rest of
                # its deadline is its own cost, so it is `timed_out` (reward 0), not an error
                self.cache.put(job.cache_key, TimedOut(timeout_s))
                return _timed_out(item, judged.extracted, timeout_s, self.settings.quick_attempt_s)
            return _error(
                item,
                judged.extracted,
                f"verifier overloaded: no worker took this item within {patience_s:g} s; "
                "retry later",
                _since(batch_started),
            )
        if outcome.kind == "ok":
            verdict: Verdict = outcome.value
            self.cache.put(job.cache_key, verdict)
            return _verdict_result(item, judged.extracted, verdict, spent_s)
        if outcome.kind == "timeout":
            self.cache.put(job.cache_key, TimedOut(timeout_s))
            return _timed_out(item, judged.extracted, timeout_s, spent_s)
        return _error(item, judged.extracted, outcome.message, spent_s)

    async def _grade_in_pool(
        self, job: SlowJob, timeout_s: float, attempt: _Attempt, batch: Hashable
    ) -> tuple[Outcome, float]:
        """The outcome and the seconds workers spent on it (queueing not included)."""
        args = (job, self.conventions)
        quick_s = self.settings.quick_attempt_s
        if 0 < quick_s < timeout_s:
            outcome = await self._run(batch, args, quick_s)
            if outcome.kind != "timeout":
                return _unwrap(outcome)
            attempt.quick_timed_out = True
            # queued behind the quick attempts of the rest of its batch (FIFO within a batch)
            outcome = await self._run(batch, args, timeout_s - quick_s)
            if outcome.kind == "timeout":
                return Outcome("timeout", message=f"timed out after {timeout_s:g} s"), timeout_s
            verdict_outcome, spent_s = _unwrap(outcome)
            return verdict_outcome, quick_s + spent_s
        outcome = await self._run(batch, args, timeout_s)
        if outcome.kind == "timeout":
            return outcome, timeout_s
        return _unwrap(outcome)

    async def _run(
        self, batch: Hashable, args: tuple[SlowJob, Conventions], budget_s: float
    ) -> Outcome:
        """One attempt in a worker, when its batch is the least-served one waiting; the batch
        is charged the worker time the attempt used (its budget when it ran out)."""
        async with self.share.turn(batch, self._places(batch, budget_s)) as turn:
            outcome = await self.pool.run(grade_timed, args, budget_s)
            turn.cost_s = _unwrap(outcome)[1] if outcome.kind == "ok" else budget_s
            return outcome

    def _places(self, batch: Hashable, budget_s: float) -> int:
        """How many of the workers' places an attempt takes. A quick attempt takes one when its
        batch's attempts have been cheap so far (or it is the batch's first), so several queue
        per worker and none idles; any other attempt may run long (the rest of a deadline, a
        batch whose attempts cost a quarter of a quick attempt or more on average, or one whose
        cost is not known yet) and takes a worker's whole share: such attempts never queue in
        the pool ahead of another batch's next item, which waits for at most one running
        attempt per worker."""
        quick_s = self.settings.quick_attempt_s
        mean_s = self.share.mean_cost_s(batch)
        first = mean_s is None and self.share.holding(batch) == 0
        cheap = first or (mean_s is not None and mean_s < quick_s / 4)
        return 1 if cheap and budget_s <= quick_s else PLACES_PER_WORKER

    def health(self) -> DomainHealth:
        return self.pool.health(
            "math",
            **self.admission.stats(),
            cache_size=len(self.cache),
            cache_hits=self.cache.hits,
            cache_misses=self.cache.misses,
            fast_items=self.fast_items,
            slow_items=self.slow_items,
            waiting_batches=self.share.waiting_batches,
            waiting_items=self.share.waiting_items,
        )


class _Attempt:
    """What an item's grading got to: whether its quick attempt ran and ran out of time."""

    __slots__ = ("quick_timed_out",)

    def __init__(self) -> None:
        self.quick_timed_out = False


def _unwrap(outcome: Outcome) -> tuple[Outcome, float]:
    if outcome.kind == "ok":
        verdict, spent_s = outcome.value
        return Outcome("ok", value=verdict), spent_s
    return outcome, 0.0


def _since(started: float) -> float:
    return time.perf_counter() - started


def _final_result(item: MathItem, judged: Judged, elapsed_s: float) -> MathResult:
    if judged.verdict is not None:
        return _verdict_result(item, judged.extracted, judged.verdict, elapsed_s)
    detail = judged.failure or "failed"
    return item_result(
        MathResult, item.id, Status.failed, detail, elapsed_s, extracted=judged.extracted
    )


def _verdict_result(
    item: MathItem, extracted: str | None, verdict: Verdict, elapsed_s: float
) -> MathResult:
    return item_result(
        MathResult,
        item.id,
        Status.passed if verdict.is_equal else Status.failed,
        verdict.detail,
        elapsed_s,
        extracted=extracted,
        parsed_response=verdict.parsed_response,
        parsed_answer=verdict.parsed_answer,
    )


def _timed_out(
    item: MathItem, extracted: str | None, timeout_s: float, elapsed_s: float
) -> MathResult:
    detail = f"timed out after {timeout_s:g} s"
    return item_result(
        MathResult, item.id, Status.timed_out, detail, elapsed_s, extracted=extracted
    )


def _error(item: MathItem, extracted: str | None, message: str, elapsed_s: float) -> MathResult:
    return item_result(MathResult, item.id, Status.error, message, elapsed_s, extracted=extracted)


@asynccontextmanager
async def open_math_verifier(settings: MathSettings) -> AsyncIterator[MathVerifier]:
    pool = WorkerPool(
        settings.workers, preload=[_GRADER_MODULE], drain_s=settings.max_timeout_s + 5.0
    )
    try:
        await asyncio.to_thread(
            pool.warm_up, grade, (SlowJob("1", "1", False, False, None, None), Conventions()), 120.0
        )
        yield MathVerifier(settings, pool)
    finally:
        await asyncio.to_thread(pool.close)
