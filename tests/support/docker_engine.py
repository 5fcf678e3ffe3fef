"""Decide whether Docker-backed tests run: in CI (RLVR_REQUIRE_DOCKER=1) a missing engine fails."""

from __future__ import annotations

import os

import pytest


def docker_is_required() -> bool:
    return os.environ.get("RLVR_REQUIRE_DOCKER", "") == "1"


def require_docker_engine() -> None:
    """Skip when Docker is absent on a developer's machine; fail when CI requires it."""
    try:
        import docker

        docker.from_env(timeout=10).ping()
    except Exception as exc:
        message = f"Docker engine unreachable: {exc}"
        if docker_is_required():
            pytest.fail(message + " (RLVR_REQUIRE_DOCKER=1: Docker tests must run here)")
        pytest.skip(message + " (set RLVR_REQUIRE_DOCKER=1 to make this a failure)")
