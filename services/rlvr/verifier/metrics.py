"""Prometheus metrics of one app instance (its own registry, so tests can build many apps)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from rlvr.schemas.common import ItemResult

# Label values stay bounded: any unknown path (a scanner's) is counted as "other".
_KNOWN_PATHS = frozenset(
    {"/math", "/code", "/lean", "/verify", "/openrlhf", "/health", "/metrics", "/run_code", "/run"}
)
_PENDING_BATCHES = "rlvr_pending_batches"  # key in a request's ASGI state
_LATENCY_BUCKETS_S = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60)


class ServiceMetrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.items = Counter(
            "rlvr_items",
            "Items verified, by endpoint and verdict status.",
            ["endpoint", "status"],
            registry=self.registry,
        )
        self.requests = Counter(
            "rlvr_requests",
            "Requests answered, by endpoint and HTTP status code.",
            ["endpoint", "code"],
            registry=self.registry,
        )
        self.request_latency = Histogram(
            "rlvr_request_seconds",
            "Wall time of a whole batch request.",
            ["endpoint"],
            buckets=_LATENCY_BUCKETS_S,
            registry=self.registry,
        )
        self.item_latency = Histogram(
            "rlvr_item_seconds",
            "Verification time of one item.",
            ["endpoint"],
            buckets=_LATENCY_BUCKETS_S,
            registry=self.registry,
        )

    def observe_batch(self, endpoint: str, results: Iterable[ItemResult], elapsed_s: float) -> None:
        # counted per status first: a label lookup per item costs the event loop tens of ms on a
        # batch of thousands
        statuses: dict[str, int] = {}
        latency = self.item_latency.labels(endpoint)
        for result in results:
            statuses[result.status.value] = statuses.get(result.status.value, 0) + 1
            latency.observe(result.elapsed_s)
        for status, count in statuses.items():
            self.items.labels(endpoint, status).inc(count)
        self.request_latency.labels(endpoint).observe(elapsed_s)

    @staticmethod
    def defer_batch(
        state: dict[str, Any], endpoint: str, results: Sequence[ItemResult], elapsed_s: float
    ) -> None:
        """Hold a batch's verdicts until its response starts: a request that ends in a 500
        (its response could not be sent) must not count its items as passed."""
        state.setdefault(_PENDING_BATCHES, []).append((endpoint, results, elapsed_s))

    def observe_request(
        self, path: str, status_code: int, state: dict[str, Any] | None = None
    ) -> None:
        """Count a response; with it, the verdicts its handler deferred, if it is not a 5xx."""
        if path in _KNOWN_PATHS:
            endpoint = path.strip("/")
        elif path.startswith("/sessions"):  # ids in the path: one label for all of them
            endpoint = "sessions"
        else:
            endpoint = "other"
        self.requests.labels(endpoint, str(status_code)).inc()
        pending = (state or {}).pop(_PENDING_BATCHES, [])
        if status_code < 500:
            for batch_endpoint, results, elapsed_s in pending:
                self.observe_batch(batch_endpoint, results, elapsed_s)

    def render(self) -> bytes:
        return generate_latest(self.registry)
