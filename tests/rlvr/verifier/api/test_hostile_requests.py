"""Requests a stranger can send (issue 21, items 11 and 12): bodies that cost far more than their
size, lone surrogates in any text field, over-long fields the limits did not reach, and the 500
path. A live `rlvr-verifier serve` (code and Lean off: the limits hold before any domain)."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import psutil
import pytest
from fastapi import FastAPI, Request
from prometheus_client.parser import text_string_to_metric_families

from rlvr.schemas.common import ItemResult, Status
from rlvr.verifier.errors import install_error_handlers
from rlvr.verifier.metrics import ServiceMetrics
from rlvr.verifier.middleware import GuardMiddleware
from tests.support.http import post_body, post_items
from tests.support.server import LiveService, live_service

ENV = {
    "VERIFIER_CODE__IS_ENABLED": "false",
    "VERIFIER_LIMITS__MAX_ITEM_CHARS": "5000",
    "VERIFIER_LIMITS__MAX_TESTS_PER_BATCH": "5000",
}


@pytest.fixture(scope="module")
def service() -> Iterator[LiveService]:
    with live_service(ENV) as live:
        yield live


def counted(url: str, name: str, **labels: str) -> float:
    text = httpx.get(f"{url}/metrics", timeout=10).text
    total = 0.0
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                total += sample.value
    return total


# ---------------------------------------------------------------- 11. objects, not bytes


def tiny_tests_body(items: int, tests_per_item: int) -> bytes:
    test = '{"kind":"stdio","stdout":""}'
    item = '{"code":"print()","tests":[' + ",".join([test] * tests_per_item) + "]}"
    return ('{"items":[' + ",".join([item] * items) + "]}").encode()


def test_63_mib_of_tiny_tests_is_a_fast_413_and_health_stays_responsive(
    service: LiveService,
) -> None:
    body = tiny_tests_body(2200, 1000)  # 2.2 million objects in 63 MiB
    assert 60 * 2**20 < len(body) < 64 * 2**20
    rss_before = psutil.Process(service.process.pid).memory_info().rss
    replies: list[httpx.Response] = []
    thread = threading.Thread(
        target=lambda: replies.append(post_body(service.url, "/code", body, timeout_s=120))
    )
    started = time.perf_counter()
    thread.start()
    latencies = []
    peak_rss = rss_before
    while thread.is_alive():
        probe = time.perf_counter()
        assert httpx.get(f"{service.url}/health", timeout=30).status_code == 200
        latencies.append(time.perf_counter() - probe)
        peak_rss = max(peak_rss, psutil.Process(service.process.pid).memory_info().rss)
        time.sleep(0.05)
    thread.join()
    elapsed = time.perf_counter() - started
    reply = replies[0]
    assert reply.status_code == 413, reply.text[:300]
    error = reply.json()["error"]
    assert "max_json_objects=150000" in error["message"] and error["request_id"]
    assert elapsed < 10, elapsed
    assert max(latencies) < 1.5, latencies
    # The body itself (64 MB) is held; what it would have become (gigabytes) is not.
    assert peak_rss - rss_before < 400 * 2**20, (peak_rss - rss_before) / 2**20


def test_tests_are_bounded_per_batch_not_only_per_item(service: LiveService) -> None:
    body = tiny_tests_body(6, 1000)  # 1,000 per item is allowed; 6,000 in all is not
    reply = post_body(service.url, "/code", body)
    assert reply.status_code == 413, reply.text[:300]
    assert "max_tests_per_batch=5000" in reply.json()["error"]["message"]
    within = post_body(service.url, "/code", tiny_tests_body(5, 1000))
    assert within.status_code == 200, within.text[:300]


def test_arrays_are_bounded_before_parsing(service: LiveService) -> None:
    args = "[" * 10 + "]" * 10
    test = '{"kind":"call","fn":"f","args":[' + ",".join([args] * 120_000) + '],"expected":1}'
    body = '{"items":[{"code":"def f(*a): return 1","tests":[' + test + "]}]}"
    reply = post_body(service.url, "/code", body)
    assert reply.status_code == 413, reply.text[:300]
    assert "max_json_arrays=1000000" in reply.json()["error"]["message"]


# ---------------------------------------------------------------- 12. lone surrogates

LEAN = {"statement": "theorem t : True", "proof": "theorem t : True := trivial"}
MATH = {"response": "\\boxed{2}", "answer": "2"}

REFUSED = [
    ("/math", {**MATH, "id": "\ud800"}, "`id`"),
    ("/math", {**MATH, "answer": "2\udc00"}, "`answer`"),
    ("/lean", {**LEAN, "id": "\ud800"}, "`id`"),
    ("/lean", {**LEAN, "statement": "theorem t : True\ud800"}, "`statement`"),
    ("/lean", {**LEAN, "header": "import Mathlib\ud800"}, "`header`"),
    ("/verify", {**MATH, "domain": "math", "id": "\ud800"}, "`id`"),
    ("/verify", {**LEAN, "domain": "lean", "header": "\ud800"}, "`header`"),
]


@pytest.mark.parametrize(("path", "item", "field"), REFUSED)
def test_a_lone_surrogate_in_a_dataset_field_is_a_422_naming_it(
    service: LiveService, path: str, item: dict[str, Any], field: str
) -> None:
    before = counted(service.url, "rlvr_requests_total", endpoint=path.strip("/"), code="422")
    reply = post_items(service.url, path, [item])
    assert reply.status_code == 422, reply.text
    error = reply.json()["error"]
    assert field in error["message"] and "not valid Unicode" in error["message"]
    assert error["request_id"]
    after = counted(service.url, "rlvr_requests_total", endpoint=path.strip("/"), code="422")
    assert after == before + 1


@pytest.mark.parametrize(
    ("path", "bad", "good"),
    [
        ("/math", {**MATH, "response": "\\boxed{2}\ud800"}, MATH),
        ("/verify", {**MATH, "domain": "math", "response": "\udfff"}, {**MATH, "domain": "math"}),
        ("/lean", {**LEAN, "proof": "theorem t : True := trivial -- \ud800"}, None),
    ],
)
def test_a_lone_surrogate_in_the_candidates_text_fails_that_item_only(
    service: LiveService, path: str, bad: dict[str, Any], good: dict[str, Any] | None
) -> None:
    items = [bad, good] if good else [bad]
    reply = post_items(service.url, path, items)
    assert reply.status_code == 200, reply.text
    results = reply.json()["results"]
    assert results[0]["status"] == "failed" and results[0]["reward"] == 0.0
    assert "not valid Unicode" in results[0]["detail"]
    if good:
        assert results[1]["status"] == "passed"


# ---------------------------------------------------------------- 12. fields the limits missed

LONG = "x" * 6000
CALL = {"kind": "call", "fn": "f", "args": [], "expected": 1}
INTERACTOR = {"language": "python", "code": "print(1)"}


@pytest.mark.parametrize(
    ("path", "item", "where"),
    [
        ("/math", {**MATH, "id": LONG}, "items[0].id"),
        ("/lean", {**LEAN, "header": LONG}, "items[0].header"),
        ("/verify", {**LEAN, "domain": "lean", "header": LONG}, "items[0].header"),
        (
            "/code",
            {
                "code": "print(1)",
                "checker": {"kind": "program", "language": "python", "code": LONG},
                "tests": [{"kind": "stdio", "stdout": "1"}],
            },
            "items[0].checker.code",
        ),
        (
            "/code",
            {
                "code": "print(1)",
                "interactor": {**INTERACTOR, "code": LONG},
                "tests": [{"kind": "interactive", "input": "1"}],
            },
            "items[0].interactor.code",
        ),
        (
            "/code",
            {
                "code": "print(1)",
                "interactor": INTERACTOR,
                "tests": [{"kind": "interactive", "input": LONG}],
            },
            "items[0].tests[0].input",
        ),
        ("/code", {"code": "f=1", "tests": [{**CALL, "fn": LONG}]}, "items[0].tests[0].fn"),
        (
            "/code",
            {"code": "f=1", "tests": [{**CALL, "args": [LONG]}]},
            "items[0].tests[0].args",
        ),
        (
            "/code",
            {"code": "f=1", "tests": [{**CALL, "expected": [1] * 3000}]},
            "items[0].tests[0].expected",
        ),
    ],
)
def test_max_item_chars_reaches_every_text_field(
    service: LiveService, path: str, item: dict[str, Any], where: str
) -> None:
    reply = post_items(service.url, path, [item])
    assert reply.status_code == 413, reply.text[:300]
    message = reply.json()["error"]["message"]
    assert message.startswith(where) and "max_item_chars=5000" in message, message


# ---------------------------------------------------------------- 12. the 500 path


def test_a_500_carries_a_request_id_is_counted_and_counts_no_items() -> None:
    """A handler whose response cannot be sent (a verdict it could not render): the guard
    answers the 500 itself, with the request id, in /metrics; the verdicts it had deferred are
    not counted as items."""
    metrics = ServiceMetrics()
    app = FastAPI()

    @app.post("/math")
    async def broken(request: Request) -> None:
        passed = ItemResult(status=Status.passed, reward=1.0, detail="", elapsed_s=0.0)
        metrics.defer_batch(request.scope["state"], "math", [passed, passed], 0.1)
        raise RuntimeError("the response could not be rendered")

    install_error_handlers(app)  # as create_app builds it: the guard inside Starlette's
    app.add_middleware(  # outermost error middleware
        GuardMiddleware, max_body_bytes=2**20, api_key=None, on_response=metrics.observe_request
    )

    async def run() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            return await client.post("/math", json={}, headers={"x-request-id": "req-21"})

    reply = asyncio.run(run())
    assert reply.status_code == 500
    assert reply.json()["error"] == {
        "code": "internal_error",
        "message": "internal error; see server logs",
        "request_id": "req-21",
    }
    assert reply.headers["x-request-id"] == "req-21"
    rendered = metrics.render().decode()
    assert 'rlvr_requests_total{code="500",endpoint="math"} 1.0' in rendered
    assert 'rlvr_items_total{endpoint="math",status="passed"}' not in rendered


# ---------------------------------------------------------------- 11. bodies together


def test_bodies_in_flight_are_bounded_together_and_health_still_answers() -> None:
    """Each body within `max_body_bytes`, but many at once are memory: past
    `max_bodies_in_flight_bytes` (30 MB here) a request is a 503 with Retry-After, before its
    body is read; /health (no body) answers; once the held body is gone, requests pass."""
    env = {**ENV, "VERIFIER_LIMITS__MAX_BODIES_IN_FLIGHT_BYTES": "30000000"}
    small = json.dumps({"items": [MATH]}).encode()
    padded = small + b" " * 15_000_000
    with live_service(env) as live:
        host, port = live.url.removeprefix("http://").split(":")
        held = socket.create_connection((host, int(port)), timeout=30)
        held.sendall(
            b"POST /math HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 20000000\r\n\r\n" + small + b" " * 19_000_000
        )
        time.sleep(1.5)  # the service has read (and holds) what was sent
        try:
            refused = post_body(live.url, "/math", padded)
            assert refused.status_code == 503, refused.text[:300]
            assert refused.headers["retry-after"] == "1"
            error = refused.json()["error"]
            assert error["code"] == "overloaded" and error["request_id"]
            assert "max_bodies_in_flight_bytes=30000000" in error["message"]
            assert httpx.get(f"{live.url}/health", timeout=10).status_code == 200
        finally:
            held.close()
        time.sleep(1.0)
        passed = post_body(live.url, "/math", padded)
        assert passed.status_code == 200, passed.text[:300]
        assert passed.json()["results"][0]["status"] == "passed"
