"""The sandbox pool against a real engine: how items waiting for a sandbox learn of one, of a
pool that can no longer start any, and that a cancelled wait never loses a sandbox."""

from __future__ import annotations

import asyncio
import time

import pytest

from rlvr.verifier.sandbox.host.backend import SandboxUnavailable
from rlvr.verifier.sandbox.host.docker import DockerBackend, DockerSandbox
from rlvr.verifier.sandbox.host.pool import SandboxPool
from tests.support.docker_engine import sandbox_settings

pytestmark = [pytest.mark.docker]


async def test_waiting_items_learn_at_once_that_no_sandbox_can_start(docker_engine: None) -> None:
    backend = DockerBackend(sandbox_settings())
    pool = SandboxPool(backend, size=1, max_jobs_per_sandbox=100, acquire_timeout_s=120)
    await pool.start(warm_timeout_s=60)
    try:
        async with pool.acquire() as held:
            waiters = [asyncio.ensure_future(pool._take()) for _ in range(50)]
            await asyncio.sleep(0.2)
            backend.settings.image = "rlvr-no-such-image:none"  # every later start fails
            assert isinstance(held, DockerSandbox)
            held.mark_dead()  # given back dead: retired, and its replacement cannot start
        started = time.monotonic()
        outcomes = await asyncio.gather(*waiters, return_exceptions=True)
        waited = time.monotonic() - started
        assert all(isinstance(o, SandboxUnavailable) for o in outcomes), outcomes[:3]
        assert "no sandbox available" in str(outcomes[0])
        # told when the start failed, not after the 120 s acquire timeout
        assert waited < 60, f"waiters learned of the failure after {waited:.1f}s"
    finally:
        await pool.close()


async def test_a_cancelled_wait_never_loses_the_sandbox_it_was_given(docker_engine: None) -> None:
    pool = SandboxPool(DockerBackend(sandbox_settings()), size=1, max_jobs_per_sandbox=100)
    await pool.start(warm_timeout_s=60)
    try:
        for _ in range(20):
            async with pool.acquire():
                waiter = asyncio.ensure_future(pool._take())
                await asyncio.sleep(0)  # it waits in the idle queue
            waiter.cancel()  # in the same step the sandbox was handed to it
            with pytest.raises(asyncio.CancelledError):
                await waiter
            # the only sandbox is still lent out at once, to the next borrower
            async with asyncio.timeout(5):
                async with pool.acquire() as again:
                    assert again.is_alive
        assert pool.stats()["live"] == 1
    finally:
        await pool.close()
