"""A warm pool of sandboxes: started ahead, lent one job at a time, replaced when suspect.

`async with pool.acquire() as sandbox:` lends an idle sandbox. On return, a sandbox that died,
reported an anomaly, or served `max_jobs_per_sandbox` jobs is removed and a fresh one started
in the background. When the backend cannot start sandboxes (Docker unreachable) and none is
alive, `acquire` fails at once with SandboxUnavailable instead of waiting.

A sandbox's planned end is replaced ahead: once it is within a tenth of its job limit, the pool
starts its successor, so the sandboxes not about to leave stay `size` (for a few seconds the pool
holds one more). Replaced only when gone, the pool served with one sandbox fewer for the length
of a start; and since a pool's sandboxes share the load evenly, they reach their limit together.
(Measured on a 2-core host: each such moment was a second or two at 60-70% of the calls/s, with
or without replacing ahead: there, the starts' own CPU is what the calls miss.)

Lending is first come, first served: a returned sandbox goes straight to the borrower that has
waited longest. (Through an `asyncio.Queue`, a borrower that arrives while the woken one has
not yet run takes the sandbox, and the woken one goes to the back of the line: under a steady
load a few calls in a hundred waited the line twice, a p99 twice the p50.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

from rlvr.verifier.sandbox.host.backend import Sandbox, SandboxBackend, SandboxUnavailable

log = logging.getLogger(__name__)


class SandboxPool:
    def __init__(
        self,
        backend: SandboxBackend,
        size: int,
        max_jobs_per_sandbox: int,
        acquire_timeout_s: float = 60.0,
    ) -> None:
        self.backend = backend
        self.size = size
        self.max_jobs_per_sandbox = max_jobs_per_sandbox
        self.acquire_timeout_s = acquire_timeout_s
        self._idle: deque[Sandbox] = deque()
        # borrowers waiting, oldest first: each gets a sandbox, or None when the pool's state
        # changed (a failed start, a close) and it should look again
        self._waiters: deque[asyncio.Future[Sandbox | None]] = deque()
        self._live: set[Sandbox] = set()
        self._starting = 0
        self._wake = asyncio.Event()
        self._maintainer: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[Any]] = set()
        self._closed = False
        self.last_error: str | None = None
        self.started_total = 0
        self.retired_total = 0

    # -- lifecycle

    async def start(self, warm_timeout_s: float) -> None:
        """Start the maintainer and wait (bounded) until the pool is full or clearly failing."""
        with contextlib.suppress(Exception):
            removed = await self.backend.cleanup_stale()
            if removed:
                log.info("removed %d stale sandbox containers", removed)
        self._maintainer = asyncio.create_task(self._maintain(), name="sandbox-pool")
        deadline = time.monotonic() + warm_timeout_s
        while time.monotonic() < deadline and len(self._live) < self.size:
            if self.last_error and not self._live and self._starting == 0:
                break
            await asyncio.sleep(0.05)

    async def close(self) -> None:
        self._closed = True
        self._state_changed()
        if self._maintainer is not None:
            self._maintainer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._maintainer
        for task in list(self._background):
            task.cancel()
        for sandbox in list(self._live):
            await self.backend.remove(sandbox)
        self._live.clear()
        await self.backend.close()

    # -- lending

    @property
    def is_failing(self) -> bool:
        """No sandbox alive and the last attempt to start one failed."""
        return not self._live and self.last_error is not None

    @contextlib.asynccontextmanager
    async def acquire(self) -> AsyncIterator[Sandbox]:
        sandbox = await self._take()
        try:
            yield sandbox
        finally:
            self._give_back(sandbox)

    async def _take(self) -> Sandbox:
        deadline = time.monotonic() + self.acquire_timeout_s
        while True:
            if self._closed:
                raise SandboxUnavailable("the sandbox pool is shut down")
            if self.is_failing and not self._idle:
                raise SandboxUnavailable(f"no sandbox available: {self.last_error}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise SandboxUnavailable(f"no sandbox became free in {self.acquire_timeout_s}s")
            sandbox = await self._next_idle(left)
            if sandbox is None:  # the pool failed or closed meanwhile, or the time is up
                continue
            if sandbox.is_alive:
                return sandbox
            self._retire(sandbox)

    async def _next_idle(self, timeout_s: float) -> Sandbox | None:
        """The next idle sandbox, or None when the pool's state changed first (a failed start,
        a close) or `timeout_s` passed. Event-driven: a thousand items waiting for a sandbox
        cost nothing until one is free (no periodic wake-ups to look at the pool again)."""
        if self._idle:  # nobody waits while a sandbox is idle (`_offer`)
            return self._idle.popleft()
        waiter: asyncio.Future[Sandbox | None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await asyncio.wait((waiter,), timeout=timeout_s)
        except BaseException:  # cancelled: a sandbox handed over meanwhile goes on, not lost
            self._abandon(waiter)
            raise
        if waiter.done():
            return waiter.result()
        self._abandon(waiter)
        return None

    def _abandon(self, waiter: asyncio.Future[Sandbox | None]) -> None:
        """A borrower gave up: what was handed to it goes to the next one in line."""
        if not waiter.done():
            waiter.cancel()  # `_offer` passes over it
        elif not waiter.cancelled() and (handed := waiter.result()) is not None:
            self._offer(handed)

    def _offer(self, sandbox: Sandbox) -> None:
        """An idle sandbox: to the borrower that has waited longest, else to the idle line."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(sandbox)
                return
        self._idle.append(sandbox)

    def _state_changed(self) -> None:
        """Wake every borrower waiting for a sandbox to look at the pool again."""
        waiters, self._waiters = self._waiters, deque()
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def _give_back(self, sandbox: Sandbox) -> None:
        if self._closed:
            self._retire(sandbox)
        elif sandbox.is_alive and sandbox.jobs_done < self.max_jobs_per_sandbox:
            if sandbox.jobs_done == self._leaving_from:
                self._wake.set()  # its successor starts now (`_maintain`)
            self._offer(sandbox)
        else:
            self._retire(sandbox)

    def _retire(self, sandbox: Sandbox) -> None:
        if sandbox in self._live:
            self._live.discard(sandbox)
            self.retired_total += 1
        self._spawn_background(self.backend.remove(sandbox))
        self._wake.set()

    def _spawn_background(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # -- keeping it full

    async def _maintain(self) -> None:
        backoff_s = 0.5
        while not self._closed:
            self._wake.clear()
            missing = self.size + self._leaving() - len(self._live) - self._starting
            if missing > 0:
                # at most two at a time: the engine serialises container starts anyway
                batch = min(missing, 2)
                self._starting += batch
                results = await asyncio.gather(
                    *(self._start_one() for _ in range(batch)), return_exceptions=True
                )
                self._starting -= batch
                if any(isinstance(r, BaseException) for r in results):
                    await asyncio.sleep(backoff_s)
                    backoff_s = min(backoff_s * 2, 10.0)
                else:
                    backoff_s = 0.5
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), 1.0)
            self._drop_dead_idle()

    async def _start_one(self) -> None:
        try:
            sandbox = await self.backend.start()
        except Exception as exc:
            self.last_error = str(exc)[:500]
            log.warning("sandbox start failed: %s", self.last_error)
            self._state_changed()
            raise
        if self._closed:
            await self.backend.remove(sandbox)
            return
        self.last_error = None
        self.started_total += 1
        self._live.add(sandbox)
        self._offer(sandbox)

    @property
    def _leaving_from(self) -> int:
        """The job count from which a sandbox counts as leaving (its successor starts); past
        the limit (never) where the limit is too small to have a tenth of it."""
        lead = self.max_jobs_per_sandbox // 10
        return self.max_jobs_per_sandbox - lead if lead else self.max_jobs_per_sandbox + 1

    def _leaving(self) -> int:
        """Live sandboxes near their job limit, whose successors the pool starts ahead."""
        return sum(s.jobs_done >= self._leaving_from for s in self._live)

    def _drop_dead_idle(self) -> None:
        """Idle sandboxes whose container vanished (engine restart, `docker kill`)."""
        idle, self._idle = self._idle, deque()
        for sandbox in idle:
            if sandbox.is_alive:
                self._idle.append(sandbox)
            else:
                self._retire(sandbox)

    def stats(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "live": len(self._live),
            "idle": len(self._idle),
            "starting": self._starting,
            "leaving": self._leaving(),  # near their job limit, successors started ahead
            "started_total": self.started_total,
            "retired_total": self.retired_total,
            # live sandboxes whose image has the native launcher (the rest fork each run)
            "launcher_live": sum(bool(getattr(s, "has_launcher", False)) for s in self._live),
            # live sandboxes whose jobs each get fresh namespaces (docs: "Job namespaces")
            "job_namespaces_live": sum(
                bool(getattr(s, "has_job_namespaces", False)) for s in self._live
            ),
            "last_error": self.last_error,
        }
