"""`POST /lean`: a thin handler; the work is in `domains/lean`."""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Depends, Request

from services.verifier.api.cancel import cancel_on_disconnect
from services.verifier.api.deps import LimitsDep, MetricsDep, enforce_batch_limits
from services.verifier.domains.lean.verifier import LeanVerifier
from services.verifier.schemas.common import ErrorResponse
from services.verifier.schemas.lean import LeanRequest, LeanResponse

router = APIRouter(tags=["lean"])


def get_lean_verifier(request: Request) -> LeanVerifier:
    verifier: LeanVerifier = request.app.state.lean
    return verifier


LeanVerifierDep = Annotated[LeanVerifier, Depends(get_lean_verifier)]


@router.post(
    "/lean",
    response_model=LeanResponse,
    summary="Check Lean 4 proofs against their statements",
    responses={
        413: {"model": ErrorResponse},
        422: {"model": ErrorResponse},
        503: {"model": ErrorResponse},
    },
)
async def verify_lean(
    body: LeanRequest,
    request: Request,
    verifier: LeanVerifierDep,
    limits: LimitsDep,
    metrics: MetricsDep,
) -> LeanResponse:
    """Check each proof on a warm Lean REPL: no errors, no `sorry`, the statement unchanged
    (checked by the kernel against a separately elaborated reference) and only the standard
    axioms. Constructs that could bypass the checks are refused before Lean runs.

    One result per item, in order. A proof that runs past its deadline is `timed_out`; a full
    queue is a 503 with `Retry-After`.
    """
    enforce_batch_limits(body.items, limits, ("statement", "proof", "response", "header"))
    started = time.perf_counter()
    results = await cancel_on_disconnect(request, verifier.verify_batch(body.items))
    metrics.observe_batch("lean", results, time.perf_counter() - started)
    return LeanResponse(results=results)
