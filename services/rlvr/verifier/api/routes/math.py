"""`POST /math`: a thin handler; the work is in `domains/math`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from rlvr.schemas.common import ErrorResponse
from rlvr.schemas.math import MathRequest, MathResponse
from rlvr.verifier.api.batch import batch_response, run_domain_batch
from rlvr.verifier.api.body import BoundedJsonRoute
from rlvr.verifier.api.deps import domain_verifier
from rlvr.verifier.domains.math.verifier import MathVerifier

router = APIRouter(tags=["math"], route_class=BoundedJsonRoute)


MathVerifierDep = Annotated[MathVerifier, Depends(domain_verifier("math"))]


@router.post(
    "/math",
    response_model=MathResponse,
    summary="Judge final answers against ground truths",
    responses={
        413: {"model": ErrorResponse},
        422: {"model": ErrorResponse},
        503: {"model": ErrorResponse, "description": "Queue full; retry after `Retry-After`."},
    },
)
async def verify_math(body: MathRequest, request: Request, verifier: MathVerifierDep) -> Response:
    """Extract each response's final answer and compare it with its ground truth.

    One result per item, in order. A pathological item times out alone; the others are unaffected.
    A batch that would take the queue past `max_queue_items` is a 503 with `Retry-After`; a
    client that hangs up cancels its batch.
    """
    results = await run_domain_batch(request, "math", verifier, body.items, ("response", "answer"))
    return await batch_response(MathResponse, results)
