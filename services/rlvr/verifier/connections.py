"""The HTTP/1.1 protocol the service runs under uvicorn: what a connection may cost before the app.

Uvicorn's httptools protocol buffers a header of any size, keeps a connection that never sends
a byte open forever (its keep-alive timer only runs between requests) and accepts connections
past any descriptor limit (`limit_concurrency` answers 503 only once a request arrives, so idle
sockets still hold descriptors). This subclass adds, before the app or the API-key check sees
anything:

- `max_header_bytes` / `max_headers`: a request line + headers over either is a 431, closed;
  at most one socket read (asyncio reads up to 256 KiB) past the limit is ever buffered;
- `header_timeout_s`: a connection's request head must arrive within it of the connection (or
  of the request's first byte, for later requests on a kept-alive connection), else 408, closed;
- `body_timeout_s`: a declared body must arrive within it of the head (slow bodies), else 408;
- `max_connections`: a connection beyond it is answered 503 at once and closed, so descriptors
  stay bounded and the service's own sockets (Docker, workers) never run out.

It subclasses uvicorn's httptools protocol (the `standard` extra) and uses its parser callbacks;
the limits are read once from `VERIFIER_SERVER__*` in each worker process, which is why the
class takes no arguments (uvicorn builds it, and `workers > 1` imports it by name).
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
from functools import cache
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from rlvr.verifier.settings import ServerSettings, VerifierSettings

log = logging.getLogger(__name__)

_REASONS = {
    408: b"Request Timeout",
    431: b"Request Header Fields Too Large",
    503: b"Service Unavailable",
}


# Descriptors the service keeps for itself beyond its clients' sockets: the Docker API, math
# worker pipes, Lean REPLs, logs.
OWN_DESCRIPTORS = 256


def fit_descriptor_limit(max_connections: int) -> int:
    """Raise this process's soft descriptor limit to fit `max_connections` clients plus the
    service's own descriptors (up to the hard limit); the connection cap that fits the limit
    that results (at least 16)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max_connections + OWN_DESCRIPTORS
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return max_connections
    fitted = max(16, soft - OWN_DESCRIPTORS)
    log.warning(
        "descriptor limit %d fits only %d connections: max_connections lowered from %d",
        soft,
        fitted,
        max_connections,
    )
    return fitted


@cache
def server_limits() -> ServerSettings:
    """This process's connection limits (environment and `.env`), read once, with
    `max_connections` fitted to the descriptor limit."""
    limits = VerifierSettings().server
    return limits.model_copy(
        update={"max_connections": fit_descriptor_limit(limits.max_connections)}
    )


def refusal(status: int, message: str) -> bytes:
    """A complete `Connection: close` response, written before the connection is dropped."""
    code = _REASONS[status].decode().lower().replace(" ", "_")
    body = json.dumps({"error": {"code": code, "message": message, "request_id": None}}).encode()
    head = b"HTTP/1.1 %d %s\r\n" % (status, _REASONS[status])
    return (
        head
        + b"content-type: application/json\r\ncontent-length: %d\r\nconnection: close\r\n\r\n"
        % len(body)
        + body
    )


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with bounded heads, read deadlines and a connection cap."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits = server_limits()
        self.head_bytes = 0
        self.header_count = 0
        self.parsed_head_bytes = 0
        self.reading_head = True
        self.refused = False
        self.read_deadline: asyncio.TimerHandle | None = None

    # -- connection ---------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.limits.max_connections:
            log.warning("refusing a connection: max_connections=%d", self.limits.max_connections)
            self.refuse(503, f"over max_connections={self.limits.max_connections}; retry")
            return
        self.arm(self.limits.header_timeout_s, "the request head")

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return
        if self.reading_head:
            self.head_bytes += len(data)
        super().data_received(data)
        if self.reading_head and self.head_bytes > self.limits.max_header_bytes:
            self.refuse(431, f"request head over max_header_bytes={self.limits.max_header_bytes}")

    # -- parser callbacks ---------------------------------------------------------------------

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.reading_head = True
        self.header_count = 0
        self.parsed_head_bytes = 0
        if self.read_deadline is None:  # a later request on a kept-alive connection
            self.arm(self.limits.header_timeout_s, "the request head")

    def on_url(self, url: bytes) -> None:
        self.parsed_head_bytes += len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        """A head that arrived whole in one read is measured here, as the parser splits it."""
        if self.refused:
            return
        self.header_count += 1
        self.parsed_head_bytes += len(name) + len(value) + 4  # ": " and CRLF
        if self.header_count > self.limits.max_headers:
            self.refuse(431, f"more than max_headers={self.limits.max_headers} headers")
            return
        if self.parsed_head_bytes > self.limits.max_header_bytes:
            self.refuse(431, f"request head over max_header_bytes={self.limits.max_header_bytes}")
            return
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        if self.refused:
            return
        self.reading_head = False
        self.head_bytes = 0
        self.disarm()
        super().on_headers_complete()
        self.arm(self.limits.body_timeout_s, "the request body")

    def on_body(self, body: bytes) -> None:
        if not self.refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        self.disarm()
        if not self.refused:
            super().on_message_complete()

    # -- deadlines and refusals ---------------------------------------------------------------

    def arm(self, seconds: float, what: str) -> None:
        self.disarm()
        self.read_deadline = self.loop.call_later(seconds, self.read_timed_out, seconds, what)

    def disarm(self) -> None:
        if self.read_deadline is not None:
            self.read_deadline.cancel()
            self.read_deadline = None

    def read_timed_out(self, seconds: float, what: str) -> None:
        self.read_deadline = None
        self.refuse(408, f"{what} did not arrive within {seconds:g} s")

    def refuse(self, status: int, message: str) -> None:
        """Answer `status` (unless a response is already under way) and close the connection."""
        self.disarm()
        self.refused = True
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if self.reading_head:  # a new request: answer it unless the previous one is still going
            answer = cycle is None or cycle.response_complete
        else:  # its body: answer only if the app has not begun to
            answer = cycle is not None and not cycle.response_started
        if answer:
            self.transport.write(refusal(status, message))
        if cycle is not None:
            cycle.keep_alive = False
        self.transport.close()
