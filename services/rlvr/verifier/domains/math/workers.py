"""A killable process pool (pebble) with hard per-task deadlines, awaited without blocking the loop.

A task past its deadline has its worker process killed (SymPy can spin in C code where no signal
or exception reaches it); a worker that dies is replaced by pebble and only its task fails.
Workers come from a forkserver that has already imported SymPy and the grader, so a replacement
starts in milliseconds.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pebble import ProcessExpired, ProcessPool

log = logging.getLogger(__name__)

OutcomeKind = Literal["ok", "timeout", "crash", "error"]


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: OutcomeKind
    value: Any = None
    message: str = ""


class WorkerPool:
    def __init__(self, workers: int, preload: Sequence[str] = ()) -> None:
        self.workers = workers
        self._preload = list(preload)
        self._pool = self._new_pool()
        self.submitted = 0
        self.completed = 0
        self.timeouts = 0
        self.crashes = 0
        self.errors = 0
        self.in_flight = 0
        self.restarts = 0

    def _new_pool(self) -> ProcessPool:
        context = multiprocessing.get_context("forkserver")
        # pebble itself is preloaded too: a replacement worker unpickles pebble's worker loop,
        # and importing pebble there would cost ~0.2 s of the next item's deadline
        context.set_forkserver_preload(["pebble.pool.process", *self._preload])
        return ProcessPool(max_workers=self.workers, context=context)

    async def run(self, fn: Callable[..., Any], args: Sequence[Any], timeout_s: float) -> Outcome:
        """Run `fn(*args)` in a worker; the worker is killed if it runs past `timeout_s`."""
        if not self._pool.active:
            self._restart("pool was not active")
        self.submitted += 1
        self.in_flight += 1
        pool = self._pool
        future = pool.schedule(fn, args=list(args), timeout=timeout_s)
        try:
            value = await asyncio.wrap_future(future)
        except concurrent.futures.TimeoutError:
            self.timeouts += 1
            return Outcome("timeout", message=f"timed out after {timeout_s:g} s")
        except ProcessExpired as exc:
            self.crashes += 1
            log.warning("math worker died (exit code %s)", exc.exitcode)
            if pool is self._pool:
                self._replace(pool, f"a worker died mid-task (exit code {exc.exitcode})")
            return Outcome(
                "crash",
                message=f"worker process died (exit code {exc.exitcode}); it was replaced",
            )
        except asyncio.CancelledError:
            future.cancel()  # kills the worker if the task is running
            raise
        except Exception as exc:  # the grader's own bug: logged, reported as the verifier's fault
            self.errors += 1
            log.exception("math worker raised")
            return Outcome("error", message=f"verifier error: {type(exc).__name__}: {exc}"[:300])
        finally:
            self.in_flight -= 1
        self.completed += 1
        return Outcome("ok", value=value)

    def _restart(self, why: str) -> None:
        log.warning("restarting math pool: %s", why)
        try:
            self._pool.stop()
        except Exception:  # pragma: no cover - best effort on a broken pool
            log.exception("stopping the broken pool failed")
        self._pool = self._new_pool()
        self.restarts += 1

    def _replace(self, pool: ProcessPool, why: str) -> None:
        """A fresh pool for the next tasks. A worker killed from outside (the OOM killer, a
        signal) may have died holding the lock pebble's workers take tasks under; that lock is
        never released, and every later worker of that pool would wait on it. The old pool is
        closed, not stopped: its queued tasks still finish where they can (stopping it would
        cancel them under their awaiting items), and it goes once they are done."""
        log.warning("replacing math pool: %s", why)
        self._pool = self._new_pool()
        self.restarts += 1
        try:
            pool.close()
        except Exception:  # pragma: no cover - best effort on a broken pool
            log.exception("closing the old pool failed")

    def warm_up(self, fn: Callable[..., Any], args: Sequence[Any], timeout_s: float) -> None:
        """Start every worker now (blocking), so the first request does not pay for it."""
        started = time.perf_counter()
        futures = [
            self._pool.schedule(fn, args=list(args), timeout=timeout_s) for _ in range(self.workers)
        ]
        for future in futures:
            try:
                future.result()
            except Exception:
                log.exception("warm-up task failed")
        log.info("math pool warm in %.2f s", time.perf_counter() - started)

    def stats(self) -> dict[str, Any]:
        return {
            "workers": self.workers,
            "active": bool(self._pool.active),
            "in_flight": self.in_flight,
            "submitted": self.submitted,
            "completed": self.completed,
            "timeouts": self.timeouts,
            "crashes": self.crashes,
            "errors": self.errors,
            "restarts": self.restarts,
        }

    def close(self) -> None:
        self._pool.stop()
        self._pool.join(timeout=10)
