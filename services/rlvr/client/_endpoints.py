"""Several service endpoints behind one client: least-loaded choice, back-off, probes, rank slices.

Bookkeeping only, no I/O: before each attempt the sync and async clients ask `EndpointSet.pick()`
for an endpoint (it may first ask them to probe one with `GET /health`), and report how the
attempt ended through `EndpointSet.attempt()`. A client with one URL behaves exactly as before:
its only endpoint is always picked, never probed, and retries keep their usual back-off.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from rlvr.client._errors import (
    ConfigurationError,
    ResponseError,
    ServiceError,
    TransportError,
)

URL_SEPARATOR = ","


def parse_urls(urls: str | Sequence[str]) -> list[str]:
    """Base URLs from a list or a comma-separated string, stripped, without trailing `/`, deduped.

    >>> parse_urls("http://a:8000/, http://b:8000")
    ['http://a:8000', 'http://b:8000']
    """
    parts = urls.split(URL_SEPARATOR) if isinstance(urls, str) else list(urls)
    seen: dict[str, None] = {}
    for part in parts:
        url = part.strip().rstrip("/")
        if url:
            seen.setdefault(url, None)
    return list(seen)


def slice_for_rank(urls: Sequence[str], rank: int, world_size: int) -> list[str]:
    """The endpoints one trainer process uses when each rank takes its own slice.

    With at least as many endpoints as ranks, rank r takes every world_size-th endpoint from r
    (disjoint slices covering all); with fewer, ranks share them round-robin.
    """
    if world_size < 1 or not 0 <= rank < world_size:
        raise ConfigurationError(f"bad rank {rank} of world size {world_size}")
    if not urls:
        raise ConfigurationError("no endpoints to slice")
    if world_size <= len(urls):
        return list(urls[rank::world_size])
    return [urls[rank % len(urls)]]


def rank_from_environment() -> tuple[int, int]:
    """(rank, world size) as torchrun and accelerate export them; (0, 1) outside a launcher."""
    return int(os.environ.get("RANK", "0")), int(os.environ.get("WORLD_SIZE", "1"))


@dataclass
class Replica:
    """One endpoint's state as this client sees it."""

    url: str
    in_flight: int = 0
    consecutive_failures: int = 0
    down_until: float = 0.0  # monotonic time; 0: healthy
    is_probing: bool = False
    attempts: int = 0  # requests sent to it (for tests and logs)

    @property
    def is_down(self) -> bool:
        return self.down_until > 0.0


@dataclass(frozen=True)
class Pick:
    """The endpoint for the next attempt; when `probe` is set, probe it first and report."""

    replica: Replica
    probe: bool = False


def marks_endpoint_down(exc: BaseException) -> bool:
    """Faults of the endpoint rather than of the request: it could not be reached, or it 5xx'd.

    A 4xx (the request's fault) or a protocol error leaves the endpoint in service.
    """
    if isinstance(exc, TransportError):
        return True
    return isinstance(exc, ServiceError)


class EndpointSet:
    """Endpoints with in-flight counts and back-off; thread-safe (the sync client uses threads).

    Args:
        urls: Base URLs, in the order given.
        backoff_s: How long an endpoint stays out after its first failure; doubled per further
            consecutive failure up to `max_backoff_s`. A 503's `Retry-After` is used instead.
        clock: `time.monotonic`, replaceable in tests.
    """

    def __init__(
        self,
        urls: Sequence[str],
        *,
        backoff_s: float = 1.0,
        max_backoff_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not urls:
            raise ConfigurationError("no service URL")
        self.replicas = [Replica(url) for url in urls]
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self._clock = clock
        self._lock = threading.Lock()
        self._turn = itertools.count()

    @property
    def is_single(self) -> bool:
        return len(self.replicas) == 1

    def pick(self, allow_probe: bool = True) -> Pick:
        """The least-loaded healthy endpoint (ties in turn), or one that is due for a probe.

        An endpoint whose back-off has ended is probed before it gets work again. With no
        healthy endpoint left, the one that comes back soonest is used anyway: the retry's own
        back-off then paces the attempts, as with a single URL.
        """
        with self._lock:
            if self.is_single:
                return Pick(self.replicas[0])
            now = self._clock()
            for replica in self.replicas if allow_probe else ():
                if replica.is_down and not replica.is_probing and replica.down_until <= now:
                    replica.is_probing = True
                    return Pick(replica, probe=True)
            healthy = [r for r in self.replicas if not r.is_down]
            if not healthy:
                return Pick(min(self.replicas, key=lambda r: r.down_until))
            start = next(self._turn) % len(healthy)
            rotated = healthy[start:] + healthy[:start]
            return Pick(min(rotated, key=lambda r: r.in_flight))

    def has_healthy_alternative(self) -> bool:
        """Whether a retry can go to a healthy endpoint at once (so it need not back off)."""
        with self._lock:
            return not self.is_single and any(not r.is_down for r in self.replicas)

    def probed(self, replica: Replica, is_healthy: bool) -> None:
        with self._lock:
            replica.is_probing = False
            if is_healthy:
                self._mark_up(replica)
            else:
                self._mark_down(replica, None)

    @contextmanager
    def attempt(self, replica: Replica) -> Iterator[None]:
        """Count one request in flight on `replica`; its outcome updates the endpoint's state."""
        with self._lock:
            replica.in_flight += 1
            replica.attempts += 1
        try:
            yield
        except BaseException as exc:
            with self._lock:
                replica.in_flight -= 1
                if marks_endpoint_down(exc):
                    retry_after = exc.retry_after_s if isinstance(exc, ResponseError) else None
                    self._mark_down(replica, retry_after)
                else:
                    self._mark_up(replica)
            raise
        with self._lock:
            replica.in_flight -= 1
            self._mark_up(replica)

    def _mark_up(self, replica: Replica) -> None:
        replica.consecutive_failures = 0
        replica.down_until = 0.0

    def _mark_down(self, replica: Replica, retry_after_s: float | None) -> None:
        replica.consecutive_failures += 1
        if retry_after_s is None:
            exponent = replica.consecutive_failures - 1
            retry_after_s = min(self.max_backoff_s, self.backoff_s * 2**exponent)
        replica.down_until = self._clock() + max(retry_after_s, 0.001)
