"""POST helpers for tests against a live service: one way to send a batch and read its results.

- `post_body`: a body exactly as written (a stranger's JSON: `NaN`, lone surrogates, deep nesting).
- `post_items`: `{"items": [...]}` to an endpoint, the reply as it came (status, headers).
- `verdicts`: the same, asserting a 200 with one result per item, and returning the results.

`items` are encoded with `json.dumps` (ASCII-escaped), so a lone surrogate in a test's string
travels as `\\udxxx`, as a client in another language would send it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import httpx

JSON = {"content-type": "application/json"}


def post_body(
    url: str,
    path: str,
    body: str | bytes,
    *,
    timeout_s: float = 60,
    headers: Mapping[str, str] | None = None,
) -> httpx.Response:
    """POST `body` as written to `url + path` with a JSON content type."""
    return httpx.post(
        f"{url}{path}", content=body, headers={**JSON, **(headers or {})}, timeout=timeout_s
    )


def post_items(
    url: str,
    path: str,
    items: Sequence[Mapping[str, Any]],
    *,
    timeout_s: float = 120,
    headers: Mapping[str, str] | None = None,
) -> httpx.Response:
    """POST `{"items": items}` to `url + path`; the reply as it came."""
    return post_body(
        url, path, json.dumps({"items": list(items)}), timeout_s=timeout_s, headers=headers
    )


def verdicts(
    url: str,
    path: str,
    items: Sequence[Mapping[str, Any]],
    *,
    timeout_s: float = 300,
    headers: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """The results of `items` at `path`: the reply must be a 200 with one result per item."""
    reply = post_items(url, path, items, timeout_s=timeout_s, headers=headers)
    assert reply.status_code == 200, reply.text[:2000]
    results: list[dict[str, Any]] = reply.json()["results"]
    assert len(results) == len(items), (len(results), len(items))
    return results


def post_code(
    url: str, items: Sequence[Mapping[str, Any]], timeout_s: float = 300
) -> list[dict[str, Any]]:
    """`verdicts` of `/code` items (the Docker-backed code suites' one call)."""
    return verdicts(url, "/code", items, timeout_s=timeout_s)
