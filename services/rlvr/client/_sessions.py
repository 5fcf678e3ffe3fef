"""Stateful Python sessions on the service (`POST /sessions`, `POST /sessions/{id}/run`,
`DELETE /sessions/{id}`): what the sync and async session handles share, without I/O.

A session lives in one process on one endpoint, so every call for it goes to the endpoint that
opened it, never to another. Opening is retried like any other call (a 503 at capacity after its
`Retry-After`, a transport error; the endpoint list may then pick another endpoint): a failed open
left no session behind that a rollout could depend on. A cell is sent once and never retried:
it is not idempotent (`x += 1` run twice is not `x += 1`). When a cell cannot get an answer from
its endpoint (the endpoint is gone, the connection broke, the service forgot the session: 404),
the answer is a `session_lost` `CellResult`, data a rollout reads and goes on from, and the
handle stays dead from then on: a session reported dead is never silently replaced.

Behind one endpoint that is several replicas (Ray Serve's proxy), each call for a session also
names it in the `x-session-id` header, which Serve's router reads to reach the replica that
holds the session (`rlvr.verifier.scaleout.session_router`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx
from pydantic import ValidationError

from rlvr.client._base import error_from_response
from rlvr.client._errors import ConfigurationError, ProtocolError
from rlvr.schemas.sessions import (
    SESSION_ID_HEADER,
    CellResult,
    CellStatus,
    CloseSessionResponse,
    OpenSessionRequest,
    OpenSessionResponse,
    RunCellRequest,
)

SESSIONS_PATH = "/sessions"
# Read-timeout headroom over a cell's own time limit: the service answers a cell that overran
# its limit only after killing it, so the client must wait a little longer than the limit.
CELL_READ_MARGIN_S = 15.0


def session_path(session_id: str) -> str:
    """`/sessions/{id}`, the id escaped (it comes from the server, but stays a path segment)."""
    return f"{SESSIONS_PATH}/{quote(session_id, safe='')}"


def session_headers(session_id: str) -> dict[str, str]:
    """The headers of every call for one session: its id, for a router in front of replicas."""
    return {SESSION_ID_HEADER: session_id}


def open_payload(
    *,
    memory_mb: int | None = None,
    timeout_s: float | None = None,
    idle_ttl_s: float | None = None,
    max_lifetime_s: float | None = None,
    files: dict[str, str] | None = None,
    setup_code: str | None = None,
) -> dict[str, Any]:
    """The body of `POST /sessions`, checked against the contract before it is sent (a typo or a
    negative limit is a `ConfigurationError` here, not a 422 there)."""
    try:
        request = OpenSessionRequest(
            memory_mb=memory_mb,
            timeout_s=timeout_s,
            idle_ttl_s=idle_ttl_s,
            max_lifetime_s=max_lifetime_s,
            files=dict(files or {}),
            setup_code=setup_code,
        )
    except ValidationError as exc:
        raise ConfigurationError(f"invalid session limits: {exc}") from exc
    return request.model_dump(mode="json", exclude_none=True)


def cell_payload(code: str, timeout_s: float | None) -> dict[str, Any]:
    """The body of `POST /sessions/{id}/run`, checked locally first."""
    try:
        request = RunCellRequest(code=code, timeout_s=timeout_s)
    except ValidationError as exc:
        raise ConfigurationError(f"invalid cell: {exc}") from exc
    return request.model_dump(mode="json", exclude_none=True)


def parse_opened(response: httpx.Response) -> OpenSessionResponse:
    """The new session from a `POST /sessions` answer; a non-2xx answer raises its error
    (503 `ServiceOverloaded` with `retry_after_s`, retried by the caller's policy)."""
    if response.status_code >= 300:
        raise error_from_response(response)
    try:
        return OpenSessionResponse.model_validate_json(response.content)
    except ValidationError as exc:
        raise ProtocolError(
            f"POST {SESSIONS_PATH}: answer does not match the contract: {exc}"
        ) from exc


def ended_cell(previous: CellResult) -> CellResult:
    """The answer to a cell sent to a session that an earlier answer reported dead."""
    return lost_cell(f"the session ended earlier ({previous.status.value}): open a new one")


def lost_cell(reason: str) -> CellResult:
    """The answer to a cell whose session is gone, in the words the model or the log will see."""
    return CellResult(status=CellStatus.session_lost, error=reason, session_alive=False)


def parse_cell(response: httpx.Response, url: str) -> CellResult:
    """A cell's outcome from the answer of its endpoint.

    200 is the service's `CellResult`. 404 means the endpoint no longer holds the session
    (expired, closed, or lost with its container): `session_lost`. A 5xx is the service's fault
    on this one call, which may or may not have run the cell: `sandbox_error`, the session left
    for the next cell to judge. Any other 4xx is the caller's request (too big, unauthorised,
    malformed) and raises, as on every endpoint.
    """
    status = response.status_code
    if status == 404:
        return lost_cell(f"the session is no longer open on {url} (expired, closed or lost)")
    if status >= 500:
        error = error_from_response(response)
        return CellResult(status=CellStatus.sandbox_error, error=str(error), session_alive=True)
    if status >= 300:
        raise error_from_response(response)
    try:
        return CellResult.model_validate_json(response.content)
    except ValidationError as exc:
        raise ProtocolError(f"{url}: cell answer does not match the contract: {exc}") from exc


def parse_closed(response: httpx.Response) -> bool:
    """Whether `DELETE /sessions/{id}` closed an open session (404: it was not open; any other
    error: the session is left to the service's idle expiry)."""
    if response.status_code >= 300:
        return False
    try:
        return CloseSessionResponse.model_validate_json(response.content).closed
    except ValidationError:
        return False


def cell_timeout(base: httpx.Timeout, cell_timeout_s: float | None) -> httpx.Timeout:
    """The httpx timeout of one cell: long enough for the cell's own limit plus the margin."""
    if cell_timeout_s is None:
        return base
    floor = cell_timeout_s + CELL_READ_MARGIN_S
    read = None if base.read is None else max(base.read, floor)
    return httpx.Timeout(connect=base.connect, read=read, write=base.write, pool=base.pool)
