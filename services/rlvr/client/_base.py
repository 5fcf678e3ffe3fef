"""What the sync and async clients share: configuration, request building, response parsing.

No I/O here: `_sync.py` and `_async.py` add the transport, the concurrency and the retry loop.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import httpx
from pydantic import BaseModel, TypeAdapter, ValidationError

from rlvr.client._endpoints import (
    EndpointSet,
    parse_urls,
    rank_from_environment,
    slice_for_rank,
)
from rlvr.client._errors import (
    NOT_THE_SERVICES_BODY,
    ConfigurationError,
    ProtocolError,
    ResponseError,
    error_for_status,
)
from rlvr.client._retry import RetryPolicy, parse_retry_after, retrying_kwargs
from rlvr.schemas.answer import AnswerItem, AnswerResult
from rlvr.schemas.choice import ChoiceItem, ChoiceResult
from rlvr.schemas.code import CodeItem, CodeResult
from rlvr.schemas.gym import GymItem, GymResult
from rlvr.schemas.ifeval import IfevalItem, IfevalResult
from rlvr.schemas.lean import LeanItem, LeanResult
from rlvr.schemas.math import MathItem, MathResult
from rlvr.schemas.run import RunCodeResponse, RunItem
from rlvr.schemas.verify import VerifyItem, VerifyResult

URL_ENV = "VERIFIER_URL"
API_KEY_ENV = "VERIFIER_API_KEY"
SPLIT_ENV = "VERIFIER_SPLIT_BY_RANK"
# A chunk of code items can legitimately take minutes (tests x per-test deadline / pool size),
# and a read timeout makes the client send the same work again: keep reads long and bound a
# whole call with `deadline_s` instead. Connecting, though, should be quick.
DEFAULT_TIMEOUT = httpx.Timeout(300.0, connect=5.0)
# A probe of an endpoint coming back from its back-off: quick, it only asks `/health`.
PROBE_TIMEOUT = httpx.Timeout(2.0, connect=1.0)

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
IFEVAL: Endpoint[IfevalItem, IfevalResult] = Endpoint(
    "/ifeval", TypeAdapter(list[IfevalItem]), TypeAdapter(list[IfevalResult])
)
CHOICE: Endpoint[ChoiceItem, ChoiceResult] = Endpoint(
    "/choice", TypeAdapter(list[ChoiceItem]), TypeAdapter(list[ChoiceResult])
)
ANSWER: Endpoint[AnswerItem, AnswerResult] = Endpoint(
    "/answer", TypeAdapter(list[AnswerItem]), TypeAdapter(list[AnswerResult])
)
GYM: Endpoint[GymItem, GymResult] = Endpoint(
    "/gym", TypeAdapter(list[GymItem]), TypeAdapter(list[GymResult])
)
VERIFY: Endpoint[VerifyItem, VerifyResult] = Endpoint(
    "/verify", TypeAdapter(list[VerifyItem]), TypeAdapter(list[VerifyResult])
)
RUN: Endpoint[RunItem, RunCodeResponse] = Endpoint(
    "/run", TypeAdapter(list[RunItem]), TypeAdapter(list[RunCodeResponse])
)


def run_item(
    code: str,
    language: str,
    stdin: str | None,
    run_timeout: float,
    compile_timeout: float,
    memory_limit_mb: int | None,
    files: Mapping[str, str] | None,
    fetch_files: Sequence[str] | None,
) -> dict[str, Any]:
    """One `/run` item from `run_code`'s arguments (SandboxFusion's field names)."""
    item: dict[str, Any] = {
        "code": code,
        "language": language,
        "run_timeout": run_timeout,
        "compile_timeout": compile_timeout,
        "stdin": stdin,
        "files": dict(files or {}),
        "fetch_files": list(fetch_files or []),
    }
    if memory_limit_mb is not None:
        item["memory_limit_MB"] = memory_limit_mb
    return item


def resolve_base_urls(base_url: str | Sequence[str] | None) -> list[str]:
    """The service URLs: `base_url` (one URL, a list, or comma-separated), else `$VERIFIER_URL`."""
    urls = parse_urls(base_url or os.environ.get(URL_ENV) or "")
    if not urls:
        raise ConfigurationError(f"no service URL: pass base_url= or set {URL_ENV}")
    return urls


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
    code, message, request_id = NOT_THE_SERVICES_BODY, response.reason_phrase, None
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
        base_url: Service URL, or several (a list, or comma-separated); defaults to
            `$VERIFIER_URL` (which may hold several, comma-separated). With several, each chunk
            goes to the endpoint with the fewest requests in flight; one that cannot be reached
            or answers 5xx is left out for a back-off period (a 503's `Retry-After`, else
            `endpoint_backoff_s` doubling per failure) while its chunks are retried on the
            others at once, and it is probed with `GET /health` before it gets work again.
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
        split_by_rank: Use only this process's slice of the endpoints, by `RANK` and
            `WORLD_SIZE` (set by torchrun and accelerate): see `slice_for_rank`. Default:
            `$VERIFIER_SPLIT_BY_RANK` (`1`/`true`), so adapters built without arguments follow.
        endpoint_backoff_s: First back-off of a failed endpoint (several URLs only).
    """

    def __init__(
        self,
        base_url: str | Sequence[str] | None = None,
        *,
        api_key: str | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        chunk_size: int = 64,
        max_concurrency: int = 8,
        deadline_s: float | None = None,
        retry: RetryPolicy | None = None,
        headers: Mapping[str, str] | None = None,
        split_by_rank: bool | None = None,
        endpoint_backoff_s: float = 1.0,
    ) -> None:
        if chunk_size < 1:
            raise ConfigurationError("chunk_size must be >= 1")
        if max_concurrency < 1:
            raise ConfigurationError("max_concurrency must be >= 1")
        if deadline_s is not None and deadline_s <= 0:
            raise ConfigurationError("deadline_s must be > 0")
        urls = resolve_base_urls(base_url)
        if split_by_rank is None:
            split_by_rank = os.environ.get(SPLIT_ENV, "").lower() in ("1", "true", "yes")
        if split_by_rank:
            urls = slice_for_rank(urls, *rank_from_environment())
        self.base_urls = urls
        self.base_url = urls[0]
        self.endpoints = EndpointSet(urls, backoff_s=endpoint_backoff_s)
        self.chunk_size = chunk_size
        self.max_concurrency = max_concurrency
        self.deadline_s = deadline_s
        self.retry = retry or RetryPolicy()
        self.timeout = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
        api_key = resolve_api_key(api_key)
        self._headers = {"user-agent": "rlvr-verifier-client", **(headers or {})}
        if api_key:
            self._headers["x-api-key"] = api_key

    def _retry_arguments(self, deadline: float | None) -> dict[str, Any]:
        """tenacity's arguments for one chunk: the policy, the deadline, and failing over."""
        return retrying_kwargs(self.retry, deadline, self.endpoints.has_healthy_alternative)

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
