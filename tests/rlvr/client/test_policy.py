"""Pure parts of the client: chunking, the retry policy's waits, `Retry-After` parsing, errors."""

from __future__ import annotations

from email.utils import formatdate

import pytest

from rlvr.client import (
    AuthenticationError,
    InvalidRequest,
    PayloadTooLarge,
    ProtocolError,
    RequestRejected,
    RetryPolicy,
    ServiceError,
    ServiceOverloaded,
    TransportError,
    VerifierClient,
)
from rlvr.client._chunking import join, split
from rlvr.client._errors import error_for_status
from rlvr.client._retry import parse_retry_after
from tests.rlvr.client.scripted_server import Step, scripted_server


@pytest.mark.parametrize(
    ("n", "size", "lengths"),
    [(0, 4, []), (1, 4, [1]), (8, 4, [4, 4]), (9, 4, [4, 4, 1]), (3, 1, [1, 1, 1])],
)
def test_split_makes_consecutive_chunks_of_at_most_size(
    n: int, size: int, lengths: list[int]
) -> None:
    chunks = split(list(range(n)), size)
    assert [len(c) for c in chunks] == lengths
    assert [x for c in chunks for x in c] == list(range(n))


def test_join_rejects_a_chunk_with_the_wrong_number_of_results() -> None:
    with pytest.raises(ProtocolError, match="chunk 1: sent 2 items, got 1"):
        join([[1, 2], [3, 4]], [["a", "b"], ["c"]])


@pytest.mark.parametrize(
    ("attempt", "expected"), [(1, 0.25), (2, 0.5), (3, 1.0), (4, 2.0), (6, 8.0), (10, 8.0)]
)
def test_backoff_doubles_up_to_its_cap_plus_bounded_jitter(attempt: int, expected: float) -> None:
    policy = RetryPolicy()
    waits = [policy.wait_s(attempt, TransportError("x")) for _ in range(50)]
    assert all(expected <= w <= expected + policy.jitter_s for w in waits)
    assert len(set(waits)) > 1  # jittered


def test_retry_after_wins_over_backoff_and_is_capped() -> None:
    policy = RetryPolicy(max_retry_after_s=5.0, jitter_s=0.0)
    assert policy.wait_s(1, ServiceOverloaded(503, "overloaded", "x", retry_after_s=3)) == 3.0
    assert policy.wait_s(1, ServiceOverloaded(503, "overloaded", "x", retry_after_s=99)) == 5.0


@pytest.mark.parametrize(
    ("exc", "retried"),
    [
        (TransportError("refused"), True),
        (error_for_status(502, "bad_gateway", "x"), True),
        (error_for_status(503, "overloaded", "x"), True),
        (error_for_status(504, "timeout", "x"), True),
        (error_for_status(500, "internal_error", "x"), False),  # the service's own 500
        (error_for_status(500, "http_error", "Internal Server Error"), True),  # a proxy's
        (error_for_status(401, "unauthorized", "x"), False),
        (error_for_status(413, "payload_too_large", "x"), False),
        (error_for_status(429, "slow_down", "x", retry_after_s=1), False),
        (ProtocolError("bad body"), False),
    ],
)
def test_what_is_retried(exc: Exception, retried: bool) -> None:
    assert RetryPolicy().is_retryable(exc) is retried


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (401, AuthenticationError),
        (413, PayloadTooLarge),
        (422, InvalidRequest),
        (404, RequestRejected),
        (500, ServiceError),
        (503, ServiceOverloaded),
    ],
)
def test_error_for_status_picks_the_most_specific_class(status: int, cls: type) -> None:
    assert type(error_for_status(status, "c", "m")) is cls


def test_parse_retry_after_reads_seconds_and_http_dates() -> None:
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    now = 1_800_000_000.0
    assert parse_retry_after(formatdate(now + 30, usegmt=True), now=now) == pytest.approx(30)
    assert parse_retry_after(formatdate(now - 30, usegmt=True), now=now) == 0.0


def test_a_2xx_with_the_wrong_number_of_results_is_a_protocol_error_not_retried() -> None:
    body = b'{"results": []}'
    with (
        scripted_server(Step(200, body=body)) as (url, script),
        VerifierClient(url) as client,
        pytest.raises(ProtocolError, match="sent 1 items, got 0"),
    ):
        client.math([{"response": "1", "answer": "1"}])
    assert script.requests == 1


def test_a_proxy_html_502_is_retried_then_raised_with_its_text() -> None:
    fast = RetryPolicy(max_attempts=2, initial_backoff_s=0.01, jitter_s=0.0)
    html = b"<html><body>502 Bad Gateway</body></html>"
    with (
        scripted_server(Step(502, {"content-type": "text/html"}, body=html)) as (url, script),
        VerifierClient(url, retry=fast) as client,
        pytest.raises(ServiceError, match="Bad Gateway") as info,
    ):
        client.math([{"response": "1", "answer": "1"}])
    assert script.requests == 2 and info.value.status_code == 502
