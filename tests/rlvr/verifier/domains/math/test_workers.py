"""The math pool's processes under deaths (issue 21, item 13): real pebble workers, counted with
psutil, and the live service's /health."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
import time

import httpx
import psutil
import pytest

from rlvr.verifier.domains.math.workers import WorkerPool
from tests.support.server import live_service

HUGE = "\\boxed{10^{10^{10}}}"  # SymPy would try to build a 10-billion-digit integer


def workers_of(root: psutil.Process, others: frozenset[int] = frozenset()) -> list[psutil.Process]:
    """The live worker processes under `root`: children of its multiprocessing forkserver, less
    `others` (the workers of pools this test did not make: every pebble pool of a process forks
    from the same forkserver, and earlier tests of the same session may still hold pools)."""
    found = []
    for child in root.children(recursive=True):
        try:
            if "forkserver" in " ".join(child.cmdline()):
                found += [
                    w
                    for w in child.children()
                    if w.pid not in others and w.status() != psutil.STATUS_ZOMBIE
                ]
        except psutil.NoSuchProcess:
            continue
    return found


def workers_before(root: psutil.Process) -> frozenset[int]:
    """The pids of the workers already under `root` before a test makes its pool."""
    return frozenset(w.pid for w in workers_of(root))


def kill_one(workers: list[psutil.Process]) -> None:
    """SIGKILL the first of `workers` still alive (one may have ended since it was listed)."""
    for worker in workers:
        try:
            worker.kill()
            return
        except psutil.NoSuchProcess:
            continue
    raise AssertionError("no live worker to kill")


def post_into(url: str, body: dict[str, object], replies: list[httpx.Response]) -> None:
    replies.append(httpx.post(url, json=body, timeout=30))


def settle(
    root: psutil.Process,
    expected: int,
    within_s: float = 15.0,
    others: frozenset[int] = frozenset(),
) -> int:
    """The worker count once it reaches `expected` (or whatever it is after `within_s`)."""
    deadline = time.monotonic() + within_s
    while True:
        count = len(workers_of(root, others))
        if count == expected or time.monotonic() > deadline:
            return count
        time.sleep(0.2)


@pytest.mark.asyncio
async def test_deaths_mid_task_do_not_leak_workers() -> None:
    """Each death mid-task replaces the pool; the replaced pool is joined, not left respawning."""
    me = psutil.Process()
    others = workers_before(me)
    pool = WorkerPool(2, drain_s=5.0)
    try:
        assert (await pool.run(abs, (-1,), 5.0)).value == 1
        for _ in range(4):
            crashed = await pool.run(os._exit, (9,), 5.0)
            assert crashed.kind == "crash"
            assert (await pool.run(abs, (-2,), 5.0)).value == 2
        assert pool.stats()["restarts"] >= 4
        assert await asyncio.to_thread(settle, me, 2, 15.0, others) == 2
    finally:
        pool.close()


@pytest.mark.asyncio
async def test_an_idle_worker_killed_keeps_the_pool_healthy_and_bounded() -> None:
    me = psutil.Process()
    others = workers_before(me)
    pool = WorkerPool(2, drain_s=5.0)
    try:
        assert (await pool.run(abs, (-1,), 5.0)).value == 1
        for _ in range(4):
            assert await asyncio.to_thread(settle, me, 2, 15.0, others) == 2
            await asyncio.to_thread(kill_one, workers_of(me, others))
            await asyncio.sleep(0.5)  # pebble notices the death and gives the pool up
            assert pool.ensure_alive()
            assert pool.stats()["active"] is True
        assert (await pool.run(abs, (-3,), 5.0)).value == 3
        assert await asyncio.to_thread(settle, me, 2, 15.0, others) == 2
    finally:
        pool.close()


def test_the_live_service_keeps_its_worker_count_and_health() -> None:
    """Against `rlvr-verifier serve`: workers killed idle and mid-item, four times each; the
    worker count returns to what the pools were given and /health stays ok; Lean, absent here,
    does not make the service `degraded`. The math, gym and ifeval pools all fork from the one
    forkserver of the process, so the count is theirs together (2 + 1 + 1), and a death in any
    of them must heal the same way."""
    env = {
        "VERIFIER_MATH__WORKERS": "2",
        "VERIFIER_GYM__WORKERS": "1",
        "VERIFIER_IFEVAL__WORKERS": "1",
        "VERIFIER_CODE__IS_ENABLED": "false",
    }
    every_pool = 4
    with live_service(env) as service:
        root = psutil.Process(service.process.pid)
        assert settle(root, every_pool) == every_pool
        for _ in range(4):  # idle deaths
            # the last replaced pool's workers are gone
            assert settle(root, every_pool) == every_pool
            kill_one(workers_of(root))
            time.sleep(0.5)
            health = httpx.get(f"{service.url}/health", timeout=10).json()
            unhealthy = {n: d for n, d in health["domains"].items() if d["offered"] and not d["ok"]}
            assert not unhealthy, unhealthy
        for _ in range(4):  # deaths mid-item: every worker killed while the item runs
            replies: list[httpx.Response] = []
            body = {"items": [{"response": HUGE, "answer": "10^{10^{10}}+1", "timeout_s": 8}]}
            thread = threading.Thread(target=post_into, args=(f"{service.url}/math", body, replies))
            thread.start()
            time.sleep(1.5)
            for worker in workers_of(root):
                with contextlib.suppress(psutil.NoSuchProcess):
                    worker.send_signal(signal.SIGKILL)
            thread.join(30)
            result = replies[0].json()["results"][0]
            assert result["status"] == "error" and "exit code" in result["detail"], result
        # The gym and ifeval workers died idle: their pools are replaced when health is asked
        # (or at their next item), as a monitor or Ray Serve's health check asks.
        httpx.get(f"{service.url}/health", timeout=10)
        assert settle(root, every_pool) == every_pool
        health = httpx.get(f"{service.url}/health", timeout=10).json()
        assert health["domains"]["math"]["ok"] is True
        assert health["domains"]["lean"]["offered"] is False
        assert health["domains"]["code"]["offered"] is False
        assert health["status"] == "ok", health
        served = httpx.post(
            f"{service.url}/math",
            json={"items": [{"response": "\\boxed{2}", "answer": "2"}]},
            timeout=30,
        ).json()["results"][0]
        assert served["status"] == "passed"
