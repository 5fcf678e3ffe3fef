"""Wire models of stateful Python sessions (`POST /sessions`, `POST /sessions/{id}/run`,
`DELETE /sessions/{id}`): a persistent interpreter per rollout, for tool-integrated RL.

A session is one Python process in the sandbox, in namespaces no other session or job shares:
variables, imports and files persist between its cells and nowhere else, and nothing survives
its close. A cell's outcome is data (`CellStatus`), never an HTTP error: a rollout reads it and
goes on. HTTP errors are for the request itself: 404 for a session id that is not open (closed,
expired or never opened), 422 for a malformed body, 503 + `Retry-After` when the host holds as
many sessions as it may.
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

from pydantic import BaseModel, Field

from rlvr.schemas.common import WireModel

# The header that names the session a call is for (`POST /sessions/{id}/run`, `DELETE`): Ray
# Serve's own session header (`RAY_SERVE_SESSION_ID_HEADER_KEY`'s default), which its proxy
# hands to the request router, so the call reaches the replica that holds the session
# (`rlvr.verifier.scaleout.session_router`). A single server ignores it.
SESSION_ID_HEADER = "x-session-id"


class OpenSessionRequest(WireModel):
    """`POST /sessions`: the session's limits (each capped by the server's settings) and what it
    starts with."""

    candidate_text_fields: ClassVar[tuple[str, ...]] = ("setup_code",)

    memory_mb: int | None = Field(
        None, gt=0, description="Memory limit of the session's process in MB (null: default)."
    )
    timeout_s: float | None = Field(
        None,
        gt=0,
        allow_inf_nan=False,
        description="Default wall seconds per cell (null: the server's default).",
    )
    idle_ttl_s: float | None = Field(
        None,
        gt=0,
        allow_inf_nan=False,
        description="Seconds without a cell after which the session is closed (null: default).",
    )
    max_lifetime_s: float | None = Field(
        None,
        gt=0,
        allow_inf_nan=False,
        description="Seconds after opening at which the session is closed (null: default).",
    )
    files: dict[str, str] = Field(
        default_factory=dict,
        description="Files written into the session's work dir: {relative path: base64}.",
    )
    setup_code: str | None = Field(
        None, description="Code run as the first cell (imports, helpers); its result is returned."
    )


class RunCellRequest(WireModel):
    """`POST /sessions/{id}/run`: one cell."""

    candidate_text_fields: ClassVar[tuple[str, ...]] = ("code",)

    code: str = Field(description="Python source of the cell, run in the session's namespace.")
    timeout_s: float | None = Field(
        None,
        gt=0,
        allow_inf_nan=False,
        description="Wall seconds for this cell (null: the session's default; capped).",
    )


class CellStatus(StrEnum):
    """How a cell ended, and whether the session lives on.

    `ok` and `error` leave the session intact (an exception in a cell is the cell's outcome, as
    in a notebook). `timed_out`, `memory_exceeded` and `output_limit_exceeded` kill the cell's
    process: the session is dead afterwards (`session_alive` false), never silently reset.
    `session_lost` means the sandbox lost the session (its container died): not the cell's doing.
    `sandbox_error` is the service's own fault.
    """

    ok = "ok"
    error = "error"
    timed_out = "timed_out"
    memory_exceeded = "memory_exceeded"
    output_limit_exceeded = "output_limit_exceeded"
    session_lost = "session_lost"
    sandbox_error = "sandbox_error"


class CellResult(BaseModel):
    """What one cell did, as a notebook shows it."""

    status: CellStatus
    stdout: str = Field("", description="What the cell printed (truncated past the limit).")
    stderr: str = Field("", description="What the cell wrote to stderr, with any traceback.")
    value: str | None = Field(
        None, description="`repr` of the cell's final expression, if it ended with one."
    )
    error: str | None = Field(
        None, description="The exception, `Type: message`, when status is `error`; else why."
    )
    elapsed_s: float = Field(0.0, description="Seconds the cell ran.")
    session_alive: bool = Field(description="Whether the session takes further cells.")


class SessionLimits(BaseModel):
    """The limits a session got (after the server's caps)."""

    memory_mb: int
    timeout_s: float
    idle_ttl_s: float
    max_lifetime_s: float


class OpenSessionResponse(BaseModel):
    """The new session's id and limits, and the result of `setup_code` when one was sent."""

    session_id: str
    limits: SessionLimits
    setup: CellResult | None = None


class CloseSessionResponse(BaseModel):
    session_id: str
    closed: bool = Field(description="True: it was open and is now closed.")
