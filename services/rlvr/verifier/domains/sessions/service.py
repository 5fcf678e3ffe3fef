"""SessionService: open, run a cell, close; the reaper; what a container's death means.

The table (`table.py`) decides; this shell talks to the session containers
(`sandbox/host/session_containers.py`) and turns their reports into the wire's `CellResult`.

Cells of one session run one at a time: a second call for a session waits its turn (a
per-session lock), as a notebook queues cells. A cell that ends its session (`timed_out`,
`memory_exceeded`, `output_limit_exceeded`, or its process ending) leaves a dead record: the
next calls are a 404 that says why, until it is closed or expires. A session whose container
died answers its next call once with `session_lost`, then 404.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from prometheus_client import CollectorRegistry

from rlvr.schemas.common import DomainHealth
from rlvr.schemas.sessions import (
    CellResult,
    CellStatus,
    CloseSessionResponse,
    OpenSessionRequest,
    OpenSessionResponse,
    RunCellRequest,
)
from rlvr.verifier.domains.sessions.config import SessionSettings
from rlvr.verifier.domains.sessions.metrics import SessionMetrics
from rlvr.verifier.domains.sessions.table import (
    SessionRecord,
    SessionsFull,
    SessionState,
    SessionTable,
    cell_timeout_s,
    check_files,
    replica_tag,
    resolve_limits,
)
from rlvr.verifier.errors import Overloaded, VerifierError
from rlvr.verifier.sandbox.host.backend import SandboxError, SandboxLost
from rlvr.verifier.sandbox.wire.session_protocol import CellReport, Opened, SessionKeys

log = logging.getLogger(__name__)

# Seconds the host waits past a cell's own deadline before it calls the container stuck
# (PID 1 enforces the deadline itself; this only catches a container that stopped answering).
_ANSWER_GRACE_S = 10.0


class SessionNotFound(VerifierError):
    status_code = 404
    code = "session_not_found"


class InvalidSessionRequest(VerifierError):
    status_code = 422
    code = "validation_error"


class SessionsUnavailable(VerifierError):
    """No session can be opened now (no container could start, or it refused): retry."""

    status_code = 503
    code = "sessions_unavailable"
    retry_after_s = 5

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after_s)}


class SessionService:
    def __init__(
        self,
        settings: SessionSettings,
        pool: Any,  # a SessionContainerPool (or a test's fake with place/release/stats)
        metrics: SessionMetrics,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.pool = pool
        self.metrics = metrics
        self.clock = clock
        self._background: set[asyncio.Task[Any]] = set()
        self.table = SessionTable(
            settings.max_sessions,
            settings.id_tag or replica_tag(socket.gethostname(), os.getpid()),
        )
        metrics.bind(self)

    # -- open

    async def open(self, request: OpenSessionRequest) -> OpenSessionResponse:
        limits = resolve_limits(request, self.settings)
        try:
            check_files(request.files, self.settings.max_files_bytes)
        except ValueError as exc:
            raise InvalidSessionRequest(str(exc)) from exc
        try:
            self.table.reserve()
        except SessionsFull as exc:
            raise Overloaded(str(exc), self.settings.retry_after_s) from exc
        sid = f"{self.table.tag}-{secrets.token_urlsafe(16)}"
        try:
            record = await asyncio.wait_for(
                self._open_in_container(sid, request, limits), self.settings.open_timeout_s
            )
        except TimeoutError as exc:
            raise SessionsUnavailable(
                f"no session could be opened in {self.settings.open_timeout_s:g} s"
            ) from exc
        finally:
            self.table.unreserve()
        self.table.add(record)
        self.metrics.opened.inc()
        setup = None
        if request.setup_code is not None:
            setup = await self.run_cell(sid, RunCellRequest(code=request.setup_code))
        return OpenSessionResponse(session_id=sid, limits=limits, setup=setup)

    async def _open_in_container(
        self, sid: str, request: OpenSessionRequest, limits: Any
    ) -> SessionRecord:
        try:
            container = await self.pool.place(sid)
        except SandboxError as exc:
            raise SessionsUnavailable(f"no session container available: {exc}") from exc
        message = {
            "kind": "open",
            "session": sid,
            "memory_mb": limits.memory_mb,
            "nproc": self.settings.max_processes,
            "file_size_mb": self.settings.file_size_mb,
            "cpu_s": self.settings.cpu_s,
            "files": dict(request.files),
        }
        try:
            report = await container.request(message, self.settings.open_timeout_s)
        except SandboxLost as exc:
            self.pool.release(container, sid)
            raise SessionsUnavailable(f"the session container was lost: {exc}") from exc
        except BaseException:  # cancelled (the open's own deadline): it may open meanwhile
            self.pool.release(container, sid)
            self._close_later(container, sid)
            raise
        opened: Opened = report
        if report["kind"] != "opened" or not opened["ok"]:
            self.pool.release(container, sid)
            detail = opened.get("detail", "") if report["kind"] == "opened" else "a wrong report"
            raise SessionsUnavailable(f"the session could not be opened: {detail}"[:1000])
        now = self.clock()
        return SessionRecord(sid, container, limits, opened_at=now, last_used_at=now)

    def _close_later(self, container: Any, sid: str) -> None:
        """Close `sid` in its container without waiting (an open given up on halfway)."""
        if not container.is_alive:
            return
        message = {"kind": "close", "session": sid}
        task = asyncio.ensure_future(container.request(message, 30.0))
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(lambda t: t.cancelled() or t.exception())  # seen, not logged

    # -- cells

    def _live_record(self, sid: str) -> SessionRecord | CellResult:
        """The session's record, a `session_lost` answer (once), or SessionNotFound."""
        record = self.table.get(sid)
        if record is None:
            raise SessionNotFound(self.table.missing_message(sid))
        if record.state is SessionState.lost:
            self.table.forget(sid, "lost (its sandbox container died)")
            return CellResult(
                status=CellStatus.session_lost,
                error="the session's sandbox container died: its state is gone",
                session_alive=False,
            )
        if record.state is SessionState.dead:
            raise SessionNotFound(f"session {sid[:64]!r} is dead ({record.why}): open a new one")
        return record

    async def run_cell(self, sid: str, request: RunCellRequest) -> CellResult:
        found = self._live_record(sid)
        if isinstance(found, CellResult):
            return found
        record = found
        async with record.lock:  # a session's cells, one at a time (the next one waits)
            found = self._live_record(sid)  # it may have died, or been closed, meanwhile
            if isinstance(found, CellResult):
                return found
            timeout_s = cell_timeout_s(
                request.timeout_s, record.limits, self.settings.max_timeout_s
            )
            message = {"kind": "cell", "session": sid, "code": request.code, "timeout_s": timeout_s}
            record.last_used_at = self.clock()
            try:
                report = await record.container.request(message, timeout_s + _ANSWER_GRACE_S)
            except SandboxLost:
                # its container died mid-cell: this call is told (once), then the id is gone
                if self.table.get(sid) is record:
                    self.table.forget(sid, "lost (its sandbox container died)")
                return CellResult(
                    status=CellStatus.session_lost,
                    error="the session's sandbox container died: its state is gone",
                    session_alive=False,
                )
            finally:
                record.last_used_at = self.clock()
        if report["kind"] != "cell":
            return self._sandbox_error(record, "the container answered a cell with another report")
        cell: CellReport = report
        result = cell_result(cell)
        self.metrics.cells.labels(result.status.value).inc()
        self.metrics.cell_seconds.observe(result.elapsed_s)
        if not result.session_alive:
            self._died(record, f"{result.status.value}: {result.error or ''}".strip(": "))
        return result

    def _sandbox_error(self, record: SessionRecord, why: str) -> CellResult:
        log.error("session %s: %s", record.id, why)
        self._died(record, "dead (a sandbox error)")
        return CellResult(status=CellStatus.sandbox_error, error=why, session_alive=False)

    def _died(self, record: SessionRecord, why: str) -> None:
        if record.state is SessionState.open:
            record.state, record.why = SessionState.dead, why[:300]
            self.pool.release(record.container, record.id)
            self.metrics.died.inc()

    # -- close, expiry, losses

    async def close(self, sid: str) -> CloseSessionResponse:
        record = self.table.get(sid)
        if record is None:
            raise SessionNotFound(self.table.missing_message(sid))
        was_open = record.state is SessionState.open
        await self._end(record, "closed")
        self.metrics.closed.inc()
        return CloseSessionResponse(session_id=sid, closed=was_open)

    async def _end(self, record: SessionRecord, why: str) -> None:
        """Forget the record, and tear the session down in its container if it lives."""
        self.table.forget(record.id, why)
        if record.state is not SessionState.open:
            return
        record.state = SessionState.dead
        self.pool.release(record.container, record.id)
        if record.container.is_alive:
            message = {"kind": "close", "session": record.id}
            with contextlib.suppress(SandboxError):
                await record.container.request(message, 30.0)

    async def reap(self) -> int:
        """Close every session past its idle TTL or its lifetime; how many."""
        due = self.table.due(self.clock())
        for record, why in due:
            if self.table.get(record.id) is record:
                await self._end(record, why)
                self.metrics.expired.labels("lifetime" if "lifetime" in why else "idle").inc()
        return len(due)

    async def reap_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.reaper_interval_s)
            try:
                await self.reap()
            except Exception:
                log.exception("session reaper")

    def on_ended(self, container: Any, sid: str, why: str) -> None:
        """A session's process died between cells (PID 1 said so): it is dead."""
        record = self.table.get(sid)
        if record is not None and record.container is container:
            log.warning("session %s died between cells: %s", sid, why)
            self._died(record, why)

    def on_lost(self, container: Any) -> None:
        """A container died: each of its sessions answers its next call with `session_lost`."""
        for record in self.table.in_container(container):
            if record.state is SessionState.open:
                record.state, record.why = SessionState.lost, "lost"
                self.metrics.lost.inc()
            container.sessions.discard(record.id)

    # -- reporting

    def stats(self) -> dict[str, Any]:
        return {
            "open": self.table.open_count,
            "held": self.table.held(),
            "max_sessions": self.table.max_sessions,
            **self.pool.stats(),
        }

    def health(self) -> DomainHealth:
        stats = self.stats()
        if stats.get("containers", 0) == 0 and stats.get("last_error"):
            return DomainHealth(
                ok=False, detail=f"session sandbox unavailable: {stats['last_error']}", stats=stats
            )
        return DomainHealth(ok=True, stats=stats)


