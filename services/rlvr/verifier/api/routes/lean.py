"""`POST /lean`: a thin handler; the work is in `domains/lean`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request

from rlvr.schemas.common import ErrorResponse
from rlvr.schemas.lean import LeanRequest, LeanResponse
from rlvr.verifier.api.batch import run_domain_batch
from rlvr.verifier.api.body import BoundedJsonRoute
from rlvr.verifier.api.deps import domain_verifier
from rlvr.verifier.domains.lean.verifier import LeanVerifier

router = APIRouter(tags=["lean"], route_class=BoundedJsonRoute)


LeanVerifierDep = Annotated[LeanVerifier, Depends(domain_verifier("lean"))]


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
    body: LeanRequest, request: Request, verifier: LeanVerifierDep
) -> LeanResponse:
    """Check each proof on a warm Lean REPL: no errors, no `sorry`, the statement unchanged
    (checked by the kernel against a separately elaborated reference) and only the standard
    axioms. Constructs that could bypass the checks are refused before Lean runs.

    One result per item, in order. A proof that runs past its deadline is `timed_out`; a full
    queue is a 503 with `Retry-After`.
    """
    results = await run_domain_batch(
        request, "lean", verifier, body.items, ("statement", "proof", "response", "header")
    )
    return LeanResponse(results=results)
