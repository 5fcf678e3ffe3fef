"""`POST /choice`: a thin handler; the work is in `domains/choice`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request

from rlvr.schemas.choice import ChoiceRequest, ChoiceResponse
from rlvr.schemas.common import ErrorResponse
from rlvr.verifier.api.batch import run_domain_batch
from rlvr.verifier.api.deps import domain_verifier
from rlvr.verifier.domains.choice.verifier import ChoiceVerifier

router = APIRouter(tags=["choice"])

ChoiceVerifierDep = Annotated[ChoiceVerifier, Depends(domain_verifier("choice"))]


@router.post(
    "/choice",
    response_model=ChoiceResponse,
    summary="Judge multiple-choice answers against the correct label",
    responses={
        413: {"model": ErrorResponse},
        422: {"model": ErrorResponse},
        503: {"model": ErrorResponse, "description": "Queue full; retry after `Retry-After`."},
    },
)
async def verify_choice(
    body: ChoiceRequest, request: Request, verifier: ChoiceVerifierDep
) -> ChoiceResponse:
    """Read the label each response commits to and compare it with the correct one.

    One result per item, in order, with `choice` (the label read) and a `reason` code; a hedge
    (`A or C`, every option, two boxes) or a label quoted with another option's text fails.
    """
    results = await run_domain_batch(request, "choice", verifier, body.items, ("response",))
    return ChoiceResponse(results=results)
