"""GymVerifier: extract each `<answer>` on a thread, score it in the killable worker pool.

Task names are checked against the installed reasoning-gym before anything runs (an unknown
one is a 422 naming the close ones). Scoring runs in worker processes with the item's deadline:
some scorers do real work (solving a puzzle to check a move list) and a scorer can spin; past
the deadline the worker is killed and the item is `timed_out`. Most scorers take
microseconds, so a batch's items go to the workers in chunks (`chunk_items`), each chunk within
the smallest deadline of its items; a chunk that runs past it, or whose worker dies, is scored
again item by item, so only the item at fault is `timed_out`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from rlvr.schemas.common import DomainHealth, Status
from rlvr.schemas.gym import GymItem, GymResult
from rlvr.verifier.domains.batching import Admission, every_result, item_result, item_timeout_s
from rlvr.verifier.domains.gym.config import GymSettings
from rlvr.verifier.domains.gym.extract import Extracted, extract_gym_answer
from rlvr.verifier.domains.gym.scoring import score_answer, score_many, warm
from rlvr.verifier.domains.gym.tasks import check_tasks, task_names
from rlvr.verifier.domains.math.workers import WorkerPool, preload_in_forkserver

_SCORING_MODULE = "rlvr.verifier.domains.gym.scoring"
_PRELOAD = ["reasoning_gym", _SCORING_MODULE]
preload_in_forkserver(*_PRELOAD)  # before any pool starts the process's forkserver


class GymVerifier:
    def __init__(self, settings: GymSettings, pool: WorkerPool, known: frozenset[str]) -> None:
        self.settings = settings
        self.pool = pool
        self.known = known
        self.admission = Admission(
            "gym", settings.max_queue_items, "max_queue_items", settings.retry_after_s
        )
        self.chunks_retried = 0  # chunks scored again item by item (a deadline or a crash)

    async def verify_batch(self, items: Sequence[GymItem]) -> list[GymResult]:
        check_tasks([item.task for item in items], self.known)  # UnknownTask -> 422
        async with self.admission.admit(len(items)):  # Overloaded -> 503 for the whole batch
            extracted = await asyncio.to_thread(
                lambda: [extract_gym_answer(item.response) for item in items]
            )
            results: list[GymResult | None] = [None] * len(items)
            scorable: list[int] = []
            for index, (item, found) in enumerate(zip(items, extracted, strict=True)):
                if found.answer is None:
                    results[index] = _unanswered(item, found)
                else:
                    scorable.append(index)
            size = self.settings.chunk_items
            chunks = [scorable[start : start + size] for start in range(0, len(scorable), size)]
            # gather owns the tasks: cancelling the batch cancels every chunk still running
            done = await asyncio.gather(
                *(
                    self._score_chunk([items[i] for i in c], [extracted[i] for i in c])
                    for c in chunks
                )
            )
            for chunk, chunk_results in zip(chunks, done, strict=True):
                for index, result in zip(chunk, chunk_results, strict=True):
                    results[index] = result
            return every_result(results, "gym batch")

    async def _score_chunk(self, items: list[GymItem], found: list[Extracted]) -> list[GymResult]:
        """One worker call for the chunk within its smallest deadline; item by item if that
        fails (a scorer spun past it, or killed its worker)."""
        if len(items) == 1:
            return [await self._score(items[0], found[0])]
        timeout_s = min(item_timeout_s(item.timeout_s, self.settings) for item in items)
        jobs = [
            (item.task, item.entry.model_dump(), f.answer)
            for item, f in zip(items, found, strict=True)
        ]
        patience_s = self.settings.max_queue_wait_s + 2 * timeout_s
        try:
            outcome = await asyncio.wait_for(
                self.pool.run(score_many, (jobs,), timeout_s), patience_s
            )
        except TimeoutError:
            outcome = None
        if outcome is None or outcome.kind != "ok":
            self.chunks_retried += 1
            return list(
                await asyncio.gather(
                    *(self._score(i, f) for i, f in zip(items, found, strict=True))
                )
            )
        return [
            self._scored(item, f, value)
            if not isinstance(value, str)
            else self._error(item, f, value, 0.0)
            for item, f, value in zip(items, found, outcome.value, strict=True)
        ]

    async def _score(self, item: GymItem, found: Extracted) -> GymResult:
        if found.answer is None:
            return _unanswered(item, found)
        timeout_s = item_timeout_s(item.timeout_s, self.settings)
        entry = item.entry.model_dump()
        patience_s = self.settings.max_queue_wait_s + 2 * timeout_s
        started = time.perf_counter()
        try:
            outcome = await asyncio.wait_for(
                self.pool.run(score_answer, (item.task, entry, found.answer), timeout_s),
                patience_s,
            )
        except TimeoutError:
            return self._error(
                item,
                found,
                f"verifier overloaded: no worker took this item within {patience_s:g} s",
                time.perf_counter() - started,
            )
        if outcome.kind == "timeout":
            return item_result(
                GymResult,
                item.id,
                Status.timed_out,
                f"{item.task}'s scorer ran past {timeout_s:g} s; its worker was killed",
                timeout_s,
                extracted=found.answer,
                reason="timed_out",
            )
        if outcome.kind != "ok":
            return self._error(item, found, outcome.message, time.perf_counter() - started)
        return self._scored(item, found, outcome.value)

    def _scored(
        self, item: GymItem, found: Extracted, value: tuple[float, float, str | None]
    ) -> GymResult:
        score, spent_s, raised = value
        if score >= 1.0:
            status, reason, detail = Status.passed, "correct", f"{item.task} scored 1"
        else:
            status = Status.failed
            reason = "partial" if score > 0 else "wrong"
            detail = f"{item.task} scored {score:g}"
            if raised:
                detail += f" (its scorer could not read the answer: {raised})"
        return item_result(
            GymResult,
            item.id,
            status,
            detail,
            spent_s,
            score=score,
            extracted=found.answer,
            reason=reason,
        )

    def _error(self, item: GymItem, found: Extracted, message: str, elapsed_s: float) -> GymResult:
        return item_result(
            GymResult,
            item.id,
            Status.error,
            message,
            elapsed_s,
            extracted=found.answer,
            reason="error",
        )

    def health(self) -> DomainHealth:
        return self.pool.health(
            "gym",
            **self.admission.stats(),
            tasks=len(self.known),
            chunks_retried=self.chunks_retried,
        )


def _unanswered(item: GymItem, found: Extracted) -> GymResult:
    detail = (
        "the response never left its <think> block"
        if found.reason == "unfinished_thinking"
        else "no <answer>…</answer> tag after thinking"
    )
    return item_result(
        GymResult, item.id, Status.failed, detail, 0.0, reason=found.reason or "no_answer"
    )


@asynccontextmanager
async def open_gym_verifier(settings: GymSettings) -> AsyncIterator[GymVerifier]:
    known = await asyncio.to_thread(task_names)
    pool = WorkerPool(settings.workers, preload=_PRELOAD)
    try:
        await asyncio.to_thread(pool.warm_up, warm, ("basic_arithmetic",), 120.0)
        yield GymVerifier(settings, pool, known)
    finally:
        await asyncio.to_thread(pool.close)
