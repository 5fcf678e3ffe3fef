"""`GET /health` and `GET /metrics`."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST

from rlvr.schemas.common import DomainHealth, HealthResponse
from rlvr.verifier import __version__
from rlvr.verifier.api.deps import MetricsDep

router = APIRouter(tags=["ops"])


@router.get("/health", response_model=HealthResponse, summary="Liveness and per-domain readiness")
async def health(request: Request) -> HealthResponse:
    """Always 200 while the process serves; `status` says whether every offered domain is
    usable (a domain with `offered: false` is reported, not counted)."""
    domains: dict[str, DomainHealth] = {
        name: verifier.health() for name, verifier in request.app.state.verifiers.items()
    }
    # A domain this deployment does not offer (Lean without a toolchain) is not a degradation:
    # a monitor keyed on `status` would otherwise alarm forever.
    status = "ok" if all(d.ok for d in domains.values() if d.offered) else "degraded"
    return HealthResponse(status=status, version=__version__, domains=domains)


@router.get(
    "/metrics",
    summary="Prometheus metrics",
    response_class=Response,
    responses={200: {"content": {CONTENT_TYPE_LATEST: {"schema": {"type": "string"}}}}},
)
async def metrics(metrics: MetricsDep) -> Response:
    """Items per endpoint and verdict, request counts, batch and item latency histograms."""
    return Response(metrics.render(), media_type=CONTENT_TYPE_LATEST)
