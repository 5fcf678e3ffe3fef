"""Stateful sessions in tests: a live service with sessions on, and a tiny sync client of its
`/sessions` endpoints (the real client is `rlvr.client`; these helpers assert the HTTP status,
so a test states only what it checks)."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import docker
import httpx

from tests.support.server import LiveService, live_service


def session_env(**overrides: str) -> dict[str, str]:
    """A service with sessions and nothing else that starts containers; the session image is
    the one the code tests use (`VERIFIER_CODE__SANDBOX__IMAGE`) when set."""
    env = {
        "VERIFIER_CODE__IS_ENABLED": "false",
        "VERIFIER_LEAN__IS_ENABLED": "false",
        "VERIFIER_SESSIONS__REAPER_INTERVAL_S": "0.2",
    }
    image = os.environ.get("VERIFIER_CODE__SANDBOX__IMAGE")
    if image:
        env["VERIFIER_SESSIONS__SANDBOX__IMAGE"] = image
    return {**env, **{f"VERIFIER_SESSIONS__{k.upper()}": v for k, v in overrides.items()}}


@contextmanager
def session_service(**overrides: str) -> Iterator[LiveService]:
    with live_service(session_env(**overrides)) as service:
        yield service


def open_session(url: str, expect: int = 200, **body: Any) -> dict[str, Any]:
    reply = httpx.post(f"{url}/sessions", json=body, timeout=120)
    assert reply.status_code == expect, reply.text[:2000]
    answer: dict[str, Any] = reply.json()
    return answer


def new_session(url: str, **body: Any) -> str:
    return str(open_session(url, **body)["session_id"])


def cell(url: str, sid: str, code: str, timeout_s: float | None = None) -> dict[str, Any]:
    """A cell's result; the reply must be a 200."""
    reply = run(url, sid, code, timeout_s)
    assert reply.status_code == 200, reply.text[:2000]
    result: dict[str, Any] = reply.json()
    return result


def run(url: str, sid: str, code: str, timeout_s: float | None = None) -> httpx.Response:
    body: dict[str, Any] = {"code": code}
    if timeout_s is not None:
        body["timeout_s"] = timeout_s
    return httpx.post(f"{url}/sessions/{sid}/run", json=body, timeout=120)


def close(url: str, sid: str) -> httpx.Response:
    return httpx.delete(f"{url}/sessions/{sid}", timeout=60)


def value(url: str, sid: str, code: str) -> Any:
    """The `repr` of a cell's final expression, asserting the cell was `ok`."""
    result = cell(url, sid, code)
    assert result["status"] == "ok", result
    return result["value"]


def session_stats(url: str) -> Mapping[str, Any]:
    stats: Mapping[str, Any] = httpx.get(f"{url}/health").json()["domains"]["sessions"]["stats"]
    return stats


def service_containers(service: LiveService) -> list[Any]:
    """The service's session containers (by the owner label its pool wrote), oldest first."""
    owner = f"{socket.gethostname()}:{service.process.pid}"
    found = docker.from_env().containers.list(
        filters={"label": ["rlvr.pool=sessions", f"rlvr.pool.owner={owner}"]}
    )
    return sorted(found, key=lambda c: c.attrs["Created"])
