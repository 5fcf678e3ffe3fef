"""The endpoint-list client's sessions against two real services (uvicorn + the Docker
sandbox), each holding at most two sessions: a session's cells reach the replica that holds it,
an open beyond both limits is a 503 retried then raised, and a replica that dies loses only its
own sessions, each answered `session_lost`. Needs the session endpoints of issue 23 on the
server (`VERIFIER_SESSIONS__MAX_SESSIONS`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from rlvr.client import RetryPolicy, ServiceOverloaded, VerifierClient
from rlvr.schemas.sessions import CellStatus
from tests.support.server import LiveService, live_service

pytestmark = [pytest.mark.docker]

TWO_SESSIONS = {
    "VERIFIER_CODE__IS_ENABLED": "false",
    "VERIFIER_MATH__WORKERS": "1",
    "VERIFIER_SESSIONS__MAX_SESSIONS": "2",
}
QUICK = RetryPolicy(max_attempts=2, initial_backoff_s=0.05, jitter_s=0.0, max_retry_after_s=1.0)


@pytest.fixture
def two_services(docker_engine: None) -> Iterator[list[LiveService]]:
    with ExitStack() as stack:
        yield [stack.enter_context(live_service(TWO_SESSIONS)) for _ in range(2)]


def test_sessions_stay_on_their_replica_and_a_dead_replica_loses_only_its_own(
    two_services: list[LiveService],
) -> None:
    urls = [service.url for service in two_services]
    with VerifierClient(urls, retry=QUICK) as client:
        sessions = [client.session() for _ in range(4)]
        assert sorted(s.url for s in sessions) == sorted(urls * 2)  # two on each replica
        for i, session in enumerate(sessions):
            session.run(f"mine = {i}")
        assert [s.run("mine").value for s in sessions] == ["0", "1", "2", "3"]

        with pytest.raises(ServiceOverloaded) as full:
            client.session()  # both replicas at their limit
        assert full.value.retry_after_s is not None

        dead = two_services[0]
        dead.process.terminate()  # the replica goes away with its sessions
        dead.process.wait(timeout=30)
        for i, session in enumerate(sessions):
            result = session.run("mine")
            if session.url == dead.url:
                assert result.status == CellStatus.session_lost and not result.session_alive
            else:
                assert result.value == str(i)  # the other replica's sessions live on
        for session in sessions:
            session.close()
