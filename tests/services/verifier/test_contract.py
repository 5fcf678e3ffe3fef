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
