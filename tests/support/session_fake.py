"""A FAKE of the service's session endpoints, for fast unit tests of the client and the tool
adapters only. It is not the service and isolates nothing.

`POST /sessions`, `POST /sessions/{id}/run` and `DELETE /sessions/{id}` as
`rlvr.schemas.sessions` defines them, served by a real uvicorn on loopback: each session is a
dict of variables in this process, and a cell is `exec`'d in it (the value of a final expression
as a notebook shows it, a traceback on stderr). There is no sandbox, no time-out and no memory
limit: never point it at untrusted code, and never use it where a test claims something of the
real service (those tests start `rlvr.verifier` through `tests.support.server`).

What a test can steer: `capacity` (past it, `POST /sessions` answers 503 + `Retry-After`),
`lose(id)` (the session's next cell answers `session_lost`, as when its container dies), and
the record of every request (`FakeSessions.requests`) to see where calls went.
"""

from __future__ import annotations

import ast
import contextlib
import io
import threading
import time
import traceback
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from fastapi import FastAPI, Header
from fastapi.responses import JSONResponse

from rlvr.schemas.sessions import (
    CellResult,
    CellStatus,
    CloseSessionResponse,
    OpenSessionRequest,
    OpenSessionResponse,
    RunCellRequest,
    SessionLimits,
)
from tests.support.server import free_port

DEFAULT_LIMITS = SessionLimits(
    memory_mb=512, timeout_s=10.0, idle_ttl_s=300.0, max_lifetime_s=3600.0
)


def run_cell(namespace: dict[str, Any], code: str) -> CellResult:
    """`code` run in `namespace` as a notebook cell: its statements, then its final expression
    (whose repr is the value)."""
    started = time.perf_counter()
    out, err = io.StringIO(), io.StringIO()
    value: str | None = None
    error: str | None = None
    try:
        tree = ast.parse(code, mode="exec")
        last = tree.body[-1] if tree.body else None
        if isinstance(last, ast.Expr):
            tree.body.pop()
        else:
            last = None
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            exec(compile(tree, "<cell>", "exec"), namespace)
            if last is not None:
                result = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
                value = None if result is None else repr(result)
    except Exception as exc:  # the cell's own exception is its outcome, as in a notebook
        err.write(traceback.format_exc())
        error = f"{type(exc).__name__}: {exc}"
    return CellResult(
        status=CellStatus.error if error else CellStatus.ok,
        stdout=out.getvalue(),
        stderr=err.getvalue(),
        value=value,
        error=error,
        elapsed_s=time.perf_counter() - started,
        session_alive=True,
    )


@dataclass
class FakeSessions:
    """The fake's state: open sessions (id -> variables), the ones marked lost, the requests."""

    capacity: int = 64
    retry_after_s: int = 1
    sessions: dict[str, dict[str, Any]] = field(default_factory=dict)
    lost: set[str] = field(default_factory=set)
    requests: list[tuple[str, str]] = field(default_factory=list)  # (method, path)
    # the `x-session-id` header of each call for a session (a router's key), in order
    named: list[str | None] = field(default_factory=list)
    opened: int = 0
    closed: int = 0

    def lose(self, session_id: str) -> None:
        """The session's container "dies": its next cell answers `session_lost`."""
        self.lost.add(session_id)


def create_fake_app(state: FakeSessions) -> FastAPI:
    app = FastAPI(title="FAKE rlvr sessions (tests only)")

    # `async def` on purpose: cells run one at a time on the event loop, so redirecting
    # sys.stdout for one cell cannot catch another's output.
    @app.post("/sessions", response_model=None)
    async def open_session(request: OpenSessionRequest) -> Any:
        state.requests.append(("POST", "/sessions"))
        if len(state.sessions) >= state.capacity:
            return JSONResponse(
                {"error": {"code": "sessions_full", "message": "fake: at capacity"}},
                status_code=503,
                headers={"Retry-After": str(state.retry_after_s)},
            )
        session_id = uuid.uuid4().hex
        namespace: dict[str, Any] = {"__name__": "__main__"}
        state.sessions[session_id] = namespace
        state.opened += 1
        limits = DEFAULT_LIMITS.model_copy(
            update={
                k: v
                for k, v in request.model_dump().items()
                if k in SessionLimits.model_fields and v
            }
        )
        setup = run_cell(namespace, request.setup_code) if request.setup_code else None
        return OpenSessionResponse(session_id=session_id, limits=limits, setup=setup)

    @app.post("/sessions/{session_id}/run", response_model=None)
    async def run(
        session_id: str, request: RunCellRequest, x_session_id: str | None = Header(None)
    ) -> Any:
        state.requests.append(("POST", f"/sessions/{session_id}/run"))
        state.named.append(x_session_id)
        if session_id not in state.sessions:
            return JSONResponse(
                {"error": {"code": "session_not_found", "message": "no such session"}},
                status_code=404,
            )
        if session_id in state.lost:
            del state.sessions[session_id]
            return CellResult(
                status=CellStatus.session_lost,
                error="fake: the session's container died",
                session_alive=False,
            )
        return run_cell(state.sessions[session_id], request.code)

    @app.delete("/sessions/{session_id}", response_model=None)
    async def close(session_id: str, x_session_id: str | None = Header(None)) -> Any:
        state.requests.append(("DELETE", f"/sessions/{session_id}"))
        state.named.append(x_session_id)
        if state.sessions.pop(session_id, None) is None:
            return JSONResponse(
                {"error": {"code": "session_not_found", "message": "no such session"}},
                status_code=404,
            )
        state.closed += 1
        return CloseSessionResponse(session_id=session_id, closed=True)

    return app


@contextlib.contextmanager
def fake_session_service(capacity: int = 64) -> Iterator[tuple[str, FakeSessions]]:
    """(base URL, state) of the FAKE served by uvicorn on 127.0.0.1 in a thread; stopped on exit."""
    state = FakeSessions(capacity=capacity)
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_fake_app(state), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, name="fake-sessions", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the fake session service did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", state
    finally:
        server.should_exit = True
        thread.join(timeout=10)
