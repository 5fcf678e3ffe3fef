"""A live service with a one-container code pool, shared by the Docker-backed code tests.

One container on purpose: consecutive items run in the same container (unless it was retired),
so "the next job is unaffected" is tested where it matters.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.server import running_service


@pytest.fixture(scope="session")
def code_url(docker_engine: None) -> Iterator[str]:
    env = {
        "VERIFIER_CODE__POOL_SIZE": "1",
        "VERIFIER_CODE__DEFAULT_TIMEOUT_S": "3",
        "VERIFIER_LEAN__IS_ENABLED": "false",
    }
    with running_service(env) as url:
        yield url


def post_code(url: str, items: list[dict[str, Any]], timeout_s: float = 300) -> list[dict]:
    response = httpx.post(f"{url}/code", json={"items": items}, timeout=timeout_s)
    assert response.status_code == 200, response.text
    results: list[dict] = response.json()["results"]
    assert len(results) == len(items)
    return results