def cell_result(report: CellReport) -> CellResult:
    """The wire's `CellResult` from PID 1's decoded report (its status is one of five words)."""
    return CellResult(
        status=CellStatus(report["status"]),
        stdout=report["stdout"],
        stderr=report["stderr"],
        value=report["value"],
        error=report["error"],
        elapsed_s=report["elapsed_s"],
        session_alive=report["alive"],
    )


class SessionsNotOffered(VerifierError):
    """This process offers no sessions (disabled, or an engine URL it cannot use): a 404 that
    says so, never a 503 a client would retry forever."""

    status_code = 404
    code = "sessions_not_offered"


class DisabledSessions:
    """`/sessions` where this process offers none (disabled, or no usable Docker engine):
    every call a 404 that says why."""

    def __init__(
        self, detail: str = "sessions are disabled here (VERIFIER_SESSIONS__IS_ENABLED)"
    ) -> None:
        self.detail = detail

    def health(self) -> DomainHealth:
        return DomainHealth(ok=False, offered=False, detail=self.detail)

    def _refuse(self) -> SessionsNotOffered:
        return SessionsNotOffered(self.detail)

    async def open(self, request: OpenSessionRequest) -> OpenSessionResponse:
        raise self._refuse()

    async def run_cell(self, sid: str, request: RunCellRequest) -> CellResult:
        raise self._refuse()

    async def close(self, sid: str) -> CloseSessionResponse:
        raise self._refuse()


