"""The service's error hierarchy and the one place where errors become HTTP responses.

Candidates' faults are never exceptions (they are verdicts). These are whole-request problems:
bad input (4xx), back-pressure (503 + Retry-After), or our own bugs (500, logged, no traceback
in the body).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from rlvr.schemas.common import ErrorResponse

log = logging.getLogger(__name__)


class VerifierError(Exception):
    """Base of every error the service raises on purpose."""

    status_code = 500
    code = "internal_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def headers(self) -> dict[str, str]:
        return {}


class PayloadTooLarge(VerifierError):
    status_code = 413
    code = "payload_too_large"


class Overloaded(VerifierError):
    """A pool's queue is full: the client should retry after `retry_after_s`."""

    status_code = 503
    code = "overloaded"

    def __init__(self, message: str, retry_after_s: int = 1) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after_s)}


def request_id_of(request: Request) -> str | None:
    return getattr(request.state, "request_id", None)


def error_response(
    request: Request,
    status_code: int,
    code: str,
    message: str,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    body = {"error": {"code": code, "message": message, "request_id": request_id_of(request)}}
    return JSONResponse(body, status_code=status_code, headers=dict(headers or {}))


def describe_validation_errors(errors: list[dict[str, Any]], limit: int = 10) -> str:
    """One line per problem, `body.items.3.answer: Field required`, without echoing the input."""
    parts = []
    for err in errors[:limit]:
        loc = ".".join(str(p) for p in err.get("loc", ()))
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    if len(errors) > limit:
        parts.append(f"... and {len(errors) - limit} more")
    return "; ".join(parts) or "invalid request"


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(VerifierError)
    async def _verifier_error(request: Request, exc: VerifierError) -> JSONResponse:
        if exc.status_code >= 500 and exc.status_code != 503:
            log.error("verifier error: %s", exc.message)
        return error_response(request, exc.status_code, exc.code, exc.message, exc.headers())

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        message = describe_validation_errors(list(exc.errors()))
        return error_response(request, 422, "validation_error", message)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:
            # Starlette's "error parsing the body": one status for every invalid body (422).
            message = "request body is not valid JSON"
            return error_response(request, 422, "validation_error", message)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return error_response(request, exc.status_code, code, str(exc.detail), exc.headers)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error (request_id=%s)", request_id_of(request))
        return error_response(request, 500, "internal_error", "internal error; see server logs")


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse, "description": "Missing or wrong API key (when one is set)."},
    413: {"model": ErrorResponse, "description": "Batch, item or body over a limit (named)."},
    422: {"model": ErrorResponse, "description": "Invalid request; the message names the field."},
    503: {"model": ErrorResponse, "description": "Queue full: retry after `Retry-After` s."},
}
