"""MathVerifier with its real killable pool: deadlines, crashes, caching, batches with poison."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from rlvr.schemas.common import Status
from rlvr.schemas.math import MathItem
from rlvr.verifier.domains.batching import item_timeout_s
from rlvr.verifier.domains.math import verifier as verifier_module
from rlvr.verifier.domains.math.config import MathSettings
from rlvr.verifier.domains.math.verifier import MathVerifier, open_math_verifier
from rlvr.verifier.domains.math.workers import WorkerPool

pytestmark = pytest.mark.asyncio(loop_scope="module")

HUGE = "\\boxed{10^{10^{10}}}"  # SymPy would try to build a 10-billion-digit integer


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def verifier() -> AsyncIterator[MathVerifier]:
    settings = MathSettings(default_timeout_s=1.0, max_timeout_s=3.0, quick_attempt_s=0.3)
    async with open_math_verifier(settings) as opened:
        yield opened


def item(response: str, answer: str, timeout_s: float | None = None) -> MathItem:
    return MathItem(response=response, answer=answer, timeout_s=timeout_s)


async def test_results_come_back_in_order_with_ids(verifier: MathVerifier) -> None:
    items = [
        MathItem(id="a", response="\\boxed{(1+x)^2}", answer="(x+1)^2"),
        MathItem(id="b", response="\\boxed{4}", answer="5"),
        MathItem(id="c", response="\\boxed{\\frac{\\sqrt{2}}{2}}", answer="\\frac{1}{\\sqrt{2}}"),
    ]
    results = await verifier.verify_batch(items)
    assert [r.id for r in results] == ["a", "b", "c"]
    assert [r.status for r in results] == [Status.passed, Status.failed, Status.passed]
    assert results[1].reward == 0.0 and results[0].reward == 1.0
    assert results[1].detail == "parsed 4, expected 5"
    assert results[0].extracted == "(1+x)^2"


async def test_pathological_item_times_out_alone_and_others_are_prompt(
    verifier: MathVerifier,
) -> None:
    easy = [item(f"\\boxed{{({k}+x)^2}}", f"(x+{k})^2") for k in range(1, 9)]
    poison = [item(HUGE, "10^{10^{10}}+1"), item(HUGE, "10^{10^{10}}-1")]
    started = time.perf_counter()
    results = await verifier.verify_batch([poison[0], *easy, poison[1]])
    elapsed = time.perf_counter() - started
    assert results[0].status is Status.timed_out and results[-1].status is Status.timed_out
    assert results[0].reward == 0.0
    assert results[0].detail == "timed out after 1 s"
    assert all(r.status is Status.passed for r in results[1:-1]), [r.detail for r in results]
    assert max(r.elapsed_s for r in results[1:-1]) < 1.0  # not stuck behind the poison
    assert elapsed < 2 * 1.0 + 0.5  # never more than twice the deadline


async def test_per_item_timeout_is_capped_by_settings(verifier: MathVerifier) -> None:
    assert item_timeout_s(100.0, verifier.settings) == 3.0
    assert item_timeout_s(0.5, verifier.settings) == 0.5
    assert item_timeout_s(None, verifier.settings) == 1.0


async def test_repeated_pair_is_served_from_cache(verifier: MathVerifier) -> None:
    pair = item("\\boxed{\\sqrt{2} \\cdot 5}", "5\\sqrt{2}")
    first = (await verifier.verify_batch([pair]))[0]
    hits_before = verifier.cache.hits
    second = (await verifier.verify_batch([pair]))[0]
    assert first.status is second.status is Status.passed
    assert verifier.cache.hits == hits_before + 1
    assert second.elapsed_s == 0.0


async def test_cached_timeout_is_reused_only_for_no_longer_deadlines(
    verifier: MathVerifier,
) -> None:
    poison = item(HUGE, "10^{10^{10}}+7", timeout_s=0.4)
    assert (await verifier.verify_batch([poison]))[0].status is Status.timed_out
    started = time.perf_counter()
    again = (await verifier.verify_batch([poison]))[0]
    assert again.status is Status.timed_out and time.perf_counter() - started < 0.2


async def test_event_loop_stays_responsive_during_a_heavy_batch(verifier: MathVerifier) -> None:
    batch = [item("word " * 20_000 + f"\\boxed{{{k}}}", str(k)) for k in range(40)]
    batch.append(item(HUGE, "10^{10^{10}}+3"))
    gaps: list[float] = []

    async def ticker() -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            gaps.append(time.perf_counter() - before)

    task = asyncio.create_task(ticker())
    results = await verifier.verify_batch(batch)
    task.cancel()
    assert all(r.status is Status.passed for r in results[:-1])
    assert max(gaps) < 0.3, max(gaps)


async def test_health_reports_pool_stats(verifier: MathVerifier) -> None:
    health = verifier.health()
    assert health.ok
    assert health.stats["workers"] == 2
    assert health.stats["timeouts"] >= 1
    assert {"cache_hits", "in_flight", "crashes", "fast_items", "slow_items"} <= set(health.stats)


def _crash(*_args: object) -> None:
    os._exit(7)  # what a segfault in C code looks like to the pool: the worker is gone


async def test_worker_crash_makes_only_its_item_an_error(
    verifier: MathVerifier, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verifier_module, "grade_timed", _crash)
    results = await verifier.verify_batch(
        [item("\\boxed{\\sqrt{7}}", "\\sqrt{7}+0"), item("\\boxed{3}", "3")]
    )
    assert results[0].status is Status.error and results[0].reward is None
    assert "exit code 7" in results[0].detail
    assert results[1].status is Status.passed
    monkeypatch.undo()
    again = await verifier.verify_batch([item("\\boxed{\\sqrt{7}}", "\\sqrt{7}+0")])
    assert again[0].status is Status.passed  # not cached as an error; the pool replaced it


async def test_worker_crash_is_an_error_and_the_pool_recovers() -> None:
    pool = WorkerPool(1)
    try:
        crashed = await pool.run(os._exit, (3,), 5.0)
        assert crashed.kind == "crash"
        assert "exit code 3" in crashed.message
        recovered = await pool.run(abs, (-4,), 5.0)
        assert recovered.kind == "ok" and recovered.value == 4
        hung = await pool.run(time.sleep, (30,), 0.3)
        assert hung.kind == "timeout"
        after = await pool.run(abs, (-5,), 5.0)
        assert after.value == 5
        assert pool.stats()["crashes"] == 1 and pool.stats()["timeouts"] == 1
    finally:
        pool.close()


async def test_tasks_waiting_in_a_replaced_pool_move_to_the_new_one() -> None:
    """A pool is replaced when a worker dies mid-task (it may have held pebble's task lock, so
    the old pool's queue may never move again): what no worker had taken runs in the new pool;
    what was running finishes where it was."""
    pool = WorkerPool(1)
    try:
        assert (await pool.run(abs, (-1,), 5.0)).value == 1  # the worker is up
        running = asyncio.ensure_future(pool.run(time.sleep, (2.0,), 10.0))
        while pool.stats()["in_flight"] < 1:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)  # the sleep has started in the only worker
        queued = asyncio.ensure_future(pool.run(abs, (-3,), 10.0))
        await asyncio.sleep(0.1)
        pool._replace(pool._pool, "test: the old pool's queue is stuck")
        started = time.perf_counter()
        moved = await asyncio.wait_for(queued, 10)
        waited = time.perf_counter() - started
        assert moved.kind == "ok" and moved.value == 3, moved
        assert waited < 1.5, f"the queued task waited {waited:.2f}s behind the old pool"
        assert pool.stats()["moved"] == 1
        finished = await asyncio.wait_for(running, 10)
        assert finished.kind == "ok", finished  # the running task was not taken from its worker
    finally:
        pool.close()


async def test_grader_exception_is_an_error_verdict() -> None:
    pool = WorkerPool(1)
    try:
        outcome = await pool.run(int, ("not a number",), 5.0)
        assert outcome.kind == "error" and "ValueError" in outcome.message
    finally:
        pool.close()


async def test_slow_wrong_answers_past_their_quick_attempt_are_timed_out_not_errors() -> None:
    """Issue 27: a batch of distinct slow wrong answers left items waiting past the queue
    patience, and they came back as `error` (dropped from training). An item whose quick
    attempt already ran out has shown its cost; waiting for the rest is its own: `timed_out`."""
    settings = MathSettings(
        workers=1, default_timeout_s=0.6, quick_attempt_s=0.2, max_queue_wait_s=0.1
    )
    slow = [item(f"\\boxed{{(x+y+z+w+c)^{{{60 + k}}}}}", "x") for k in range(6)]
    honest = item("\\boxed{(1+x)^2}", "(x+1)^2")
    async with open_math_verifier(settings) as opened:
        results = await opened.verify_batch([*slow, honest])
    statuses = [r.status for r in results[:-1]]
    assert Status.error not in statuses, [r.detail for r in results]
    assert all(s in (Status.timed_out, Status.failed) for s in statuses)
    assert all(r.reward == 0.0 for r in results[:-1])
    assert results[-1].status is Status.passed, results[-1].detail


async def test_honest_request_is_prompt_while_other_requests_slow_wrong_answers_run() -> None:
    """Issue 27: honest items waited 30-66 s while other requests' slow wrong answers (each
    timing out at 2 s) filled the workers. What an answer costs is its own request's: the
    workers' time goes first to the request that has used the least of it, so a request of
    honest items passes between the slow ones within a few seconds."""
    settings = MathSettings(workers=2, default_timeout_s=2.0, quick_attempt_s=0.5)
    slow_batches = [
        [
            item(f"\\boxed{{(x+1)^{{{n}}} - x^{{{n}}}}}", "x")
            for n in range(10000 * b, 10000 * b + 24)
        ]
        for b in (1, 2)
    ]
    honest = [item(f"\\boxed{{({k}+x)^2}}", f"(x+{k})^2") for k in range(1, 13)]
    async with open_math_verifier(settings) as opened:
        slow = [asyncio.create_task(opened.verify_batch(batch)) for batch in slow_batches]
        await asyncio.sleep(1.0)  # the slow requests hold every worker and queue behind them
        assert opened.share.waiting_items > 0
        started = time.perf_counter()
        results = await opened.verify_batch(honest)
        elapsed = time.perf_counter() - started
        health_started = time.perf_counter()
        assert opened.health().ok
        assert time.perf_counter() - health_started < 0.05
        for task in slow:
            task.cancel()
        await asyncio.gather(*slow, return_exceptions=True)
    assert [r.status for r in results] == [Status.passed] * len(honest), [r.detail for r in results]
    assert elapsed < 6.0, f"{elapsed:.1f} s for {len(honest)} honest items"
