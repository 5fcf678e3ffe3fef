"""The client's session handles (`client.session()`, sync and async) against the FAKE session
endpoints of `tests.support.session_fake` served by uvicorn: pinning to the opening endpoint,
`session_lost` when it is gone, open retried at capacity, cells never retried. What the real
service does with a session is `test_sessions_live.py`'s."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import ExitStack

import httpx
import pytest

from rlvr.client import (
    AsyncVerifierClient,
    ConfigurationError,
    InvalidRequest,
    RetryPolicy,
    ServiceOverloaded,
    VerifierClient,
)
from rlvr.client._sessions import parse_cell
from rlvr.schemas.sessions import CellStatus
from tests.support.session_fake import FakeSessions, fake_session_service

FAST_RETRY = RetryPolicy(max_attempts=2, initial_backoff_s=0.01, jitter_s=0.0)


@pytest.fixture
def fake() -> Iterator[tuple[str, FakeSessions]]:
    with fake_session_service() as served:
        yield served


def runs_of(state: FakeSessions, session_id: str) -> int:
    return sum(1 for method, path in state.requests if path == f"/sessions/{session_id}/run")


def test_variables_persist_between_cells_and_the_last_expression_is_the_value(fake) -> None:
    url, state = fake
    with VerifierClient(url) as client, client.session(timeout_s=5) as session:
        assert session.limits.timeout_s == 5
        assert session.run("x = 6 * 7\nprint('set')").stdout == "set\n"
        result = session.run("x")
        assert (result.status, result.value, result.session_alive) == (CellStatus.ok, "42", True)
        session_id = session.id
    assert session_id not in state.sessions and state.closed == 1


def test_an_exception_in_a_cell_is_data_and_the_session_lives_on(fake) -> None:
    url, _ = fake
    with VerifierClient(url) as client, client.session() as session:
        failed = session.run("1 / 0")
        assert failed.status == CellStatus.error and failed.session_alive
        assert failed.error is not None and failed.error.startswith("ZeroDivisionError")
        assert "Traceback" in failed.stderr
        assert session.run("'still here'").value == "'still here'"


def test_setup_code_runs_first_and_its_names_are_there_for_later_cells(fake) -> None:
    url, _ = fake
    with VerifierClient(url) as client, client.session(setup_code="import math\nr = 2") as session:
        assert session.setup is not None and session.setup.status == CellStatus.ok
        assert session.run("math.pi * r * r").value is not None


def test_the_async_session_is_an_async_context_manager_and_an_awaitable(fake) -> None:
    url, state = fake

    async def main() -> tuple[str | None, str | None]:
        async with AsyncVerifierClient(url) as client:
            async with client.session() as session:
                await session.run("items = [1, 2, 3]")
                first = (await session.run("sum(items)")).value
            opened = await client.session()
            await opened.run("y = 'kept'")
            second = (await opened.run("y")).value
            assert await opened.close()
            return first, second

    assert asyncio.run(main()) == ("6", "'kept'")
    assert state.sessions == {} and state.closed == 2


def test_every_call_for_a_session_names_it_in_the_routing_header(fake) -> None:
    """`x-session-id` on each cell and on the close, sync and async: Ray Serve's router sends
    the call to the replica that holds the session by it (`scaleout/session_router.py`)."""
    url, state = fake
    with VerifierClient(url) as client, client.session() as session:
        session.run("x = 1")
        session.run("x")
        sync_id = session.id

    async def main() -> str:
        async with AsyncVerifierClient(url) as client, client.session() as opened:
            await opened.run("y = 2")
            return opened.id

    async_id = asyncio.run(main())
    assert state.named == [sync_id] * 3 + [async_id] * 2


def test_two_sessions_never_see_each_others_variables(fake) -> None:
    url, _ = fake
    with VerifierClient(url) as client, client.session() as a, client.session() as b:
        a.run("secret = 1")
        seen = b.run("secret")
        assert seen.status == CellStatus.error and "NameError" in (seen.error or "")


def test_a_session_stays_on_the_endpoint_that_opened_it() -> None:
    with ExitStack() as stack:
        (url_a, state_a), (url_b, state_b) = (
            stack.enter_context(fake_session_service()) for _ in range(2)
        )
        with VerifierClient([url_a, url_b]) as client:
            sessions = [client.session() for _ in range(6)]
            for i, session in enumerate(sessions):
                for _ in range(3):
                    session.run(f"n = {i}")
            by_url = {s.url for s in sessions}
            assert by_url == {url_a, url_b}  # least-loaded picking spread the opens
            for session in sessions:
                own, other = (state_a, state_b) if session.url == url_a else (state_b, state_a)
                assert runs_of(own, session.id) == 3 and runs_of(other, session.id) == 0
                assert session.close()


def test_a_session_whose_endpoint_is_gone_is_lost_and_never_sent_elsewhere() -> None:
    with ExitStack() as stack:
        url_a, state_a = stack.enter_context(fake_session_service())
        gone = ExitStack()
        url_b, _ = gone.enter_context(fake_session_service())
        with VerifierClient([url_a, url_b], retry=FAST_RETRY) as client:
            sessions = [client.session(), client.session()]
            on_b = next(s for s in sessions if s.url == url_b)
            on_b.run("x = 1")
            gone.close()  # endpoint b stops: its sessions are gone with it
            lost = on_b.run("x")
            assert lost.status == CellStatus.session_lost and not lost.session_alive
            assert url_b in (lost.error or "")
            assert not on_b.is_alive
            again = on_b.run("x")  # answered at once, without a request
            assert again.status == CellStatus.session_lost
            assert runs_of(state_a, on_b.id) == 0
            assert not on_b.close()  # best effort, no exception
            on_a = next(s for s in sessions if s.url == url_a)
            assert on_a.run("1 + 1").value == "2"


def test_a_session_the_service_lost_answers_session_lost_and_stays_dead(fake) -> None:
    url, state = fake
    with VerifierClient(url) as client, client.session() as session:
        state.lose(session.id)
        first = session.run("1")
        assert first.status == CellStatus.session_lost and not first.session_alive
        second = session.run("1")
        assert second.status == CellStatus.session_lost
        assert runs_of(state, session.id) == 1  # a cell is never retried, nor sent to a dead one


def test_a_session_the_service_forgot_is_lost_not_an_exception(fake) -> None:
    url, _ = fake
    with VerifierClient(url) as client, client.session() as session:
        httpx.delete(f"{url}/sessions/{session.id}")  # expired, as far as the client knows
        result = session.run("1")
        assert result.status == CellStatus.session_lost and "no longer open" in (result.error or "")


def test_opening_at_capacity_retries_after_retry_after_then_raises() -> None:
    with (
        fake_session_service(capacity=1) as (url, state),
        VerifierClient(url, retry=FAST_RETRY) as client,
    ):
        first = client.session()
        with pytest.raises(ServiceOverloaded) as raised:
            client.session()
        assert raised.value.retry_after_s == state.retry_after_s
        assert [p for _, p in state.requests].count("/sessions") == 3  # 1 + 2 attempts
        first.close()
        with client.session() as second:  # room again
            assert second.run("2 + 2").value == "4"


def test_opening_at_capacity_on_one_endpoint_opens_on_another() -> None:
    with ExitStack() as stack:
        (url_a, _), (url_b, _) = (
            stack.enter_context(fake_session_service(capacity=1)) for _ in range(2)
        )
        with VerifierClient([url_a, url_b], retry=FAST_RETRY) as client:
            first, second = client.session(), client.session()
            assert {first.url, second.url} == {url_a, url_b}


def test_bad_limits_and_cells_on_a_closed_session_are_the_callers_error(fake) -> None:
    url, _ = fake
    with VerifierClient(url) as client:
        with pytest.raises(ConfigurationError):
            client.session(timeout_s=-1)
        session = client.session()
        session.close()
        with pytest.raises(ConfigurationError):
            session.run("1")


def _response(status: int, body: dict) -> httpx.Response:
    return httpx.Response(status, json=body, request=httpx.Request("POST", "http://h/x"))


def test_cell_answers_map_to_outcomes_whose_fault_they_are() -> None:
    lost = parse_cell(_response(404, {"error": {"code": "not_found", "message": "m"}}), "http://h")
    assert lost.status == CellStatus.session_lost and not lost.session_alive
    broken = parse_cell(_response(500, {"error": {"code": "internal", "message": "m"}}), "http://h")
    assert broken.status == CellStatus.sandbox_error and broken.session_alive
    with pytest.raises(InvalidRequest):
        parse_cell(_response(422, {"error": {"code": "invalid", "message": "m"}}), "http://h")
    ok = parse_cell(_response(200, {"status": "ok", "value": "1", "session_alive": True}), "h")
    assert ok.value == "1"