@contextlib.asynccontextmanager
async def open_session_service(
    settings: SessionSettings, registry: CollectorRegistry
) -> AsyncIterator[SessionService | DisabledSessions]:
    """The service with its container pool and reaper, for the app's lifespan."""
    if not settings.is_enabled:
        yield DisabledSessions()
        return
    from rlvr.verifier.sandbox.host.docker import DockerBackend
    from rlvr.verifier.sandbox.host.session_containers import (
        SESSION_MAIN,
        SessionContainerPool,
    )

    need_pids = settings.sessions_per_container * (settings.max_processes + 3) + 16
    sandbox = settings.sandbox.model_copy(
        update={"pids_limit": max(settings.sandbox.pids_limit, need_pids)}
    )
    keys: SessionKeys = {
        "max_sessions": settings.sessions_per_container,
        "session_tmpfs_mb": settings.tmpfs_mb,
    }
    # a cell's output bound is the sandbox's per-run one, from the sessions' own setting
    sandbox = sandbox.model_copy(update={"output_limit_bytes": settings.output_limit_bytes})
    service: SessionService | None = None

    def on_ended(container: Any, sid: str, why: str) -> None:
        if service is not None:
            service.on_ended(container, sid, why)

    def on_lost(container: Any) -> None:
        if service is not None:
            service.on_lost(container)

    try:
        backend = DockerBackend(sandbox, main=SESSION_MAIN, session_keys=keys)
    except SandboxError as exc:  # an engine URL we cannot use: said by /health and each call
        yield DisabledSessions(f"sessions unavailable: {exc}")
        return
    pool = SessionContainerPool(
        backend, settings.sessions_per_container, settings.min_containers, on_ended, on_lost
    )
    service = SessionService(settings, pool, SessionMetrics(registry))
    await pool.start(settings.warm_timeout_s)
    reaper = asyncio.create_task(service.reap_forever(), name="session-reaper")
    try:
        yield service
    finally:
        reaper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reaper
        await pool.close()
