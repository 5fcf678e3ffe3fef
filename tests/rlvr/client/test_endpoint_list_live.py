"""The endpoint-list client against several live `uvicorn` services (math only): spread, failover
when one dies mid-batch, a 503 moving work elsewhere, and a dead endpoint probed and re-admitted."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack

import httpx
import pytest

from rlvr.client import AsyncVerifierClient, VerifierClient
from rlvr.schemas.common import Status
from tests.rlvr.client.scripted_server import Step, scripted_server
from tests.support.server import LiveService, free_port, live_service

MATH_ONLY = {"VERIFIER_CODE__IS_ENABLED": "false", "VERIFIER_MATH__WORKERS": "1"}


def _batch(n: int, tag: str = "i") -> list[dict[str, str]]:
    """Items whose verdicts alternate (even right, odd wrong) and whose answers all differ, so no
    service's verdict cache can hide a lost item."""
    return [
        {"id": f"{tag}{i}", "response": f"\\boxed{{{1000 + i}}}", "answer": str(1000 + i + i % 2)}
        for i in range(n)
    ]


def _assert_answered_once_in_order(results: list, n: int, tag: str = "i") -> None:
    assert [r.id for r in results] == [f"{tag}{i}" for i in range(n)]
    for i, result in enumerate(results):
        assert result.status is (Status.passed if i % 2 == 0 else Status.failed), result


def _items_served(url: str) -> float:
    """Math items a service has judged, from its own Prometheus counters."""
    text = httpx.get(url + "/metrics", timeout=5).text
    pattern = r'^rlvr_items_total\{endpoint="math",status="[a-z_]+"\} ([0-9.e+]+)$'
    return sum(float(v) for v in re.findall(pattern, text, flags=re.MULTILINE))


@pytest.fixture(scope="module")
def three_services() -> Iterator[list[LiveService]]:
    with ExitStack() as stack:
        yield [stack.enter_context(live_service(MATH_ONLY)) for _ in range(3)]


def test_chunks_spread_evenly_over_the_endpoints(three_services: list[LiveService]) -> None:
    urls = [s.url for s in three_services]
    before = [_items_served(u) for u in urls]
    with VerifierClient(",".join(urls), chunk_size=8, max_concurrency=6) as client:
        results = client.math(_batch(480))
    _assert_answered_once_in_order(results, 480)
    served = [_items_served(u) - b for u, b in zip(urls, before, strict=True)]
    assert sum(served) == 480
    assert min(served) >= 480 / 3 * 0.6, served  # no endpoint starved
    assert [r.attempts for r in client.endpoints.replicas] == [
        int(s / 8) for s in served
    ]  # every chunk went where the client says, once


async def test_the_async_client_spreads_too(three_services: list[LiveService]) -> None:
    urls = [s.url for s in three_services]
    async with AsyncVerifierClient(urls, chunk_size=8, max_concurrency=6) as client:
        results = await client.math(_batch(240, "a"))
    _assert_answered_once_in_order(results, 240, "a")
    attempts = [r.attempts for r in client.endpoints.replicas]
    assert sum(attempts) == 30 and min(attempts) >= 6, attempts


def test_an_endpoint_killed_mid_batch_loses_no_item() -> None:
    n = 3000
    with live_service(MATH_ONLY) as a, live_service(MATH_ONLY) as b:
        victim = live_service(MATH_ONLY)
        c = victim.__enter__()
        try:
            client = VerifierClient([a.url, b.url, c.url], chunk_size=4, max_concurrency=6)
            doomed = client.endpoints.replicas[2]

            def kill_once_it_has_work() -> None:  # mid-batch by construction, not by timing
                deadline = time.monotonic() + 60
                while doomed.attempts < 10 and time.monotonic() < deadline:
                    time.sleep(0.001)
                c.process.kill()

            killer = threading.Thread(target=kill_once_it_has_work)
            killer.start()
            results = client.math(_batch(n))
            killer.join()
            client.close()
        finally:
            victim.__exit__(None, None, None)
    _assert_answered_once_in_order(results, n)
    assert doomed.is_down, "the killed endpoint is out of service"
    others = sum(r.attempts for r in client.endpoints.replicas[:2])
    assert others >= (n / 4) * 0.6, "the other endpoints took over"
    assert doomed.attempts < n / 4 * 0.5


def test_a_503_sends_the_work_elsewhere_at_once() -> None:
    with (
        scripted_server(Step(503, {"Retry-After": "30"})) as (overloaded_url, script),
        live_service(MATH_ONLY) as healthy,
    ):
        started = time.monotonic()
        with VerifierClient([overloaded_url, healthy.url], chunk_size=5) as client:
            results = client.math(_batch(100))
        took_s = time.monotonic() - started
    _assert_answered_once_in_order(results, 100)
    # Turned away once per chunk in flight at most, then left alone for its Retry-After (30 s):
    assert 1 <= script.requests <= client.max_concurrency
    assert took_s < 30, "no chunk waited for the overloaded endpoint's Retry-After"


def test_a_dead_endpoint_is_probed_and_readmitted_when_it_returns() -> None:
    port = free_port()
    with live_service(MATH_ONLY) as steady:
        client = VerifierClient(
            [f"http://127.0.0.1:{port}", steady.url], chunk_size=5, endpoint_backoff_s=0.5
        )
        returning = client.endpoints.replicas[0]
        results = client.math(_batch(50))  # nobody listens on `port` yet
        _assert_answered_once_in_order(results, 50)
        assert returning.is_down
        with live_service(MATH_ONLY, port=port) as back:
            time.sleep(0.6)  # past its back-off
            results = client.math(_batch(200))
            _assert_answered_once_in_order(results, 200)
            assert not returning.is_down
            assert _items_served(back.url) > 0
        client.close()
