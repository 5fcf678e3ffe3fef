"""`POST /answer`: a thin handler; the work is in `domains/answer`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request

from rlvr.schemas.answer import AnswerRequest, AnswerResponse
from rlvr.schemas.common import ErrorResponse
from rlvr.verifier.api.batch import run_domain_batch
from rlvr.verifier.api.deps import domain_verifier
from rlvr.verifier.domains.answer.verifier import AnswerVerifier

router = APIRouter(tags=["answer"])

AnswerVerifierDep = Annotated[AnswerVerifier, Depends(domain_verifier("answer"))]


@router.post(
    "/answer",
    response_model=AnswerResponse,
    summary="Judge multiple-answer answers against the correct label",
    responses={
        413: {"model": ErrorResponse},
        422: {"model": ErrorResponse},
        503: {"model": ErrorResponse, "description": "Queue full; retry after `Retry-After`."},
    },
)
async def verify_answer(
    body: AnswerRequest, request: Request, verifier: AnswerVerifierDep
) -> AnswerResponse:
    """Read the answer each response commits to and match it against the item's aliases.

    One result per item, in order, with `extracted`, `matched` (the alias) and a `reason` code.
    Normalised exact match, numbers compared as numbers, or token F1 (graded or thresholded);
    an answer stuffed with several candidates or aliases fails.
    """
    results = await run_domain_batch(request, "answer", verifier, body.items, ("response",))
    return AnswerResponse(results=results)
