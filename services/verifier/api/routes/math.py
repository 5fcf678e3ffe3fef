"""`POST /math`: a thin handler; the work is in `domains/math`."""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Depends, Request

from services.verifier.api.cancel import cancel_on_disconnect
from services.verifier.api.deps import LimitsDep, MetricsDep, enforce_batch_limits
from services.verifier.domains.math.verifier import MathVerifier
from services.verifier.schemas.common import ErrorResponse
from services.verifier.schemas.math import MathRequest, MathResponse

router = APIRouter(tags=["math"])


def get_math_verifier(request: Request) -> MathVerifier:
    verifier: MathVerifier = request.app.state.math
    return verifier


MathVerifierDep = Annotated[MathVerifier, Depends(get_math_verifier)]


@router.post(
    "/math",
    response_model=MathResponse,
    summary="Judge final answers against ground truths",
    responses={413: {"model": ErrorResponse}, 422: {"model": ErrorResponse}},
)
async def verify_math(
    body: MathRequest,
    request: Request,
    verifier: MathVerifierDep,
    limits: LimitsDep,
    metrics: MetricsDep,
) -> MathResponse:
    """Extract each response's final answer and compare it with its ground truth.

    One result per item, in order. A pathological item times out alone; the others are unaffected.
    """
    enforce_batch_limits(body.items, limits, ("response", "answer"))
    started = time.perf_counter()
    results = await cancel_on_disconnect(request, verifier.verify_batch(body.items))
    metrics.observe_batch("math", results, time.perf_counter() - started)
    return MathResponse(results=results)
