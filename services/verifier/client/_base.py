"""What the sync and async clients share: configuration, request building, response parsing.

No I/O here: `_sync.py` and `_async.py` add the transport, the concurrency and the retry loop.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import httpx
from pydantic import BaseModel, TypeAdapter, ValidationError

from services.verifier.client._errors import (
    ConfigurationError,
    ProtocolError,
    ResponseError,
    error_for_status,
)
from services.verifier.client._retry import RetryPolicy, parse_retry_after
from services.verifier.schemas.code import CodeItem, CodeResult
from services.verifier.schemas.lean import LeanItem, LeanResult
from services.verifier.schemas.math import MathItem, MathResult
from services.verifier.schemas.verify import VerifyItem, VerifyResult

URL_ENV = "VERIFIER_URL"
API_KEY_ENV = "VERIFIER_API_KEY"
# A chunk of code items can legitimately take minutes (tests x per-test deadline / pool size),
# and a read timeout makes the client send the same work again: keep reads long and bound a
# whole call with `deadline_s` instead. Connecting, though, should be quick.
DEFAULT_TIMEOUT = httpx.Timeout(300.0, connect=5.0)

ItemT = TypeVar("ItemT")
ResultT = TypeVar("ResultT")


@dataclass(frozen=True)
class Endpoint(Generic[ItemT, ResultT]):
    """One batch endpoint: its path, how items are checked, how results are parsed."""

    path: str
    items: TypeAdapter[list[ItemT]]
    results: TypeAdapter[list[ResultT]]


class _Results(BaseModel):
    results: list[Any]


MATH: Endpoint[MathItem, MathResult] = Endpoint(
    "/math", TypeAdapter(list[MathItem]), TypeAdapter(list[MathResult])
)
CODE: Endpoint[CodeItem, CodeResult] = Endpoint(
    "/code", TypeAdapter(list[CodeItem]), TypeAdapter(list[CodeResult])
)
LEAN: Endpoint[LeanItem, LeanResult] = Endpoint(
    "/lean", TypeAdapter(list[LeanItem]), TypeAdapter(list[LeanResult])
)
VERIFY: Endpoint[VerifyItem, VerifyResult] = Endpoint(
    "/verify", TypeAdapter(list[VerifyItem]), TypeAdapter(list[VerifyResult])
)


def resolve_base_url(base_url: str | None) -> str:
    url = base_url or os.environ.get(URL_ENV)
    if not url:
        raise ConfigurationError(f"no service URL: pass base_url= or set {URL_ENV}")
    return url.rstrip("/")


def resolve_api_key(api_key: str | None) -> str | None:
    return api_key if api_key is not None else os.environ.get(API_KEY_ENV) or None


def encode_items(endpoint: Endpoint[Any, Any], items: Iterable[Any]) -> list[dict[str, Any]]:
    """Items (pydantic models or plain dicts) as JSON-ready dicts, validated locally first.

    Validating here turns a typo into a `ConfigurationError` naming the item, before any chunk
    is sent, instead of a 422 for one chunk after others already ran.
    """
    raw = [
        item.model_dump(exclude_none=True) if isinstance(item, BaseModel) else item
        for item in items
    ]
    try:
        models = endpoint.items.validate_python(raw)
    except ValidationError as exc:
        raise ConfigurationError(f"invalid items for {endpoint.path}: {exc}") from exc
    return [m.model_dump(mode="json", exclude_none=True) for m in models]


def error_from_response(response: httpx.Response) -> ResponseError:
    """The `ResponseError` for a non-2xx answer, read from our JSON error body when present."""
    code, message, request_id = "http_error", response.reason_phrase, None
    try:
        info = response.json().get("error", {})
        code = str(info.get("code", code))
        message = str(info.get("message", message))
        request_id = info.get("request_id")
    except (ValueError, AttributeError):
        message = response.text[:500] or message
    return error_for_status(
        response.status_code,
        code,
        message,
        request_id or response.headers.get("x-request-id"),
        parse_retry_after(response.headers.get("retry-after")),
    )


def parse_results(
    endpoint: Endpoint[Any, ResultT], response: httpx.Response, expected: int
) -> list[ResultT]:
    """Typed results of one chunk; raises the mapped error for a non-2xx answer."""
    if response.status_code >= 300:
        raise error_from_response(response)
    try:
        body = _Results.model_validate_json(response.content)
        results = endpoint.results.validate_python(body.results)
    except ValidationError as exc:
        raise ProtocolError(
            f"{endpoint.path}: response does not match the contract: {exc}"
        ) from exc
    if len(results) != expected:
        raise ProtocolError(f"{endpoint.path}: sent {expected} items, got {len(results)} results")
    return results


class BaseClient:
    """Configuration shared by `VerifierClient` and `AsyncVerifierClient`.

    Args:
        base_url: Service URL; defaults to `$VERIFIER_URL`.
        api_key: Sent as `X-API-Key`; defaults to `$VERIFIER_API_KEY` (none if unset).
        timeout: Per-request httpx timeout (seconds or an `httpx.Timeout`; default: 5 s to
            connect, 300 s for the rest). Prefer `deadline_s` to bound a call.
        chunk_size: Items per request; bigger batches are split and sent concurrently. 64 was
            the fastest of 64/128/256/1024 for 1,024 math items (benchmarks/RESULTS.md,
            `## Client`): the server overlaps one chunk's parsing with others' verification.
        max_concurrency: Chunks in flight at once, per call.
        deadline_s: Default deadline for a whole call (all chunks and retries); None: none.
        retry: The `RetryPolicy` (what is retried, backoff, attempts).
        headers: Extra headers sent with every request.
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        api_key: str | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        chunk_size: int = 64,
        max_concurrency: int = 8,
        deadline_s: float | None = None,
        retry: RetryPolicy | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        if chunk_size < 1:
            raise ConfigurationError("chunk_size must be >= 1")
        if max_concurrency < 1:
            raise ConfigurationError("max_concurrency must be >= 1")
        if deadline_s is not None and deadline_s <= 0:
            raise ConfigurationError("deadline_s must be > 0")
        self.base_url = resolve_base_url(base_url)
        self.chunk_size = chunk_size
        self.max_concurrency = max_concurrency
        self.deadline_s = deadline_s
        self.retry = retry or RetryPolicy()
        self.timeout = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
        api_key = resolve_api_key(api_key)
        self._headers = {"user-agent": "rlvr-verifier-client", **(headers or {})}
        if api_key:
            self._headers["x-api-key"] = api_key

    def _deadline(self, deadline_s: float | None) -> float | None:
        """Absolute `time.monotonic()` deadline of a call (its own, else the client's)."""
        seconds = deadline_s if deadline_s is not None else self.deadline_s
        return None if seconds is None else time.monotonic() + seconds

    def _attempt_timeout(self, deadline: float | None) -> httpx.Timeout:
        """The httpx timeout of one attempt, shortened so it cannot outlive the deadline."""
        if deadline is None:
            return self.timeout
        left = max(0.001, deadline - time.monotonic())

        def cap(value: float | None) -> float:
            return left if value is None else min(value, left)

        t = self.timeout
        return httpx.Timeout(
            connect=cap(t.connect), read=cap(t.read), write=cap(t.write), pool=cap(t.pool)
        )
