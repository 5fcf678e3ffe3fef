"""`POST /sessions`, `POST /sessions/{id}/run`, `DELETE /sessions/{id}`: thin handlers; the work
is in `domains/sessions` on its own containers."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request

from rlvr.schemas.common import ErrorResponse
from rlvr.schemas.sessions import (
    CellResult,
    CloseSessionResponse,
    OpenSessionRequest,
    OpenSessionResponse,
    RunCellRequest,
)
from rlvr.verifier.api.body import BoundedJsonRoute
from rlvr.verifier.api.deps import domain_verifier, enforce_batch_limits, get_limits

router = APIRouter(tags=["sessions"], route_class=BoundedJsonRoute)


SessionsDep = Annotated[Any, Depends(domain_verifier("sessions"))]
SessionId = Annotated[str, Path(min_length=1, max_length=128, description="The session's id.")]

_NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {
        "model": ErrorResponse,
        "description": "No such open session (says why), or no sessions offered here.",
    }
}


@router.post(
    "/sessions",
    response_model=OpenSessionResponse,
    summary="Open a stateful Python session",
    responses={
        **_NOT_FOUND,
        503: {"model": ErrorResponse, "description": "At the session limit: retry."},
    },
)
async def open_session(
    body: OpenSessionRequest, request: Request, sessions: SessionsDep
) -> OpenSessionResponse:
    """A Python process of its own (variables, imports and files persist between its cells
    and nowhere else), with its limits after the server's caps; `setup_code` runs as its
    first cell. At the host's limit: 503 with `Retry-After`."""
    enforce_batch_limits([body], get_limits(request), ("setup_code",))
    response: OpenSessionResponse = await sessions.open(body)
    return response


@router.post(
    "/sessions/{session_id}/run",
    response_model=CellResult,
    summary="Run a cell in a session",
    responses=_NOT_FOUND,
)
async def run_cell(
    session_id: SessionId, body: RunCellRequest, request: Request, sessions: SessionsDep
) -> CellResult:
    """Runs `code` in the session's namespace: stdout, stderr, the `repr` of a final
    expression, the exception (`Type: message`, traceback in stderr), a status that says
    whether the session lives on. Cells of one session run one at a time: a second call
    waits for the first. A dead, closed or expired session is a 404 that says which."""
    enforce_batch_limits([body], get_limits(request), ("code",))
    result: CellResult = await sessions.run_cell(session_id, body)
    return result


@router.delete(
    "/sessions/{session_id}",
    response_model=CloseSessionResponse,
    summary="Close a session",
    responses=_NOT_FOUND,
)
async def close_session(session_id: SessionId, sessions: SessionsDep) -> CloseSessionResponse:
    """Kills the session's processes and drops its files; `closed` is false for a session
    that had died already."""
    response: CloseSessionResponse = await sessions.close(session_id)
    return response
