"""The frames of the job stream between the host and PID 1, written once for both sides: a 4-byte
big-endian length, then that many bytes of one JSON object."""

from __future__ import annotations

import json
import struct
from collections.abc import Mapping
from typing import Any

HEADER = struct.Struct(">I")
# Far above any answer PID 1 sends (its answer budget and artefact limit keep them under ~40 MB):
# a larger length is a broken stream, not a message.
MAX_FRAME_BYTES = 256 << 20


class FrameError(ValueError):
    """The stream does not hold a frame (an oversized length)."""


def encode_frame(message: Mapping[str, object]) -> bytes:
    body = json.dumps(message).encode()
    return HEADER.pack(len(body)) + body


def body_size(header: bytes) -> int:
    (size,) = HEADER.unpack(header)
    if size > MAX_FRAME_BYTES:
        raise FrameError(f"oversized frame ({size} bytes)")
    return int(size)


def decode_body(body: bytes) -> dict[str, Any]:
    message = json.loads(body)
    if type(message) is not dict:
        raise FrameError("a frame holds one JSON object")
    return message


def take_frame(buffer: bytearray) -> dict[str, Any] | None:
    """The first complete frame in `buffer` (removed from it), or None while it is incomplete."""
    if len(buffer) < HEADER.size:
        return None
    end = HEADER.size + body_size(bytes(buffer[: HEADER.size]))
    if len(buffer) < end:
        return None
    body = bytes(buffer[HEADER.size : end])
    del buffer[:end]
    return decode_body(body)
