"""DockerSandbox's decisions on what PID 1 answers, over a fake attach stream (no Docker): a
fault is an answer that retires the container, never a loss to retry; a dead stream is a loss."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from rlvr.verifier.sandbox.host.backend import SandboxLost
from rlvr.verifier.sandbox.host.docker import DockerSandbox
from rlvr.verifier.sandbox.wire.frames import FrameError, encode_frame, take_frame


class FakeStream:
    """The attach stream's face: frames PID 1 would answer, in order; None ends the stream."""

    def __init__(self, *frames: dict[str, Any] | None) -> None:
        self.frames: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        for frame in frames:
            self.frames.put_nowait(frame)
        self.sent: list[bytes] = []
        self.stderr_tail = bytearray(b"")

    async def send(self, data: bytes) -> None:
        self.sent.append(data)

    async def read_frame(self) -> dict[str, Any]:
        frame = await self.frames.get()
        if frame is None:
            raise asyncio.IncompleteReadError(b"", 4)
        return frame

    def close(self) -> None:
        pass


JOB: Any = {"id": "j", "tests": []}


async def test_a_fault_is_returned_and_retires_the_container() -> None:
    sandbox = DockerSandbox(
        "c1", "s1", FakeStream({"id": "j", "fault": "KeyError", "healthy": True})
    )  # type: ignore[arg-type]
    result = await sandbox.run(JOB, timeout_s=5)
    assert result["fault"] == "KeyError"
    assert not sandbox.is_alive


async def test_a_healthy_answer_keeps_the_container_and_an_unhealthy_one_retires_it() -> None:
    sandbox = DockerSandbox(
        "c1", "s1", FakeStream({"tests": [], "healthy": True}, {"tests": [], "healthy": False})
    )  # type: ignore[arg-type]
    await sandbox.run(JOB, timeout_s=5)
    assert sandbox.is_alive
    await sandbox.run(JOB, timeout_s=5)
    assert not sandbox.is_alive


async def test_a_stream_that_ends_mid_job_is_a_lost_sandbox() -> None:
    sandbox = DockerSandbox("c1", "s1", FakeStream(None))  # type: ignore[arg-type]
    with pytest.raises(SandboxLost):
        await sandbox.run(JOB, timeout_s=5)
    assert not sandbox.is_alive


def test_frames_round_trip_and_an_oversized_length_is_refused() -> None:
    buffer = bytearray(encode_frame({"a": 1}) + encode_frame({"b": [2]}))
    assert take_frame(buffer) == {"a": 1}
    assert take_frame(buffer) == {"b": [2]}
    assert take_frame(buffer) is None and not buffer
    partial = bytearray(encode_frame({"c": "x" * 100})[:50])
    assert take_frame(partial) is None
    with pytest.raises(FrameError):
        take_frame(bytearray(b"\xff\xff\xff\xff{}"))
