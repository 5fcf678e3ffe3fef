"""`POST /run_code` (SandboxFusion's), `POST /run` (batched) and `GET /v1/ping`: thin handlers;
the work is in `domains/run` on the code domain's pool."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from rlvr.schemas.common import ErrorResponse
from rlvr.schemas.run import RunCodeRequest, RunCodeResponse, RunRequest, RunResponse
from rlvr.verifier.api.body import BoundedJsonRoute
from rlvr.verifier.api.cancel import cancel_on_disconnect
from rlvr.verifier.api.deps import domain_verifier, enforce_batch_limits, get_limits
from rlvr.verifier.domains.run.runner import CodeRunner
from rlvr.verifier.errors import Overloaded, error_response

router = APIRouter(tags=["run"], route_class=BoundedJsonRoute)


RunnerDep = Annotated[CodeRunner, Depends(domain_verifier("run"))]

_TEXT_FIELDS = ("code", "stdin", "language")


@router.post(
    "/run_code",
    response_model=RunCodeResponse,
    summary="Run one program (SandboxFusion's API)",
    responses={
        413: {"model": ErrorResponse},
        422: {"model": ErrorResponse},
        504: {"model": ErrorResponse, "description": "Busy: retry (after `Retry-After`)."},
    },
)
async def run_code(body: RunCodeRequest, request: Request, runner: RunnerDep) -> JSONResponse:
    """SandboxFusion's `POST /run_code`: its request and its answer (`Success` | `Failed` |
    `SandboxError`, `compile_result`, `run_result`, `files`), in a warm locked-down container.

    A time-out is `run_result.status: TimeLimitExceeded` (`return_code` null), never an HTTP
    error. A full queue is a 504 with `Retry-After` (the only status SandboxFusion's clients
    retry), never a `SandboxError`.
    """
    enforce_batch_limits([body], get_limits(request), _TEXT_FIELDS)
    try:
        results = await cancel_on_disconnect(request, runner.run_batch([body]))
    except Overloaded as exc:  # SandboxFusion's clients (verl) retry only a 504
        return error_response(request, 504, exc.code, exc.message, exc.headers())
    return JSONResponse(results[0].model_dump(mode="json"))


@router.post(
    "/run",
    response_model=RunResponse,
    summary="Run programs, batched",
    responses={
        413: {"model": ErrorResponse},
        422: {"model": ErrorResponse},
        503: {"model": ErrorResponse, "description": "Queue full; retry after `Retry-After`."},
    },
)
async def run_batch(body: RunRequest, request: Request, runner: RunnerDep) -> RunResponse:
    """`/run_code`'s runs batched: `{"items": [...]}` in, one `/run_code` answer per item in
    order (`id` echoed). A full queue is a 503 with `Retry-After`, like every batch endpoint."""
    enforce_batch_limits(body.items, get_limits(request), _TEXT_FIELDS)
    results = await cancel_on_disconnect(request, runner.run_batch(body.items))
    return RunResponse(results=results)


@router.get("/v1/ping", summary="SandboxFusion's liveness probe")
async def ping() -> str:
    """`"pong"` while the process serves (SandboxFusion's `GET /v1/ping`)."""
    return "pong"
