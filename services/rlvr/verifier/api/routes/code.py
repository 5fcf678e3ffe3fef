"""`POST /code`: a thin handler; the work is in `domains/code` and `sandbox`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request

from rlvr.schemas.code import CodeRequest, CodeResponse
from rlvr.schemas.common import ErrorResponse
from rlvr.verifier.api.batch import run_domain_batch
from rlvr.verifier.api.body import BoundedJsonRoute
from rlvr.verifier.api.deps import domain_verifier
from rlvr.verifier.domains.code.verifier import CodeVerifier

router = APIRouter(tags=["code"], route_class=BoundedJsonRoute)


CodeVerifierDep = Annotated[CodeVerifier, Depends(domain_verifier("code"))]


@router.post(
    "/code",
    response_model=CodeResponse,
    summary="Run programs against tests in isolated sandboxes",
    responses={
        413: {"model": ErrorResponse},
        422: {"model": ErrorResponse},
        503: {"model": ErrorResponse, "description": "Queue full; retry after `Retry-After`."},
    },
)
async def verify_code(
    body: CodeRequest, request: Request, verifier: CodeVerifierDep
) -> CodeResponse:
    """Run each item's program against its tests in a warm, locked-down container.

    One result per item, in order: `reward` from the tests' verdicts as the item's `scoring`
    says (default: the weighted share passed), with a verdict per test
    (passed | failed | timed_out | memory_exceeded | runtime_error | compile_error). `error`
    (reward null) means the sandbox failed, not the candidate. A client that hangs up cancels
    its batch (queued items dropped, running containers replaced).
    """
    results = await run_domain_batch(request, "code", verifier, body.items, ("response", "code"))
    return CodeResponse(results=results)
