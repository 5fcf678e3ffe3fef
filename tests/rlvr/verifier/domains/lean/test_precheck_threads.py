"""Where and when the pre-check runs (issue 21, item 15): after the "Lean unavailable" check, on
the verifier's own threads (not the default pool math and Docker share), and cancelled with its
batch. The stand-in REPL (`fake_repl.py`) runs as a local process: no Lean here."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from rlvr.schemas.common import Status
from rlvr.schemas.lean import LeanItem
from rlvr.verifier.domains.lean.config import LeanSettings
from rlvr.verifier.domains.lean.verifier import LeanVerifier, open_lean_verifier
from tests.rlvr.verifier.domains.lean.support import process_command

pytestmark = pytest.mark.asyncio(loop_scope="module")

STATEMENT = "theorem t : 1 + 1 = 2"
HONEST = LeanItem(statement=STATEMENT, proof="theorem t : 1 + 1 = 2 := rfl")
# About a second of pre-check each on this machine (linear, but a lot of text).
HEAVY = LeanItem(
    statement=STATEMENT,
    proof="def f := 1\n" + "(config := " * 8000 + "\ntheorem t : 1 + 1 = 2 := rfl",
)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def verifier() -> AsyncIterator[LeanVerifier]:
    settings = LeanSettings(isolation="unsafe_process", repl_command=process_command())
    async with open_lean_verifier(settings) as opened:
        assert opened.unavailable is None, opened.unavailable
        await opened.verify_batch([HONEST])  # a REPL is warm
        yield opened


async def test_an_unavailable_lean_answers_before_any_precheck() -> None:
    verifier = LeanVerifier(LeanSettings(), None, "no Lean toolchain (test)")
    started = time.perf_counter()
    results = await verifier.verify_batch([HEAVY] * 6)
    elapsed = time.perf_counter() - started
    assert [r.status for r in results] == [Status.error] * 6
    assert all(r.detail == "no Lean toolchain (test)" for r in results)
    assert elapsed < 0.2, elapsed


async def test_the_precheck_does_not_use_the_default_thread_pool(verifier: LeanVerifier) -> None:
    """The default pool is held by slow work (as Docker or math calls hold it); a Lean batch
    still runs."""
    loop = asyncio.get_running_loop()
    blocked = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    loop.set_default_executor(blocked)
    hold = loop.run_in_executor(None, time.sleep, 4.0)
    try:
        started = time.perf_counter()
        [result] = await asyncio.wait_for(verifier.verify_batch([HONEST]), 10)
        assert result.status is Status.passed, result
        assert time.perf_counter() - started < 3.0
    finally:
        await hold
        loop.set_default_executor(concurrent.futures.ThreadPoolExecutor())
        blocked.shutdown()


async def test_a_cancelled_batch_stops_its_precheck(verifier: LeanVerifier) -> None:
    """Twelve heavy proofs from a client that leaves after 0.5 s: the next batch does not wait
    for their pre-checks."""
    abandoned = asyncio.ensure_future(verifier.verify_batch([HEAVY] * 12))
    await asyncio.sleep(0.5)
    abandoned.cancel()
    with pytest.raises(asyncio.CancelledError):
        await abandoned
    await asyncio.sleep(2.5)  # the pre-checks already running end
    cpu_before = time.process_time()
    await asyncio.sleep(2.0)
    busy_s = time.process_time() - cpu_before
    assert busy_s < 0.5, f"abandoned pre-checks still ran for {busy_s:.1f} s of CPU"
    started = time.perf_counter()
    [result] = await asyncio.wait_for(verifier.verify_batch([HONEST]), 30)
    waited = time.perf_counter() - started
    assert result.status is Status.passed, result
    # At most the pre-checks already running finish (two threads, ~1 s each); not twelve.
    assert waited < 4.0, waited


async def test_a_heavy_proof_is_still_judged(verifier: LeanVerifier) -> None:
    [result] = await verifier.verify_batch([HEAVY])
    assert result.status is Status.failed and "too long to read" in result.detail, result
