"""The client's sessions against the real service (uvicorn + the Docker sandbox): what a cell
keeps, shows and ends with. Needs the session endpoints of issue 23 on the server; the client's
own logic (pinning, retries, lost endpoints) is `test_sessions.py`'s, on a fake."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from rlvr.client import AsyncVerifierClient, ConfigurationError, VerifierClient
from rlvr.schemas.sessions import CellStatus
from tests.support.server import service_fixture

pytestmark = [pytest.mark.docker]

sessions_url = service_fixture(
    {"VERIFIER_CODE__POOL_SIZE": "1", "VERIFIER_MATH__WORKERS": "1"}, needs_docker=True
)


def test_state_persists_between_cells_and_the_last_expression_is_the_value(
    sessions_url: str,
) -> None:
    with VerifierClient(sessions_url) as client, client.session(timeout_s=5) as session:
        assert session.run("import math\nx = 6 * 7\nprint('set')").stdout == "set\n"
        shown = session.run("x")
        assert (shown.status, shown.value, shown.session_alive) == (CellStatus.ok, "42", True)
        assert session.run("math.factorial(5)").value == "120"
        failed = session.run("1 / 0")
        assert failed.status == CellStatus.error and failed.session_alive
        assert (failed.error or "").startswith("ZeroDivisionError")
        assert session.run("x + 1").value == "43"  # an exception kept the session


def test_two_sessions_do_not_share_variables(sessions_url: str) -> None:
    with VerifierClient(sessions_url) as client, client.session() as a, client.session() as b:
        a.run("secret = 1")
        seen = b.run("secret")
        assert seen.status == CellStatus.error and "NameError" in (seen.error or "")


def test_a_cell_past_its_timeout_ends_the_session_and_says_so(sessions_url: str) -> None:
    with VerifierClient(sessions_url) as client, client.session() as session:
        session.run("kept = 1")
        result = session.run("import time\ntime.sleep(60)", timeout_s=1)
        assert result.status == CellStatus.timed_out and not result.session_alive
        after = session.run("kept")
        assert after.status == CellStatus.session_lost and not after.session_alive


def test_a_closed_session_is_gone_on_the_server(sessions_url: str) -> None:
    with VerifierClient(sessions_url) as client:
        session = client.session()
        session.run("x = 1")
        assert session.close() is True
        answer = httpx.post(f"{sessions_url}/sessions/{session.id}/run", json={"code": "x"})
        assert answer.status_code == 404
        with pytest.raises(ConfigurationError):
            session.run("x")


def test_the_async_session(sessions_url: str) -> None:
    async def main() -> list[str | None]:
        async with AsyncVerifierClient(sessions_url) as client:
            async with client.session() as session:
                await session.run("items = [1, 2, 3]")
                values = [(await session.run("sum(items)")).value]
            many = [await client.session() for _ in range(4)]
            results = await asyncio.gather(*(s.run(f"{i} * 10") for i, s in enumerate(many)))
            await asyncio.gather(*(s.close() for s in many))
            return values + [r.value for r in results]

    assert asyncio.run(main()) == ["6", "0", "10", "20", "30"]
