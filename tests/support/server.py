"""The live service for tests: `rlvr.verifier.testing` run from the repository root, plus a
fixture factory so a test module states only the settings of its own service."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from rlvr.verifier.testing import NO_REUSE, REUSE, LiveService, free_port
from rlvr.verifier.testing import live_service as _live_service

__all__ = [
    "NO_REUSE",
    "REPO_ROOT",
    "REUSE",
    "LiveService",
    "free_port",
    "live_service",
    "running_service",
    "service_fixture",
]

REPO_ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def live_service(
    env: Mapping[str, str] | None = None,
    startup_timeout_s: float = 120.0,
    port: int | None = None,
) -> Iterator[LiveService]:
    """`rlvr.verifier.testing.live_service` with the repository root as working directory."""
    with _live_service(env, startup_timeout_s, port, cwd=REPO_ROOT) as service:
        yield service


@contextmanager
def running_service(
    env: Mapping[str, str] | None = None, startup_timeout_s: float = 120.0
) -> Iterator[str]:
    """The base URL of a live service with `env` (`VERIFIER_*` overrides); stopped on exit."""
    with live_service(env, startup_timeout_s) as service:
        yield service.url


def service_fixture(
    env: Mapping[str, str], *, scope: Any = "module", needs_docker: bool = False
) -> Callable[..., Iterator[str]]:
    """A pytest fixture yielding the URL of a service of its own with `env`.

    Assign it to the fixture's name in the test module: `code_url = service_fixture({...},
    needs_docker=True)`. `needs_docker` first requests the session's `docker_engine` gate (skip
    on a developer's machine, fail under `RLVR_REQUIRE_DOCKER=1`).
    """
    settings = dict(env)

    if needs_docker:

        def with_docker(docker_engine: None) -> Iterator[str]:
            with running_service(settings) as url:
                yield url

        return pytest.fixture(scope=scope)(with_docker)

    def without_docker() -> Iterator[str]:
        with running_service(settings) as url:
            yield url

    return pytest.fixture(scope=scope)(without_docker)
