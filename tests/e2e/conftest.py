"""Fixtures of the compose end-to-end suite: images built once, one compose project per module."""

from __future__ import annotations

import os
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator

import pytest

from tests.support.compose import REPO_ROOT, ComposeProject, compose_command
from tests.support.docker_engine import docker_is_required, require_docker_engine

VERIFIER_IMAGE = "rlvr-verifier:e2e"
TRAINER_IMAGE = "rlvr-trainer:cpu-e2e"
SANDBOX_IMAGE = "rlvr-sandbox:latest"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def compose() -> list[str]:
    """The compose CLI; missing it fails in CI (RLVR_REQUIRE_DOCKER=1) and skips elsewhere."""
    require_docker_engine()
    command = compose_command()
    if command is None:
        message = "neither `docker compose` nor `docker-compose` is installed"
        if docker_is_required():
            pytest.fail(message)
        pytest.skip(message)
    return command


@pytest.fixture(scope="session")
def e2e_images(compose: list[str]) -> dict[str, float]:
    """Build the sandbox, verifier and CPU trainer images the way CI must (local bases,
    host wheelhouse); returns the seconds each step took (reported by the suite)."""
    timings: dict[str, float] = {}
    for name, script in (
        ("sandbox", ["bash", "scripts/docker/build_images.sh"]),
        (
            "verifier+trainer",
            ["bash", "scripts/docker/build_e2e_images.sh", VERIFIER_IMAGE, TRAINER_IMAGE],
        ),
    ):
        started = time.monotonic()
        result = subprocess.run(script, cwd=REPO_ROOT, capture_output=True, text=True, check=False)
        timings[name] = time.monotonic() - started
        assert result.returncode == 0, f"{script} failed:\n{result.stdout}\n{result.stderr}"
        print("\n".join(line for line in result.stdout.splitlines() if line.startswith("==>")))
    print(f"\ne2e image builds: {', '.join(f'{k} {v:.0f}s' for k, v in timings.items())}")
    return timings


@pytest.fixture(scope="module")
def stack(compose: list[str], e2e_images: dict[str, float]) -> Iterator[ComposeProject]:
    """A compose project of its own name, images prebuilt (`--no-build`), torn down at the end."""
    name = f"rlvre2e{uuid.uuid4().hex[:8]}"
    port = free_port()
    env = {
        "RLVR_VERIFIER_IMAGE": VERIFIER_IMAGE,
        "RLVR_TRAINER_CPU_IMAGE": TRAINER_IMAGE,
        "RLVR_SANDBOX_IMAGE": SANDBOX_IMAGE,
        "RLVR_PORT": str(port),
        "RLVR_DOCKER_GID": str(os.stat("/var/run/docker.sock").st_gid),
        "RLVR_INSTALL_LEAN": "false",
        "VERIFIER_CODE__POOL_SIZE": "2",
        "VERIFIER_CODE__SANDBOX__LABEL": name,
        "VERIFIER_API_KEY": "",
    }
    project = ComposeProject(name=name, env=env, port=port, compose=compose)
    try:
        yield project
    finally:
        project.force_clean()
