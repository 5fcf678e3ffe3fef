"""`POST /gym`: a thin handler; the work is in `domains/gym`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request

from rlvr.schemas.common import ErrorResponse
from rlvr.schemas.gym import GymRequest, GymResponse
from rlvr.verifier.api.batch import run_domain_batch
from rlvr.verifier.api.deps import domain_verifier
from rlvr.verifier.domains.gym.verifier import GymVerifier

router = APIRouter(tags=["gym"])

GymVerifierDep = Annotated[GymVerifier, Depends(domain_verifier("gym"))]


@router.post(
    "/gym",
    response_model=GymResponse,
    summary="Score reasoning-gym answers with each task's own scorer",
    responses={
        413: {"model": ErrorResponse},
        422: {"model": ErrorResponse},
        503: {"model": ErrorResponse, "description": "Queue full; retry after `Retry-After`."},
    },
)
async def verify_gym(body: GymRequest, request: Request, verifier: GymVerifierDep) -> GymResponse:
    """Score each response's last `<answer>` with its task's own `score_answer`.

    One result per item, in order; the reward is the task's score (partial scores stay
    partial). A task name the installed reasoning-gym does not have is a 422 naming the close
    ones; a scorer past the item's deadline is killed and the item is `timed_out`.
    """
    results = await run_domain_batch(request, "gym", verifier, body.items, ("response",))
    return GymResponse(results=results)
