"""Shared fixtures: a live uvicorn service, and the Docker gate."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.docker_engine import require_docker_engine
from tests.support.server import running_service


@pytest.fixture(scope="session")
def verifier_url() -> Iterator[str]:
    """A real service (default settings, code pool off) shared by the API tests of a session."""
    with running_service({"VERIFIER_CODE__IS_ENABLED": "false"}) as url:
        yield url


@pytest.fixture(scope="session")
def docker_engine() -> None:
    require_docker_engine()
