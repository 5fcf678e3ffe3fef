"""When to retry and how long to wait: exponential backoff with jitter, `Retry-After`, a deadline.

The policy is data (`RetryPolicy`); `retrying_kwargs` turns it into tenacity's arguments, shared
by the sync and async clients so both retry exactly alike.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, NoReturn

from tenacity import RetryCallState, retry_if_exception

from rlvr.client._errors import (
    NOT_THE_SERVICES_BODY,
    DeadlineExceeded,
    ResponseError,
    TransportError,
)


@dataclass(frozen=True)
class RetryPolicy:
    """How a failed request is retried: transport errors, `retry_statuses`, and a proxy's 500
    (`is_from_a_proxy`); nothing else.

    The wait before attempt n+1 is `min(max_backoff_s, initial_backoff_s * 2**(n-1))` plus a
    uniform jitter in `[0, jitter_s]`, or the server's `Retry-After` (capped at
    `max_retry_after_s`) plus jitter when it sent one.
    """

    max_attempts: int = 5
    initial_backoff_s: float = 0.25
    max_backoff_s: float = 8.0
    jitter_s: float = 0.25
    max_retry_after_s: float = 30.0
    retry_statuses: frozenset[int] = frozenset({502, 503, 504})

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be >= 1")
        if any(400 <= status < 500 for status in self.retry_statuses):
            raise ValueError("4xx answers are never retried: the same request gets the same answer")

    def is_retryable(self, exc: BaseException) -> bool:
        if isinstance(exc, TransportError):
            return True
        if not isinstance(exc, ResponseError):
            return False
        return exc.status_code in self.retry_statuses or is_from_a_proxy(exc)

    def wait_s(self, attempt_number: int, exc: BaseException | None) -> float:
        """Seconds to sleep after failed attempt number `attempt_number` (1-based)."""
        jitter = random.uniform(0.0, self.jitter_s)
        retry_after = exc.retry_after_s if isinstance(exc, ResponseError) else None
        if retry_after is not None:
            return min(retry_after, self.max_retry_after_s) + jitter
        backoff = self.initial_backoff_s * 2 ** (attempt_number - 1)
        return min(backoff, self.max_backoff_s) + jitter


def is_from_a_proxy(exc: ResponseError) -> bool:
    """A 500 without the service's error body: the service never answered it (its own 500s
    carry `internal_error`). Ray Serve's proxy answers so when the replica serving the request
    dies mid-request; a batch is idempotent, so it is sent again like a 502. (A session's cell
    is never retried: it is not sent through this policy.)"""
    return exc.status_code == 500 and exc.code == NOT_THE_SERVICES_BODY


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """`Retry-After` as seconds: either delta-seconds or an HTTP date; None if absent or bad."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def remaining_s(deadline: float | None) -> float | None:
    """Seconds left before a `time.monotonic()` deadline (None: no deadline)."""
    return None if deadline is None else deadline - time.monotonic()


def retrying_kwargs(
    policy: RetryPolicy,
    deadline: float | None,
    can_fail_over: Callable[[], bool] = lambda: False,
) -> dict[str, Any]:
    """Arguments for `tenacity.Retrying` / `AsyncRetrying` that implement `policy` and `deadline`.

    It stops when the attempts run out, or when the next sleep would end past the deadline; the
    last error is then re-raised (as `DeadlineExceeded` in the second case). When
    `can_fail_over()` says another endpoint is healthy, the retry goes there without backing off.
    """

    def wait(state: RetryCallState) -> float:
        if can_fail_over():
            return 0.0
        exc = state.outcome.exception() if state.outcome else None
        return policy.wait_s(state.attempt_number, exc)

    def stop(state: RetryCallState) -> bool:
        if state.attempt_number >= policy.max_attempts:
            return True
        left = remaining_s(deadline)
        return left is not None and state.upcoming_sleep >= left

    def give_up(state: RetryCallState) -> NoReturn:
        assert state.outcome is not None
        exc = state.outcome.exception()
        assert exc is not None
        left = remaining_s(deadline)
        if state.attempt_number < policy.max_attempts and left is not None:
            raise DeadlineExceeded(
                f"deadline reached after {state.attempt_number} attempt(s); last error: {exc}"
            ) from exc
        raise exc

    return {
        "retry": retry_if_exception(policy.is_retryable),
        "wait": wait,
        "stop": stop,
        "retry_error_callback": give_up,
    }
