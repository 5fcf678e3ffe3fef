"""Sync and async clients against a live uvicorn service: verdicts, order, inputs."""

from __future__ import annotations

import pytest

from rlvr.client import (
    AsyncVerifierClient,
    ConfigurationError,
    VerifierClient,
)
from rlvr.schemas.common import Status
from rlvr.schemas.math import MathItem, MathResult


def _batch(n: int) -> list[dict[str, str]]:
    """Even items are right, odd items wrong; ids say which is which."""
    return [
        {"id": f"i{i}", "response": f"so \\boxed{{{i}}}", "answer": str(i if i % 2 == 0 else i + 1)}
        for i in range(n)
    ]


def _assert_in_order(results: list[MathResult], n: int) -> None:
    assert [r.id for r in results] == [f"i{i}" for i in range(n)]
    for i, result in enumerate(results):
        expected = Status.passed if i % 2 == 0 else Status.failed
        assert result.status is expected, (i, result)
        assert result.reward == (1.0 if i % 2 == 0 else 0.0)


def test_sync_math_returns_typed_verdicts_in_order(verifier_url: str) -> None:
    with VerifierClient(verifier_url) as client:
        results = client.math(_batch(6))
    assert all(isinstance(r, MathResult) for r in results)
    _assert_in_order(results, 6)


def test_sync_math_accepts_pydantic_items(verifier_url: str) -> None:
    items = [MathItem(response="\\boxed{12}", answer="12"), MathItem(response="13", answer="12")]
    with VerifierClient(verifier_url) as client:
        results = client.math(items)
    assert [r.status for r in results] == [Status.passed, Status.failed]


def test_sync_big_batch_is_chunked_and_reassembled_in_order(verifier_url: str) -> None:
    with VerifierClient(verifier_url, chunk_size=7, max_concurrency=3) as client:
        results = client.math(_batch(100))
    _assert_in_order(results, 100)


async def test_async_big_batch_is_chunked_and_reassembled_in_order(verifier_url: str) -> None:
    async with AsyncVerifierClient(verifier_url, chunk_size=9, max_concurrency=4) as client:
        results = await client.math(_batch(101))
    _assert_in_order(results, 101)


async def test_async_verify_mixed_returns_domain_tagged_results(verifier_url: str) -> None:
    async with AsyncVerifierClient(verifier_url) as client:
        results = await client.verify(
            [
                {"domain": "math", "id": "a", "response": "\\boxed{3}", "answer": "3"},
                {"domain": "math", "id": "b", "response": "\\boxed{4}", "answer": "3"},
            ]
        )
    assert [(r.id, r.domain, r.status) for r in results] == [
        ("a", "math", Status.passed),
        ("b", "math", Status.failed),
    ]


def test_empty_batch_returns_empty_without_a_request(verifier_url: str) -> None:
    with VerifierClient(verifier_url) as client:
        assert client.math([]) == []


def test_invalid_item_is_rejected_locally_naming_the_field(verifier_url: str) -> None:
    with VerifierClient(verifier_url) as client, pytest.raises(ConfigurationError, match="answer"):
        client.math([{"response": "\\boxed{1}"}])


def test_base_url_and_api_key_come_from_the_environment(
    verifier_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFIER_URL", verifier_url)
    monkeypatch.setenv("VERIFIER_API_KEY", "from-env")
    with VerifierClient() as client:
        assert client.base_url == verifier_url
        assert client._headers["x-api-key"] == "from-env"
        assert client.math(_batch(2))[0].status is Status.passed


def test_missing_base_url_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VERIFIER_URL", raising=False)
    with pytest.raises(ConfigurationError, match="VERIFIER_URL"):
        VerifierClient()
