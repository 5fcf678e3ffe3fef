"""Pure-ASGI middleware: request ids, body limits (each, and all in flight together), the 500 of
our own bugs, and optional API-key authentication.

Pure ASGI (not BaseHTTPMiddleware) because it sits on the hot path of every batch.
"""

from __future__ import annotations

import hmac
import json
import logging
import uuid
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)

_OPEN_PATHS = frozenset({"/health", "/metrics", "/docs", "/openapi.json", "/redoc", "/v1/ping"})


class RequestTooLarge(BaseException):
    """A request over a whole-body limit (bytes, objects): a 413 with `message`, sent by the
    guard. BaseException so that the framework's body parser (`except Exception`, which would
    make it a 400) cannot swallow it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class _BodiesInFlight(RequestTooLarge):
    """The bodies of all requests being handled would exceed `max_bodies_in_flight_bytes`: a
    503 with Retry-After (each body alone is within its limit; together they are memory)."""


async def _send_error(
    send: Send,
    status: int,
    code: str,
    message: str,
    request_id: str,
    retry_after_s: int | None = None,
) -> None:
    body = json.dumps(
        {"error": {"code": code, "message": message, "request_id": request_id}}
    ).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"x-request-id", request_id.encode()),
    ]
    if retry_after_s is not None:
        headers.append((b"retry-after", str(retry_after_s).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _key_matches(headers: dict[bytes, bytes], key: bytes) -> bool:
    """Either credential may carry the key: `X-API-Key`, or `Authorization: Bearer`. Checking
    both means a proxy that adds its own Authorization header does not mask a good X-API-Key."""
    candidates = [headers.get(b"x-api-key", b"")]
    auth = headers.get(b"authorization", b"")
    if auth[:7].lower() == b"bearer ":
        candidates.append(auth[7:].strip())
    # Compare every candidate (no short-circuit) so timing does not say which one was right.
    matches = [hmac.compare_digest(sent, key) for sent in candidates]
    return any(matches)


class GuardMiddleware:
    """Assigns X-Request-ID, enforces `max_body_bytes` (413), `max_bodies_in_flight_bytes`
    (503 + Retry-After) and the API key (401), and answers our own bugs' 500s."""

    def __init__(
        self,
        app: ASGIApp,
        max_body_bytes: int,
        api_key: str | None,
        max_bodies_in_flight_bytes: int = 2**62,
        on_response: Callable[[str, int, dict[str, Any]], None] | None = None,
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_bodies_in_flight_bytes = max_bodies_in_flight_bytes
        self.bodies_in_flight_bytes = 0  # over every request of this process being handled
        self.api_key = api_key
        # Called with (path, status code, the request's state) for every response, the guard's
        # own 401/413/500s included.
        self.on_response = on_response or (lambda path, code, state: None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")

        async def counted_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                self.on_response(path, int(message["status"]), scope.setdefault("state", {}))
            await send(message)

        await self._guard(scope, receive, counted_send)

    def _fits(self, declared: int) -> bool:
        return self.bodies_in_flight_bytes + declared <= self.max_bodies_in_flight_bytes

    async def _guard(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        raw_id = headers.get(b"x-request-id", b"")[:128]
        request_id = raw_id.decode("latin-1") if raw_id else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id

        needs_key = self.api_key and scope.get("path") not in _OPEN_PATHS
        if needs_key and not _key_matches(headers, str(self.api_key).encode()):
            await _send_error(
                send, 401, "unauthorized", "missing or wrong API key (X-API-Key)", request_id
            )
            return

        limit = self.max_body_bytes
        too_large = f"request body exceeds max_body_bytes={limit}; split the batch"
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _send_error(send, 413, "payload_too_large", too_large, request_id)
            return

        busy = (
            f"request bodies in flight would exceed max_bodies_in_flight_bytes="
            f"{self.max_bodies_in_flight_bytes}; retry"
        )
        if declared is not None and declared.isdigit() and not self._fits(int(declared)):
            await _send_error(send, 503, "overloaded", busy, request_id, retry_after_s=1)
            return

        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                chunk = len(message.get("body", b""))
                received += chunk
                self.bodies_in_flight_bytes += chunk
                if received > limit:
                    raise RequestTooLarge(too_large)
                if self.bodies_in_flight_bytes > self.max_bodies_in_flight_bytes:
                    raise _BodiesInFlight(busy)
            return message

        started = False

        async def tagged_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            await self.app(scope, limited_receive, tagged_send)
        except RequestTooLarge as exc:
            if not started:
                await _send_error(send, 413, "payload_too_large", exc.message, request_id)
        except _BodiesInFlight as exc:
            if not started:
                await _send_error(send, 503, "overloaded", exc.message, request_id, 1)
        except Exception:
            # Our own bug (an error handler's or a response's): answered here, inside the guard,
            # so the 500 carries the request id and is counted like every other response.
            log.exception("unhandled error (request_id=%s)", request_id)
            if not started:
                message = "internal error; see server logs"
                await _send_error(send, 500, "internal_error", message, request_id)
        finally:
            # A body is held (read, parsed, validated) until its request ends.
            self.bodies_in_flight_bytes -= received
