"""Retries and deadlines against a real misbehaving HTTP server (see `scripted_server`)."""

from __future__ import annotations

import time

import pytest

from rlvr.client import (
    AsyncVerifierClient,
    AuthenticationError,
    DeadlineExceeded,
    InvalidRequest,
    RequestRejected,
    RetryPolicy,
    ServiceError,
    ServiceOverloaded,
    TransportError,
    VerifierClient,
)
from rlvr.schemas.common import Status
from tests.rlvr.client.scripted_server import Step, scripted_server
from tests.support.server import free_port

FAST = RetryPolicy(max_attempts=4, initial_backoff_s=0.05, max_backoff_s=0.2, jitter_s=0.02)
ITEMS = [{"id": "x", "response": "\\boxed{1}", "answer": "1"}]


def test_503_with_retry_after_is_retried_after_the_given_delay() -> None:
    with (
        scripted_server(Step(503, {"Retry-After": "1"}), Step(200)) as (url, script),
        VerifierClient(url, retry=FAST) as client,
    ):
        results = client.math(ITEMS)
    assert [(r.id, r.status) for r in results] == [("x", Status.passed)]
    assert script.requests == 2
    assert script.request_times[1] - script.request_times[0] >= 0.95


@pytest.mark.parametrize("status", [502, 503, 504])
async def test_gateway_errors_are_retried_with_backoff_then_succeed(status: int) -> None:
    with scripted_server(Step(status), Step(status), Step(200)) as (url, script):
        async with AsyncVerifierClient(url, retry=FAST) as client:
            results = await client.math(ITEMS)
    assert results[0].status is Status.passed
    assert script.requests == 3
    gaps = [b - a for a, b in zip(script.request_times, script.request_times[1:], strict=False)]
    assert gaps[0] >= 0.05 and gaps[1] >= 0.1  # exponential: 0.05 s then 0.1 s (+ jitter)


def test_persistent_503_raises_overloaded_after_max_attempts() -> None:
    with (
        scripted_server(Step(503, {"Retry-After": "0"})) as (url, script),
        VerifierClient(url, retry=FAST) as client,
        pytest.raises(ServiceOverloaded) as info,
    ):
        client.math(ITEMS)
    assert script.requests == FAST.max_attempts
    assert info.value.status_code == 503 and info.value.code == "scripted_503"


@pytest.mark.parametrize(
    ("status", "error"), [(401, AuthenticationError), (422, InvalidRequest), (429, RequestRejected)]
)
def test_4xx_is_never_retried(status: int, error: type[Exception]) -> None:
    with (
        scripted_server(Step(status, {"Retry-After": "0"}), Step(200)) as (url, script),
        VerifierClient(url, retry=FAST) as client,
        pytest.raises(error),
    ):
        client.math(ITEMS)
    assert script.requests == 1


def test_500_is_raised_at_once_as_service_error() -> None:
    with (
        scripted_server(Step(500), Step(200)) as (url, script),
        VerifierClient(url, retry=FAST) as client,
        pytest.raises(ServiceError),
    ):
        client.math(ITEMS)
    assert script.requests == 1


async def test_connection_refused_is_retried_then_raised_as_transport_error() -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    started = time.monotonic()
    async with AsyncVerifierClient(url, retry=FAST) as client:
        with pytest.raises(TransportError):
            await client.math(ITEMS)
    assert time.monotonic() - started >= 0.05 + 0.1 + 0.2  # three backoffs happened


def test_sync_deadline_bounds_a_slow_call() -> None:
    with (
        scripted_server(Step(200, delay_s=3.0)) as (url, _),
        VerifierClient(url, retry=FAST, deadline_s=0.5) as client,
    ):
        started = time.monotonic()
        with pytest.raises(DeadlineExceeded):
            client.math(ITEMS)
        assert time.monotonic() - started < 1.5


async def test_async_deadline_bounds_a_slow_chunked_call() -> None:
    with scripted_server(Step(200, delay_s=3.0)) as (url, _):
        async with AsyncVerifierClient(url, retry=FAST, chunk_size=1) as client:
            started = time.monotonic()
            with pytest.raises(DeadlineExceeded):
                await client.math(ITEMS * 4, deadline_s=0.5)
            assert time.monotonic() - started < 1.5


def test_retry_after_longer_than_the_deadline_fails_fast_as_deadline_exceeded() -> None:
    with (
        scripted_server(Step(503, {"Retry-After": "30"}), Step(200)) as (url, script),
        VerifierClient(url, retry=FAST) as client,
    ):
        started = time.monotonic()
        with pytest.raises(DeadlineExceeded) as info:
            client.math(ITEMS, deadline_s=2.0)
    assert time.monotonic() - started < 1.0  # did not sleep 30 s only to miss the deadline
    assert isinstance(info.value.__cause__, ServiceOverloaded)
    assert script.requests == 1


def test_a_retry_policy_that_retries_4xx_is_refused() -> None:
    with pytest.raises(ValueError, match="4xx"):
        RetryPolicy(retry_statuses=frozenset({429, 503}))


async def test_a_failed_chunk_cancels_the_chunks_still_in_flight() -> None:
    # The first request to arrive is refused at once; the others would take 3 s each.
    with scripted_server(Step(401), Step(200, delay_s=3.0)) as (url, _):
        async with AsyncVerifierClient(url, retry=FAST, chunk_size=1, max_concurrency=4) as client:
            started = time.monotonic()
            with pytest.raises(AuthenticationError):
                await client.math(ITEMS * 4)
            assert time.monotonic() - started < 1.5


def test_sync_a_failed_chunk_is_raised_without_waiting_for_slow_ones() -> None:
    with (
        scripted_server(Step(200, delay_s=3.0), Step(422)) as (url, _),
        VerifierClient(url, retry=FAST, chunk_size=1, max_concurrency=2) as client,
    ):
        started = time.monotonic()
        with pytest.raises(InvalidRequest):
            client.math(ITEMS * 2)
        assert time.monotonic() - started < 1.5
