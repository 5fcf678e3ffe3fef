"""The containers that hold stateful sessions (many per container), apart from `/code`'s pool.

A `SessionContainer` is one container whose PID 1 is `inside/session_executor.py`: requests go
down its attach stream numbered by `seq`, reports come back in any order (cells of different
sessions run side by side) and are matched to their request here; an `ended` report (a
session's process died between cells) and the container's own death are passed to the owner's
callbacks. Every report is decoded with checks (`decode_session_report`): nothing the
container says is trusted.

`SessionContainerPool` places sessions on containers (`capacity` each): on the least loaded one
with room, starting another when none has room, and keeping one spare start ahead of demand.
A container that dies loses only its own sessions. Judged `/code` jobs never run here.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Callable
from typing import Any, Protocol

from rlvr.verifier.sandbox.host.backend import SandboxLost, SandboxUnavailable
from rlvr.verifier.sandbox.host.docker import DockerBackend, FrameStream
from rlvr.verifier.sandbox.wire.frames import encode_frame
from rlvr.verifier.sandbox.wire.session_protocol import (
    Ended,
    SessionReport,
    decode_session_report,
)

log = logging.getLogger(__name__)

SESSION_MAIN = "rlvr.verifier.sandbox.inside.session_executor"

EndedCallback = Callable[["SessionContainerLike", str, str], None]
LostCallback = Callable[["SessionContainerLike"], None]


class SessionContainerLike(Protocol):
    """What the sessions domain needs of a container (the Docker one, or a test's fake)."""

    name: str
    capacity: int
    sessions: set[str]

    @property
    def is_alive(self) -> bool: ...

    async def request(self, message: dict[str, Any], timeout_s: float) -> SessionReport:
        """PID 1's report for `message` (its `seq` is set here); SandboxLost when the
        container dies or does not answer in `timeout_s` (it is then retired)."""
        ...


class SessionContainer:
    """One container of sessions and its stream."""

    def __init__(
        self,
        container_id: str,
        name: str,
        stream: FrameStream,
        capacity: int,
        on_ended: EndedCallback,
        on_lost: LostCallback,
    ) -> None:
        self.container_id, self.name, self.stream = container_id, name, stream
        self.capacity = capacity
        self.sessions: set[str] = set()  # placed here: opening or open
        self._on_ended, self._on_lost = on_ended, on_lost
        self._seq = itertools.count(1)
        self._pending: dict[int, asyncio.Future[SessionReport]] = {}
        self._alive = True
        self._pump = asyncio.ensure_future(self._read_reports())

    @property
    def is_alive(self) -> bool:
        return self._alive

    async def request(self, message: dict[str, Any], timeout_s: float) -> SessionReport:
        if not self._alive:
            raise SandboxLost(f"session container {self.name} is gone")
        seq = next(self._seq)
        future: asyncio.Future[SessionReport] = asyncio.get_running_loop().create_future()
        self._pending[seq] = future
        try:
            await self.stream.send(encode_frame({**message, "seq": seq}))
            return await asyncio.wait_for(asyncio.shield(future), timeout_s)
        except TimeoutError as exc:  # PID 1 enforces every deadline: silence means it is stuck
            self.mark_dead()
            message_ = f"session container {self.name} did not answer in {timeout_s:.0f}s"
            raise SandboxLost(message_) from exc
        except OSError as exc:
            self.mark_dead()
            raise SandboxLost(f"session container {self.name} is gone: {exc}") from exc
        finally:
            self._pending.pop(seq, None)

    async def _read_reports(self) -> None:
        try:
            while True:
                frame = await self.stream.read_frame()
                try:
                    report = decode_session_report(frame)
                except ValueError as exc:  # PID 1 is ours: a malformed report is a broken one
                    log.error("session container %s sent a malformed report: %s", self.name, exc)
                    return
                if report["kind"] == "ended":
                    ended: Ended = report
                    self._on_ended(self, ended["session"], ended["why"])
                    continue
                future = self._pending.get(report["seq"])
                if future is not None and not future.done():
                    future.set_result(report)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            self._die()

    def _die(self) -> None:
        was_alive, self._alive = self._alive, False
        for future in self._pending.values():
            if not future.done():
                future.set_exception(SandboxLost(f"session container {self.name} died"))
        self._pending.clear()
        if was_alive:
            self._on_lost(self)

    def mark_dead(self) -> None:
        self.stream.close()
        self._pump.cancel()
        self._die()


class SessionContainerPool:
    """Containers of sessions: placement, on-demand starts, removal of the dead."""

    def __init__(
        self,
        backend: DockerBackend,
        capacity: int,
        min_containers: int,
        on_ended: EndedCallback,
        on_lost: LostCallback,
    ) -> None:
        self.backend = backend
        self.capacity = capacity
        self.min_containers = min_containers
        self._on_ended, self._on_lost = on_ended, on_lost
        self.containers: list[SessionContainer] = []
        self._starting: asyncio.Task[SessionContainer] | None = None
        self._background: set[asyncio.Task[Any]] = set()
        self._closed = False
        self._swept = False
        self.last_error: str | None = None
        self.started_total = 0
        self.lost_total = 0
        self.retired_total = 0

    async def start(self, warm_timeout_s: float) -> None:
        """Start `min_containers` (none: the first open starts one, and no Docker call is
        made before)."""
        for _ in range(self.min_containers):
            try:
                await asyncio.wait_for(self._start_one(), warm_timeout_s)
            except (TimeoutError, SandboxUnavailable) as exc:
                self.last_error = str(exc)[:500]
                log.warning("session container start failed: %s", self.last_error)
                return

    async def close(self) -> None:
        self._closed = True
        for task in list(self._background):
            task.cancel()
        for container in list(self.containers):
            container.mark_dead()
        self.containers.clear()
        await self.backend.close()

    @property
    def free_slots(self) -> int:
        return sum(c.capacity - len(c.sessions) for c in self.containers if c.is_alive)

    async def place(self, sid: str) -> SessionContainerLike:
        """A container with room for one more session (the slot is taken for `sid`)."""
        while True:
            if self._closed:
                raise SandboxUnavailable("the session pool is shut down")
            room = [c for c in self.containers if c.is_alive and len(c.sessions) < c.capacity]
            if room:
                container = min(room, key=lambda c: len(c.sessions))
                container.sessions.add(sid)
                if self.free_slots < max(1, self.capacity // 4):
                    self._start_ahead()  # the next container is ready before it is needed
                return container
            await self._start_shared()

    def release(self, container: SessionContainerLike, sid: str) -> None:
        """Free `sid`'s slot; a container left empty is retired while a whole container's
        room remains without it (and more than `min_containers` run): a burst's containers
        do not outlive it, and no start and retire follow each other at one edge."""
        container.sessions.discard(sid)
        if (
            not container.sessions
            and isinstance(container, SessionContainer)
            and container in self.containers
            and len(self.containers) > max(1, self.min_containers)
            and self.free_slots - container.capacity >= self.capacity
        ):
            self.containers.remove(container)
            self.retired_total += 1
            container.mark_dead()  # its removal follows (`_container_died`)

    def _start_ahead(self) -> None:
        if self._starting is None or self._starting.done():
            self._starting = asyncio.ensure_future(self._start_one())
            self._background.add(self._starting)
            self._starting.add_done_callback(self._started)

    def _started(self, task: asyncio.Task[Any]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.last_error = str(task.exception())[:500]

    async def _start_shared(self) -> None:
        """One start at a time, awaited by everyone who needs room (the engine serialises
        container starts anyway)."""
        self._start_ahead()
        assert self._starting is not None
        await asyncio.shield(self._starting)

    async def _start_one(self) -> SessionContainer:
        if not self._swept:  # containers of a dead process of ours, once, before the first
            self._swept = True
            with contextlib.suppress(Exception):
                await self.backend.cleanup_stale()
        try:
            container_id, name, stream, _ready = await self.backend.launch()
        except SandboxUnavailable as exc:
            self.last_error = str(exc)[:500]
            raise
        container = SessionContainer(
            container_id, name, stream, self.capacity, self._on_ended, self._container_died
        )
        self.last_error = None
        self.started_total += 1
        self.containers.append(container)
        return container

    def _container_died(self, container: SessionContainerLike) -> None:
        """A container's stream ended: lost (its sessions with it), or retired (empty)."""
        if container in self.containers:
            self.containers.remove(container)
            self.lost_total += 1
            self._on_lost(container)
        if isinstance(container, SessionContainer) and not self._closed:
            task = asyncio.ensure_future(self.backend.remove_id(container.container_id))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    def stats(self) -> dict[str, Any]:
        live = [c for c in self.containers if c.is_alive]
        return {
            "containers": len(live),
            "sessions_per_container": self.capacity,
            "free_slots": self.free_slots,
            "containers_started_total": self.started_total,
            "containers_lost_total": self.lost_total,
            "containers_retired_total": self.retired_total,
            "last_error": self.last_error,
        }
