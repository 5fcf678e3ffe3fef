"""`POST /ifeval`: a thin handler; the work is in `domains/ifeval`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request

from rlvr.schemas.common import ErrorResponse
from rlvr.schemas.ifeval import IfevalRequest, IfevalResponse
from rlvr.verifier.api.batch import run_domain_batch
from rlvr.verifier.api.deps import domain_verifier
from rlvr.verifier.domains.ifeval.verifier import IfevalVerifier

router = APIRouter(tags=["ifeval"])


IfevalVerifierDep = Annotated[IfevalVerifier, Depends(domain_verifier("ifeval"))]


@router.post(
    "/ifeval",
    response_model=IfevalResponse,
    summary="Judge responses against instruction-following constraints (IFEval's)",
    responses={
        413: {"model": ErrorResponse},
        422: {"model": ErrorResponse},
        503: {"model": ErrorResponse, "description": "Queue full; retry after `Retry-After`."},
    },
)
async def verify_ifeval(
    body: IfevalRequest, request: Request, verifier: IfevalVerifierDep
) -> IfevalResponse:
    """Check each response against its constraints (IFEval's instruction ids and arguments).

    One result per item, in order, with one entry per constraint (`met`, `why`). The reward is
    the fraction of constraints met (`scoring: "fraction"`) or 1 only when all are (`"all"`).
    An unknown instruction id or bad arguments is a 422 naming the item and constraint.
    """
    results = await run_domain_batch(
        request, "ifeval", verifier, body.items, ("response", "prompt")
    )
    return IfevalResponse(results=results)
