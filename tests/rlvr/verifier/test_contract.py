"""The wire contract every endpoint follows, checked on a live uvicorn server."""

from __future__ import annotations

import httpx
import pytest


def test_health_lists_every_domain(verifier_url: str) -> None:
    body = httpx.get(f"{verifier_url}/health").json()
    assert set(body["domains"]) >= {"math", "code", "lean"}
    assert body["domains"]["math"]["ok"] is True
    assert body["status"] in {"ok", "degraded"}


def test_missing_field_is_422_with_the_field_named(verifier_url: str) -> None:
    reply = httpx.post(f"{verifier_url}/math", json={"items": [{"response": "x"}]})
    assert reply.status_code == 422
    error = reply.json()["error"]
    assert error["code"] == "validation_error"
    assert "items.0.answer" in error["message"]
    assert "Traceback" not in reply.text


@pytest.mark.parametrize(
    "body",
    [b"\xff\xfe\x00garbage", b"{", b"[]", b'{"items": []}', b'{"items": "x"}', b"null"],
    ids=["invalid-utf8", "truncated", "list", "empty-batch", "wrong-type", "null"],
)
def test_malformed_body_is_422_never_500(verifier_url: str, body: bytes) -> None:
    reply = httpx.post(
        f"{verifier_url}/math", content=body, headers={"content-type": "application/json"}
    )
    assert reply.status_code == 422
    assert reply.json()["error"]["code"] == "validation_error"


def test_unknown_field_is_rejected(verifier_url: str) -> None:
    reply = httpx.post(
        f"{verifier_url}/math", json={"items": [{"response": "1", "answer": "1", "anwser": 2}]}
    )
    assert reply.status_code == 422
    assert "anwser" in reply.json()["error"]["message"]


def test_oversized_batch_is_413_naming_the_limit(verifier_url: str) -> None:
    items = [{"response": "1", "answer": "1"}] * 5000
    reply = httpx.post(f"{verifier_url}/math", json={"items": items}, timeout=60)
    assert reply.status_code == 413
    assert "max_batch_items=4096" in reply.json()["error"]["message"]


def test_request_id_is_echoed(verifier_url: str) -> None:
    reply = httpx.post(
        f"{verifier_url}/math",
        json={"items": [{"response": "\\boxed{1}", "answer": "1"}]},
        headers={"x-request-id": "abc-123"},
    )
    assert reply.headers["x-request-id"] == "abc-123"


def test_unknown_route_is_json_404(verifier_url: str) -> None:
    reply = httpx.get(f"{verifier_url}/nope")
    assert reply.status_code == 404
    assert reply.json()["error"]["code"] == "not_found"


def test_metrics_count_items_by_endpoint_and_status(verifier_url: str) -> None:
    httpx.post(f"{verifier_url}/math", json={"items": [{"response": "\\boxed{1}", "answer": "1"}]})
    text = httpx.get(f"{verifier_url}/metrics").text
    assert 'rlvr_items_total{endpoint="math",status="passed"}' in text
    assert "rlvr_request_seconds_bucket" in text


def test_openapi_describes_every_request_field(verifier_url: str) -> None:
    schema = httpx.get(f"{verifier_url}/openapi.json").json()
    item = schema["components"]["schemas"]["MathItem"]
    for name, prop in item["properties"].items():
        assert prop.get("description"), f"MathItem.{name} has no description"


def test_body_over_max_body_bytes_is_413_naming_the_limit() -> None:
    from tests.support.server import running_service

    env = {"VERIFIER_LIMITS__MAX_BODY_BYTES": "2048", "VERIFIER_CODE__IS_ENABLED": "false"}
    with running_service(env) as url:
        big = {"items": [{"response": "x" * 4000, "answer": "1"}]}
        reply = httpx.post(f"{url}/math", json=big)
        assert reply.status_code == 413
        assert "max_body_bytes=2048" in reply.json()["error"]["message"]

        def chunks():  # no Content-Length: the limit must hold on a streamed body too
            yield b'{"items": [{"response": "'
            for _ in range(10):
                yield b"x" * 1000
            yield b'", "answer": "1"}]}'

        streamed = httpx.post(
            f"{url}/math", content=chunks(), headers={"content-type": "application/json"}
        )
        assert streamed.status_code == 413
        small = httpx.post(f"{url}/math", json={"items": [{"response": "1", "answer": "1"}]})
        assert small.status_code == 200


def test_item_text_over_max_item_chars_is_413(verifier_url: str) -> None:
    reply = httpx.post(
        f"{verifier_url}/math",
        json={"items": [{"response": "1" * 1_000_001, "answer": "1"}]},
        timeout=60,
    )
    assert reply.status_code == 413
    assert "items[0].response" in reply.json()["error"]["message"]
    assert "max_item_chars=1000000" in reply.json()["error"]["message"]
