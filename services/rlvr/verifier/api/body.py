"""Request bodies as JSON with a bounded number of objects, parsed off the event loop when large.

A body within `max_body_bytes` can still cost far more than its size: 63 MiB of tiny `/code`
tests are 2.2 million objects (gigabytes once parsed and validated), and `json.loads` of it
blocks the event loop (and `/health`) for seconds. Two bounds stop that before memory is spent:
arrays are bounded by a count of `[` in the raw bytes (an upper bound: brackets inside strings
count too), objects exactly, while parsing, by a hook that stops the parse at the limit. A body
over `offload_bytes` is parsed in a worker thread; the hook runs Python code per object, so the
parse gives up the GIL every switch interval and the loop keeps answering meanwhile.
"""

from __future__ import annotations

import asyncio
import codecs
import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from rlvr.verifier.middleware import RequestTooLarge
from rlvr.verifier.settings import LimitsSettings

# Below this a body is parsed on the loop: a thread hop would cost more than the parse.
OFFLOAD_BYTES = 256 * 1024


def json_limits_error(body: bytes, limits: LimitsSettings) -> str | None:
    """Why `body` holds too many arrays to parse (counted in the raw bytes), or None."""
    arrays = body.count(b"[")
    if arrays > limits.max_json_arrays:
        return (
            f"request body has {arrays} '[' (arrays); max_json_arrays={limits.max_json_arrays}; "
            "split the batch"
        )
    return None


def parse_bounded_json(body: bytes, max_objects: int) -> Any:
    """`json.loads(body)`, stopping with RequestTooLarge at the `max_objects + 1`-th object."""
    count = 0

    def counted(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal count
        count += 1
        if count > max_objects:
            raise RequestTooLarge(
                f"request body has more than max_json_objects={max_objects} JSON objects; "
                "split the batch"
            )
        return dict(pairs)

    return json.JSONDecoder(object_pairs_hook=counted).decode(text_of(body))


# Decoded a piece at a time: one `bytes.decode` of tens of megabytes is a single C call that
# holds the GIL throughout (~20-100 ms for 48 MB), so the loop could not answer meanwhile.
DECODE_PIECE_BYTES = 1 << 20


def text_of(body: bytes) -> str:
    """`body` as text, read as `json.loads` reads bytes (the encoding detected the same way, a
    lone surrogate kept as there), giving the GIL up between pieces."""
    encoding = json.detect_encoding(body)  # UTF-8, or UTF-16/32 as JSON allows
    if len(body) <= DECODE_PIECE_BYTES:
        return body.decode(encoding, "surrogatepass")
    decoder = codecs.getincrementaldecoder(encoding)("surrogatepass")
    view = memoryview(body)
    pieces = [
        decoder.decode(view[start : start + DECODE_PIECE_BYTES])
        for start in range(0, len(body), DECODE_PIECE_BYTES)
    ]
    pieces.append(decoder.decode(b"", final=True))
    return "".join(pieces)


def checked_json(body: bytes, limits: LimitsSettings) -> Any:
    """The body's JSON within the array and object bounds (RequestTooLarge past them)."""
    refusal = json_limits_error(body, limits)
    if refusal:
        raise RequestTooLarge(refusal)
    return parse_bounded_json(body, limits.max_json_objects)


class BoundedJsonRequest(Request):
    """A Request whose `json()` applies the object bounds (FastAPI calls it for JSON bodies),
    and whose `body()` joins a large body's chunks off the loop (48 MB take it ~50 ms)."""

    async def body(self) -> bytes:
        if not hasattr(self, "_body"):
            chunks = [chunk async for chunk in self.stream()]
            if sum(len(chunk) for chunk in chunks) > OFFLOAD_BYTES:
                self._body = await asyncio.to_thread(b"".join, chunks)
            else:
                self._body = b"".join(chunks)
        return self._body

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            limits: LimitsSettings = self.app.state.settings.limits
            if len(body) > OFFLOAD_BYTES:
                # counting the brackets of tens of megabytes is itself tens of ms: off the loop
                self._json = await asyncio.to_thread(checked_json, body, limits)
            else:
                self._json = checked_json(body, limits)
        return self._json


class BoundedJsonRoute(APIRoute):
    """The route class of every batch endpoint: its body is read through BoundedJsonRequest."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def bounded(request: Request) -> Response:
            return await handler(BoundedJsonRequest(request.scope, request.receive))

        return bounded
