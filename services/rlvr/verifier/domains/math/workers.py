"""A killable process pool (pebble) with hard per-task deadlines, awaited without blocking the loop.

A task past its deadline has its worker process killed (SymPy can spin in C code where no signal
or exception reaches it); a worker that dies is replaced by pebble and only its task fails.
Workers come from a forkserver that has already imported SymPy and the grader, so a replacement
starts in milliseconds.

A pebble pool that is replaced keeps its manager threads and respawns its workers until it is
*joined*, not only closed or stopped: every pool this one gives up is joined (in a thread of its
own, after its running tasks end), so the processes alive stay at `workers`. Pebble also marks a
pool broken when a worker dies while no task is running (an idle worker killed from outside);
such a pool is replaced at once, by the next task or by the health check, whichever comes first.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pebble import ProcessExpired, ProcessPool

from rlvr.schemas.common import DomainHealth

log = logging.getLogger(__name__)

OutcomeKind = Literal["ok", "timeout", "crash", "error"]


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: OutcomeKind
    value: Any = None
    message: str = ""


def _is_being_cancelled() -> bool:
    """Whether the awaiting task itself was cancelled (not only the pebble future under it)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


# pebble itself is preloaded too: a replacement worker unpickles pebble's worker loop, and
# importing pebble there would cost ~0.2 s of the next item's deadline.
_FORKSERVER_PRELOAD: set[str] = {"pebble.pool.process"}


def preload_in_forkserver(*modules: str) -> None:
    """Have the process's forkserver import `modules` when it starts.

    A process has one forkserver for every pool (math, gym, ifeval), and it imports what was
    asked when it started: a pool made after another started it would fork workers without its
    modules, and each replacement worker would import them inside an item's deadline. So each
    domain's verifier module registers its workers' modules when it is imported: the app (and a
    test session, at collection) imports them all before the first pool starts the forkserver.
    """
    _FORKSERVER_PRELOAD.update(modules)
    multiprocessing.get_context("forkserver").set_forkserver_preload(sorted(_FORKSERVER_PRELOAD))


class WorkerPool:
    def __init__(self, workers: int, preload: Sequence[str] = (), drain_s: float = 30.0) -> None:
        """`drain_s`: how long a replaced pool may keep running its tasks (the longest item
        deadline) before it is stopped."""
        self.workers = workers
        self.drain_s = drain_s
        self._preload = list(preload)
        self._retiring: set[threading.Thread] = set()
        self._pool = self._new_pool()
        self.submitted = 0
        self.completed = 0
        self.timeouts = 0
        self.crashes = 0
        self.errors = 0
        self.in_flight = 0
        self.restarts = 0
        self.moved = 0  # tasks taken back from a replaced pool before they started, run again
        self._waiting: dict[int, set[Any]] = {}  # per pool (by id): its tasks' futures
        self._moving: set[Any] = set()  # futures cancelled to move their task to a new pool

    def _new_pool(self) -> ProcessPool:
        context = multiprocessing.get_context("forkserver")
        preload_in_forkserver(*self._preload)
        pool = ProcessPool(max_workers=self.workers, context=context)
        _ = pool.active  # starts its workers now: a replacement is warm for the next item
        return pool

    async def run(self, fn: Callable[..., Any], args: Sequence[Any], timeout_s: float) -> Outcome:
        """Run `fn(*args)` in a worker; the worker is killed if it runs past `timeout_s`."""
        if not self._pool.active:
            self._restart("pool was not active")
        self.submitted += 1
        self.in_flight += 1
        try:
            while True:
                pool = self._pool
                future = pool.schedule(fn, args=list(args), timeout=timeout_s)
                waiting = self._waiting.setdefault(id(pool), set())
                waiting.add(future)
                try:
                    value = await asyncio.wrap_future(future)
                    break
                except asyncio.CancelledError:
                    if future not in self._moving or _is_being_cancelled():
                        raise
                    self.moved += 1  # taken from a replaced pool before it started: again
                finally:
                    waiting.discard(future)
                    self._moving.discard(future)
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
        self._waiting.pop(id(self._pool), None)  # stopped: its tasks end there
        old = self._pool
        try:
            old.stop()
        except Exception:  # pragma: no cover - best effort on a broken pool
            log.exception("stopping the broken pool failed")
        self._pool = self._new_pool()
        self.restarts += 1
        self._retire(old, drain_s=0.0)

    def _retire(self, pool: ProcessPool, drain_s: float) -> None:
        """Join `pool` in the background (its workers and manager threads end): at once if it
        is stopped, else after its running tasks, or `drain_s`, whichever comes first."""

        def join() -> None:
            try:
                if drain_s > 0:
                    try:
                        pool.join(timeout=drain_s)
                        return
                    except TimeoutError:
                        pool.stop()
                pool.join()
            except Exception:  # pragma: no cover - best effort on a broken pool
                log.exception("joining a replaced math pool failed")
            finally:
                self._retiring.discard(thread)

        thread = threading.Thread(target=join, name="math-pool-retire", daemon=True)
        self._retiring.add(thread)
        thread.start()

    def ensure_alive(self) -> bool:
        """Replace the pool if pebble gave it up (an idle worker killed): whether it serves."""
        if not self._pool.active:
            self._restart("pool was not active (a worker died while idle)")
        return bool(self._pool.active)

    def _replace(self, pool: ProcessPool, why: str) -> None:
        """A fresh pool for the next tasks. A worker killed from outside (the OOM killer, a
        signal) may have died holding the lock pebble's workers take tasks under; that lock is
        never released, and every later worker of that pool would wait on it. The old pool is
        closed, not stopped: a task running there still finishes (stopping it would cancel it
        under its awaiting item), and it goes once they are done."""
        log.warning("replacing math pool: %s", why)
        self._pool = self._new_pool()
        self.restarts += 1
        # Its tasks no worker has taken yet would wait behind that lock: they move to the new
        # pool (their `run` schedules them again). A task already running there stays.
        for future in self._waiting.pop(id(pool), set()):
            if not future.running() and future.cancel():
                self._moving.add(future)
        try:
            pool.close()
        except Exception:  # pragma: no cover - best effort on a broken pool
            log.exception("closing the old pool failed")
        self._retire(pool, drain_s=self.drain_s)

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
            "moved": self.moved,
        }

    def health(self, domain: str, **domain_stats: Any) -> DomainHealth:
        """A pooled domain's health: a pool pebble gave up (an idle worker killed) is replaced
        now, not at the next item, so a monitor (or Ray Serve's health check) never sees a
        domain down that the next item would find serving. One place for math, gym and ifeval."""
        alive = self.ensure_alive()
        stats = {**self.stats(), **domain_stats}
        ok = alive and bool(stats["active"])
        detail = "" if ok else f"{domain} worker pool is down"
        return DomainHealth(ok=ok, detail=detail, stats=stats)

    def close(self) -> None:
        self._pool.stop()
        self._pool.join(timeout=10)
        for thread in list(self._retiring):
            thread.join(timeout=self.drain_s + 10)
