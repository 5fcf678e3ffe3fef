"""API-key authentication and server limits, seen through the client, on live servers."""

from __future__ import annotations

import httpx
import pytest

from rlvr.client import AuthenticationError, PayloadTooLarge, VerifierClient
from rlvr.schemas.common import Status
from tests.support.server import service_fixture

KEY = "s3cret-key"
ITEM = {"response": "\\boxed{2}", "answer": "2"}


# A live service that requires an API key and takes at most 5 items per request.
keyed_url = service_fixture(
    {
        "VERIFIER_CODE__IS_ENABLED": "false",
        "VERIFIER_API_KEY": KEY,
        "VERIFIER_LIMITS__MAX_BATCH_ITEMS": "5",
    }
)


def test_wrong_key_is_401_authentication_error_and_not_retried(keyed_url: str) -> None:
    with (
        VerifierClient(keyed_url, api_key="wrong") as client,
        pytest.raises(AuthenticationError) as info,
    ):
        client.math([ITEM])
    assert info.value.status_code == 401 and info.value.code == "unauthorized"


def test_missing_key_is_401_with_a_json_error_body(keyed_url: str) -> None:
    response = httpx.post(f"{keyed_url}/math", json={"items": [ITEM]})
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthorized"


def test_right_key_is_accepted_as_header_or_bearer(keyed_url: str) -> None:
    with VerifierClient(keyed_url, api_key=KEY) as client:
        assert client.math([ITEM])[0].status is Status.passed
    bearer = httpx.post(
        f"{keyed_url}/math", json={"items": [ITEM]}, headers={"Authorization": f"Bearer {KEY}"}
    )
    assert bearer.status_code == 200 and bearer.json()["results"][0]["status"] == "passed"


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"X-API-Key": KEY, "Authorization": "Bearer proxy-token"}, 200),
        ({"X-API-Key": "wrong", "Authorization": f"Bearer {KEY}"}, 200),
        ({"X-API-Key": "wrong", "Authorization": "Bearer also-wrong"}, 401),
        ({"Authorization": KEY}, 401),  # not a Bearer credential
    ],
)
def test_either_credential_may_carry_the_key(
    keyed_url: str, headers: dict[str, str], status: int
) -> None:
    response = httpx.post(f"{keyed_url}/math", json={"items": [ITEM]}, headers=headers)
    assert response.status_code == status
    if status == 200:
        assert response.json()["results"][0]["status"] == "passed"


def test_health_stays_open_without_a_key(keyed_url: str) -> None:
    response = httpx.get(f"{keyed_url}/health")
    assert response.status_code == 200 and response.json()["version"]


def test_batch_over_the_server_limit_is_413_unless_chunked_below_it(keyed_url: str) -> None:
    items = [{"id": str(i), "response": f"\\boxed{{{i}}}", "answer": str(i)} for i in range(12)]
    with (
        VerifierClient(keyed_url, api_key=KEY, chunk_size=12) as client,
        pytest.raises(PayloadTooLarge, match="max_batch_items"),
    ):
        client.math(items)
    with VerifierClient(keyed_url, api_key=KEY, chunk_size=5) as client:
        results = client.math(items)
    assert [r.id for r in results] == [str(i) for i in range(12)]
    assert all(r.status is Status.passed for r in results)
