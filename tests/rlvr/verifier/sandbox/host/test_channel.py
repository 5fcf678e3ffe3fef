"""The job channel (`host/channel.py`) against a real engine: jobs past the engine where the
service can, the attach stream where it cannot, and a directory no job can use."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import docker
import pytest

from rlvr.verifier.sandbox.host import docker as docker_backend
from rlvr.verifier.sandbox.host.backend import SandboxUnavailable
from rlvr.verifier.sandbox.host.channel import ChannelPlace, ChannelStream
from rlvr.verifier.sandbox.host.docker import DockerBackend, DockerSandbox, _AttachStream
from rlvr.verifier.sandbox.wire.codec import decode_value
from rlvr.verifier.sandbox.wire.protocol import CHANNEL_DIR, CHANNEL_PATH, Limits
from tests.support import jobs
from tests.support.docker_engine import docker_is_required, sandbox_settings

pytestmark = [pytest.mark.docker]

LIMITS: Limits = {"timeout_s": 5, "memory_mb": 256, "file_size_mb": 16, "nproc": 32}

# What a candidate can do with the channel's directory once the channel is up: nothing.
PROBE = f"""
import os, socket
def probe():
    out = {{}}
    try:
        out["listing"] = os.listdir({CHANNEL_DIR!r})
    except OSError as exc:
        out["listing"] = type(exc).__name__
    try:
        open({CHANNEL_DIR!r} + "/note", "w").write("for the next job")
        out["create"] = "created"
    except OSError as exc:
        out["create"] = type(exc).__name__
    try:
        os.mkdir({CHANNEL_DIR!r} + "/d")
        out["mkdir"] = "made"
    except OSError as exc:
        out["mkdir"] = type(exc).__name__
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        client.connect({CHANNEL_PATH!r})
        out["connect"] = "connected"
    except OSError as exc:
        out["connect"] = type(exc).__name__
    try:
        client.bind({CHANNEL_PATH!r})
        out["bind"] = "bound"
    except OSError as exc:
        out["bind"] = type(exc).__name__
    return out
"""


async def probe(sandbox: DockerSandbox) -> dict[str, Any]:
    result = await sandbox.run(jobs.call_job(PROBE, "probe", LIMITS), timeout_s=30)
    seen: dict[str, Any] = decode_value(result["tests"][0]["replies"][1]["value"])
    return seen


def mounts(container_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = docker.from_env().api.inspect_container(container_id)["Mounts"]
    return found


def root_only() -> None:
    if os.geteuid() != 0:
        message = "the channel is for a service running as root (the directory is chowned)"
        if docker_is_required():  # CI runs as root: there these tests must run
            pytest.fail(message + " (RLVR_REQUIRE_DOCKER=1: Docker tests must run here)")
        pytest.skip(message + " (set RLVR_REQUIRE_DOCKER=1 to make this a failure)")


@contextlib.asynccontextmanager
async def backend_of(**settings: Any) -> AsyncIterator[DockerBackend]:
    """A backend on the real engine, its containers removed at the end."""
    backend = DockerBackend(sandbox_settings(**settings))
    try:
        yield backend
    finally:
        await backend.close()


async def test_jobs_cross_the_channel_and_its_directory_is_dead(docker_engine: None) -> None:
    root_only()
    async with backend_of() as backend:
        sandbox = await backend.start()
        assert isinstance(sandbox.stream, ChannelStream)
        (mount,) = mounts(sandbox.container_id)
        assert mount["Type"] == "bind" and mount["Destination"] == CHANNEL_DIR
        assert not os.path.exists(mount["Source"])  # removed on the host once connected
        for _ in range(2):  # and again: the first job left nothing there either
            seen = await probe(sandbox)
            assert seen["listing"] == []
            assert seen["create"] in ("FileNotFoundError", "PermissionError"), seen
            assert seen["mkdir"] in ("FileNotFoundError", "PermissionError"), seen
            assert seen["connect"] in ("FileNotFoundError", "ConnectionRefusedError"), seen
            assert seen["bind"] in ("FileNotFoundError", "PermissionError"), seen
        assert sandbox.is_alive


async def test_a_container_that_dies_ends_its_channel(docker_engine: None) -> None:
    root_only()
    async with backend_of() as backend:
        sandbox = await backend.start()
        assert isinstance(sandbox.stream, ChannelStream)
        await asyncio.to_thread(docker.from_env().api.kill, sandbox.container_id)
        for _ in range(100):
            if not sandbox.is_alive:
                break
            await asyncio.sleep(0.05)
        assert not sandbox.is_alive


async def test_attach_setting_mounts_nothing(docker_engine: None) -> None:
    async with backend_of(job_channel="attach") as backend:
        sandbox = await backend.start()
        assert isinstance(sandbox.stream, _AttachStream)
        assert mounts(sandbox.container_id) == []
        assert (await probe(sandbox))["listing"] == "FileNotFoundError"


async def test_an_engine_that_cannot_mount_the_directory_gets_attach(
    docker_engine: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As when the service runs in a container of its own: the engine refuses a source it
    does not have, the container starts without it, and the backend stops trying."""
    root_only()
    elsewhere = tmp_path / "not-on-the-engines-host"
    monkeypatch.setattr(ChannelPlace, "make", lambda self, uid: elsewhere)
    async with backend_of() as backend:
        sandbox = await backend.start()
        assert isinstance(sandbox.stream, _AttachStream)
        assert mounts(sandbox.container_id) == []
        assert not backend._channel.is_usable
        assert (await probe(sandbox))["connect"] in ("FileNotFoundError", "ConnectionRefusedError")


async def test_a_socket_the_host_cannot_see_leaves_the_jobs_on_attach(
    docker_engine: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine mounted a directory of the same name elsewhere: PID 1 listens, the host never
    connects and sends its first job on stdin, which PID 1 serves (its listener closed)."""
    root_only()

    async def unseen(directory: Path, attach: Any, timeout_s: float) -> None:
        return None

    monkeypatch.setattr(docker_backend, "open_channel", unseen)
    async with backend_of() as backend:
        sandbox = await backend.start()
        assert isinstance(sandbox.stream, _AttachStream)
        assert not backend._channel.is_usable
        for _ in range(2):
            seen = await probe(sandbox)
            assert seen["connect"] in ("FileNotFoundError", "ConnectionRefusedError"), seen


async def test_a_channel_that_fails_to_open_retires_its_container_and_the_next_attach(
    docker_engine: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket the host sees but cannot use (refused, silent): that container is not used, and
    this backend's later containers take the attach stream, so the pool still starts."""
    root_only()

    async def refused(directory: Path, attach: Any, timeout_s: float) -> None:
        raise ConnectionRefusedError("refused")

    monkeypatch.setattr(docker_backend, "open_channel", refused)
    async with backend_of() as backend:
        with pytest.raises(SandboxUnavailable, match="ConnectionRefusedError"):
            await backend.start()
        assert not backend._channel.is_usable
        sandbox = await backend.start()
        assert isinstance(sandbox.stream, _AttachStream)
        assert mounts(sandbox.container_id) == []
        assert (await probe(sandbox))["listing"] == "FileNotFoundError"
