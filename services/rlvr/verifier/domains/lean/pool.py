"""A warm pool of REPLs keyed by header: the header is elaborated once per REPL, its env reused.

`async with pool.acquire(header) as warm:` hands out a `WarmRepl` (an idle one for that header,
or a new one started while under `pool_size_per_header` and `max_repls`; an idle REPL of another
header is evicted to make room). On exit a REPL goes back to the idle list unless it is broken
(timeout, crash, protocol error), has served `max_proofs_per_repl` proofs, or has grown past
`max_rss_mb`: then it is killed and a fresh one is started on a later acquire. The bounded queue
in front of it (`max_queue`) is the verifier's `Admission`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from rlvr.verifier.domains.lean.config import LeanSettings
from rlvr.verifier.domains.lean.protocol import LeanMessage, Reply
from rlvr.verifier.domains.lean.repl import Repl, ReplBase, ReplCrashed, ReplTimeout

log = logging.getLogger(__name__)

_FAILED_HEADER_CACHE = 64


class HeaderFailed(Exception):
    """The header does not elaborate (the caller's input, reported per item)."""


@dataclass
class WarmRepl:
    """A REPL with its header elaborated (`header_env`) and the references it already built."""

    repl: ReplBase
    header: str
    header_env: int
    header_messages: tuple[LeanMessage, ...] = ()
    # statement key -> (reference name, its env, the messages of the reply that made that env)
    references: OrderedDict[str, tuple[str, int, tuple[LeanMessage, ...]]] = field(
        default_factory=OrderedDict
    )
    is_broken: bool = False

    async def run(self, cmd: str, env: int | None, timeout_s: float) -> Reply:
        try:
            return await self.repl.run(cmd, env, timeout_s)
        except BaseException:
            # a timeout, a crash, or a cancelled request: a reply may still be on its way, so
            # this REPL's stream can no longer be trusted
            self.is_broken = True
            raise


ReplFactory = Callable[[LeanSettings], ReplBase]


def process_factory(settings: LeanSettings) -> Repl:
    """UNSAFE development REPLs (children of the service); containers are `LeanContainers`."""
    return Repl(
        settings.command(), cwd=settings.working_dir(), memory_limit_mb=settings.memory_limit_mb
    )


class ReplPool:
    def __init__(self, settings: LeanSettings, factory: ReplFactory = process_factory) -> None:
        self.settings = settings
        self._factory = factory
        self._idle: dict[str, deque[WarmRepl]] = {}
        self._alive: dict[str, int] = {}  # per header: idle + in use + starting
        self._changed = asyncio.Condition()
        self._waiting = 0
        self._failed_headers: OrderedDict[str, str] = OrderedDict()
        self._closed = False
        self.started = 0
        self.recycled = 0
        self.last_start_error: str | None = None

    # -- acquire / release -----------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def acquire(self, header: str) -> AsyncIterator[WarmRepl]:
        warm = await self._take(header)
        try:
            yield warm
        finally:
            await self._give_back(warm)

    def _total_alive(self) -> int:
        return sum(self._alive.values())

    def _evict_idle_elsewhere(self, header: str) -> WarmRepl | None:
        for other, idle in self._idle.items():
            if other != header and idle:
                victim = idle.popleft()
                self._alive[other] -= 1
                return victim
        return None

    async def _take(self, header: str) -> WarmRepl:
        if header in self._failed_headers:
            raise HeaderFailed(self._failed_headers[header])
        victim: WarmRepl | None = None
        async with self._changed:
            self._waiting += 1
            try:
                while True:
                    if self._closed:
                        raise ReplCrashed("the Lean pool is shut down")
                    if header in self._failed_headers:
                        raise HeaderFailed(self._failed_headers[header])
                    idle = self._idle.get(header)
                    while idle:
                        warm = idle.popleft()
                        if warm.repl.is_alive:
                            return warm
                        self._alive[header] -= 1  # died while idle (e.g. the OOM killer)
                        self.recycled += 1
                    mine = self._alive.get(header, 0)
                    if mine < self.settings.pool_size_per_header:
                        if self._total_alive() < self.settings.max_repls:
                            break
                        victim = self._evict_idle_elsewhere(header)
                        if victim is not None:
                            break
                    await self._changed.wait()
                self._alive[header] = self._alive.get(header, 0) + 1
            finally:
                self._waiting -= 1
        if victim is not None:
            await victim.repl.kill()
            self.recycled += 1
        try:
            return await self._start(header)
        except BaseException:
            async with self._changed:
                self._alive[header] -= 1
                self._changed.notify_all()
            raise

    async def _start(self, header: str) -> WarmRepl:
        try:
            warm = await self._start_unrecorded(header)
        except (ReplCrashed, OSError) as exc:
            self.last_start_error = str(exc)
            raise
        self.last_start_error = None
        return warm

    async def _start_unrecorded(self, header: str) -> WarmRepl:
        repl = self._factory(self.settings)
        try:
            await repl.start()
        except OSError as exc:
            raise ReplCrashed(
                f"cannot start the Lean REPL {self.settings.command()}: {exc}"
            ) from exc
        self.started += 1
        try:
            reply = await repl.run(header, None, self.settings.header_timeout_s)
        except ReplTimeout as exc:
            raise ReplCrashed(
                f"header took longer than header_timeout_s={self.settings.header_timeout_s}"
            ) from exc
        except BaseException:
            await repl.kill()
            raise
        if reply.env is None or reply.errors:
            await repl.kill()
            why = reply.error or (reply.errors[0].text if reply.errors else "no env")
            detail = f"the header does not elaborate: {why.strip().splitlines()[0][:300]}"
            self._failed_headers[header] = detail
            while len(self._failed_headers) > _FAILED_HEADER_CACHE:
                self._failed_headers.popitem(last=False)
            raise HeaderFailed(detail)
        return WarmRepl(
            repl=repl, header=header, header_env=reply.env, header_messages=reply.messages
        )

    def _should_recycle(self, warm: WarmRepl) -> bool:
        if warm.is_broken or not warm.repl.is_alive or self._closed:
            return True
        if warm.repl.proofs >= self.settings.max_proofs_per_repl:
            return True
        if self.settings.max_rss_mb:
            rss = warm.repl.rss_mb()
            if rss is not None and rss > self.settings.max_rss_mb:
                log.info("recycling a Lean REPL at %.0f MiB RSS", rss)
                return True
        return False

    async def _give_back(self, warm: WarmRepl) -> None:
        if self._should_recycle(warm):
            await warm.repl.kill()
            self.recycled += 1
            async with self._changed:
                self._alive[warm.header] -= 1
                self._changed.notify_all()
            return
        async with self._changed:
            self._idle.setdefault(warm.header, deque()).append(warm)
            self._changed.notify_all()

    async def prewarm(self, header: str) -> None:
        """Start one REPL for `header` ahead of the first request (errors are only logged)."""
        try:
            async with self.acquire(header):
                pass
        except Exception as exc:  # a prewarm failure must not stop the service
            log.warning("Lean prewarm failed: %s", exc)

    async def close(self) -> None:
        async with self._changed:
            self._closed = True
            idle = [w for queue in self._idle.values() for w in queue]
            self._idle.clear()
            self._changed.notify_all()
        for warm in idle:
            await warm.repl.kill()

    def stats(self) -> dict[str, object]:
        return {
            "repls_alive": self._total_alive(),
            "repls_idle": sum(len(q) for q in self._idle.values()),
            "headers": sum(1 for count in self._alive.values() if count),
            "waiting": self._waiting,
            "repls_started": self.started,
            "repls_recycled": self.recycled,
            "last_start_error": self.last_start_error,
        }
