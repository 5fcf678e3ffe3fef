"""The session table, admission, the reaper and container losses, on FAKE containers (no
Docker): the host's decisions, fast. The real paths are `tests/rlvr/verifier/api/
test_sessions_api.py` and `test_session_isolation.py` (Docker)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from prometheus_client import CollectorRegistry

from rlvr.schemas.sessions import CellStatus, OpenSessionRequest, RunCellRequest
from rlvr.verifier.domains.sessions.config import SessionSettings
from rlvr.verifier.domains.sessions.metrics import SessionMetrics
from rlvr.verifier.domains.sessions.service import (
    DisabledSessions,
    InvalidSessionRequest,
    SessionNotFound,
    SessionService,
    SessionsNotOffered,
    SessionsUnavailable,
)
from rlvr.verifier.domains.sessions.table import check_files, resolve_limits
from rlvr.verifier.errors import Overloaded
from rlvr.verifier.sandbox.host.backend import SandboxLost


class FakeContainer:
    """A FAKE session container: answers like PID 1, runs nothing (a cell's `code` names its
    outcome: `ok`, `timed_out`, `hang`, ...)."""

    def __init__(self, name: str, capacity: int = 4) -> None:
        self.name, self.capacity = name, capacity
        self.sessions: set[str] = set()
        self.alive = True
        self.requests: list[dict[str, Any]] = []
        self.release_cell = asyncio.Event()
        self.slow_open_s = 0.0

    @property
    def is_alive(self) -> bool:
        return self.alive

    async def request(self, message: dict[str, Any], timeout_s: float) -> Any:
        if not self.alive:
            raise SandboxLost("gone")
        self.requests.append(message)
        sid = message["session"]
        if message["kind"] == "open" and self.slow_open_s:
            await asyncio.sleep(self.slow_open_s)
        if message["kind"] == "open":
            return {"kind": "opened", "seq": 1, "session": sid, "ok": True, "detail": ""}
        if message["kind"] == "close":
            return {"kind": "closed", "seq": 1, "session": sid, "was_open": True}
        if message["code"] == "hang":
            await self.release_cell.wait()
            if not self.alive:
                raise SandboxLost("died mid-cell")
        status = "ok" if message["code"] in ("ok", "hang") else message["code"]
        return {
            "kind": "cell", "seq": 1, "session": sid, "status": status, "stdout": "",
            "stderr": "", "value": None, "error": None if status == "ok" else status,
            "elapsed_s": 0.001, "alive": status in ("ok", "error"),
        }  # fmt: skip


class FakePool:
    """A FAKE pool of FakeContainers, `capacity` sessions each."""

    def __init__(self) -> None:
        self.containers: list[FakeContainer] = []

    async def place(self, sid: str) -> FakeContainer:
        room = [c for c in self.containers if c.alive and len(c.sessions) < c.capacity]
        if not room:
            room = [FakeContainer(f"c{len(self.containers)}")]
            self.containers.extend(room)
        room[0].sessions.add(sid)
        return room[0]

    def release(self, container: FakeContainer, sid: str) -> None:
        container.sessions.discard(sid)

    def stats(self) -> dict[str, Any]:
        return {"containers": len(self.containers), "last_error": None}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_service(**settings: Any) -> tuple[SessionService, FakePool, Clock]:
    pool, clock = FakePool(), Clock()
    service = SessionService(
        SessionSettings(**settings), pool, SessionMetrics(CollectorRegistry()), clock
    )
    return service, pool, clock


def test_limits_take_defaults_and_are_capped() -> None:
    settings = SessionSettings(max_memory_mb=1024, max_timeout_s=60, max_idle_ttl_s=100)
    limits = resolve_limits(OpenSessionRequest(memory_mb=4096, idle_ttl_s=5), settings)
    assert limits.memory_mb == 1024 and limits.idle_ttl_s == 5
    assert limits.timeout_s == settings.default_timeout_s
    assert limits.max_lifetime_s == settings.default_max_lifetime_s
    assert resolve_limits(OpenSessionRequest(timeout_s=600), settings).timeout_s == 60


@pytest.mark.parametrize(
    "files",
    [{"/etc/passwd": ""}, {"../x": ""}, {"a//b": ""}, {"a/./b": ""}, {"": ""}, {"x": "%%%"}],
)
def test_files_that_are_not_plain_relative_base64_are_refused(files: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        check_files(files, 1 << 20)


def test_files_over_the_byte_limit_are_refused() -> None:
    with pytest.raises(ValueError, match="max_files_bytes"):
        check_files({"a": "eHh4eA=="}, 3)
    check_files({"a/b.txt": "eHh4eA=="}, 4)


async def test_beyond_max_sessions_an_open_is_overloaded_with_retry_after() -> None:
    service, _, _ = make_service(max_sessions=2, retry_after_s=7)
    first = await service.open(OpenSessionRequest())
    await service.open(OpenSessionRequest())
    with pytest.raises(Overloaded) as refused:
        await service.open(OpenSessionRequest())
    assert refused.value.headers() == {"Retry-After": "7"}
    await service.close(first.session_id)
    await service.open(OpenSessionRequest())  # the place came back


async def test_bad_files_are_a_422_before_any_place_is_taken() -> None:
    service, pool, _ = make_service(max_sessions=1)
    with pytest.raises(InvalidSessionRequest):
        await service.open(OpenSessionRequest(files={"../x": ""}))
    assert service.table.held() == 0 and not pool.containers


async def test_the_reaper_closes_idle_sessions_but_not_one_running_a_cell() -> None:
    service, pool, clock = make_service()
    idle = (await service.open(OpenSessionRequest(idle_ttl_s=10))).session_id
    busy = (await service.open(OpenSessionRequest(idle_ttl_s=10))).session_id
    running = asyncio.ensure_future(service.run_cell(busy, RunCellRequest(code="hang")))
    await asyncio.sleep(0)
    clock.now += 11
    assert await service.reap() == 1
    with pytest.raises(SessionNotFound, match="idle"):
        await service.run_cell(idle, RunCellRequest(code="ok"))
    pool.containers[0].release_cell.set()
    assert (await running).status is CellStatus.ok
    close = [r for r in pool.containers[0].requests if r["kind"] == "close"]
    assert [r["session"] for r in close] == [idle]


async def test_the_lifetime_closes_a_session_whatever_it_does() -> None:
    service, _, clock = make_service()
    sid = (await service.open(OpenSessionRequest(max_lifetime_s=60))).session_id
    for _ in range(5):
        clock.now += 10
        await service.run_cell(sid, RunCellRequest(code="ok"))  # never idle
        assert await service.reap() == 0
    clock.now += 10
    assert await service.reap() == 1
    with pytest.raises(SessionNotFound, match="lifetime"):
        await service.run_cell(sid, RunCellRequest(code="ok"))


async def test_a_lost_container_answers_session_lost_once_then_404_for_its_own_only() -> None:
    service, pool, _ = make_service()
    ids = [(await service.open(OpenSessionRequest())).session_id for _ in range(5)]
    lost, _kept = pool.containers  # capacity 4: the fifth is in a second container
    lost.alive = False
    service.on_lost(lost)
    for sid in ids[:4]:
        result = await service.run_cell(sid, RunCellRequest(code="ok"))
        assert result.status is CellStatus.session_lost and result.session_alive is False
        with pytest.raises(SessionNotFound, match="lost"):
            await service.run_cell(sid, RunCellRequest(code="ok"))
    assert (await service.run_cell(ids[4], RunCellRequest(code="ok"))).status is CellStatus.ok


async def test_a_cell_that_kills_its_session_leaves_a_dead_record_that_says_why() -> None:
    service, pool, _ = make_service(max_sessions=1)
    sid = (await service.open(OpenSessionRequest())).session_id
    result = await service.run_cell(sid, RunCellRequest(code="timed_out"))
    assert result.status is CellStatus.timed_out and not result.session_alive
    with pytest.raises(SessionNotFound, match="timed_out"):
        await service.run_cell(sid, RunCellRequest(code="ok"))
    assert not pool.containers[0].sessions  # its slot in the container is free again
    assert (await service.close(sid)).closed is False
    await service.open(OpenSessionRequest())  # and its place on the host


async def test_sessions_not_offered_are_a_404_that_says_why_never_a_retry() -> None:
    disabled = DisabledSessions()
    assert disabled.health().offered is False
    with pytest.raises(SessionsNotOffered, match="VERIFIER_SESSIONS__IS_ENABLED") as refused:
        await disabled.open(OpenSessionRequest())
    assert refused.value.status_code == 404 and not refused.value.headers()


async def test_an_open_past_its_deadline_is_a_503_and_is_closed_in_its_container() -> None:
    service, pool, _ = make_service(open_timeout_s=0.05, max_sessions=1)
    container = await pool.place("warm")  # a container whose opens are slow
    pool.release(container, "warm")
    container.slow_open_s = 0.2
    with pytest.raises(SessionsUnavailable, match="could be opened"):
        await service.open(OpenSessionRequest())
    assert service.table.held() == 0 and not container.sessions  # its places are back
    await asyncio.sleep(0.3)
    kinds = [r["kind"] for r in container.requests]
    assert kinds == ["open", "close"]  # what the container opened late is closed
