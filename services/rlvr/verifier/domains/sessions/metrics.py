"""The sessions' Prometheus metrics, on the app's registry (`/metrics`)."""

from __future__ import annotations

from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

_CELL_BUCKETS_S = (0.002, 0.005, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 300)


class SessionMetrics:
    def __init__(self, registry: CollectorRegistry) -> None:
        self.open = Gauge("rlvr_sessions_open", "Sessions open now.", registry=registry)
        self.capacity = Gauge(
            "rlvr_sessions_capacity", "Sessions this process may hold.", registry=registry
        )
        self.containers = Gauge(
            "rlvr_session_containers", "Session containers alive.", registry=registry
        )
        self.opened = Counter("rlvr_sessions_opened", "Sessions opened.", registry=registry)
        self.closed = Counter(
            "rlvr_sessions_closed", "Sessions closed by their client.", registry=registry
        )
        self.expired = Counter(
            "rlvr_sessions_expired",
            "Sessions closed by the reaper, by reason (idle, lifetime).",
            ["reason"],
            registry=registry,
        )
        self.lost = Counter(
            "rlvr_sessions_lost", "Sessions lost with their container.", registry=registry
        )
        self.died = Counter(
            "rlvr_sessions_died",
            "Sessions whose process ended (a timeout, memory, output, its own exit).",
            registry=registry,
        )
        self.cells = Counter(
            "rlvr_session_cells", "Cells run, by status.", ["status"], registry=registry
        )
        self.cell_seconds = Histogram(
            "rlvr_session_cell_seconds",
            "Wall time of one cell in its container.",
            buckets=_CELL_BUCKETS_S,
            registry=registry,
        )

    def bind(self, service: Any) -> None:
        """The gauges read the service when scraped (never stale)."""
        self.open.set_function(lambda: service.table.open_count)
        self.capacity.set_function(lambda: service.table.max_sessions)
        self.containers.set_function(lambda: service.pool.stats().get("containers", 0))
