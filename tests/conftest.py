"""Shared fixtures: a live uvicorn service, the Docker gate, and the optional-packages gate."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

# the support helpers assert (one result per item, a 200): show their operands as a test's own
pytest.register_assert_rewrite("tests.support")

from tests.support.docker_engine import require_docker_engine  # noqa: E402
from tests.support.packages import OptionalPackagesModule  # noqa: E402
from tests.support.server import running_service  # noqa: E402


@pytest.fixture(scope="session")
def verifier_url() -> Iterator[str]:
    """A real service (default settings, code pool off) shared by the API tests of a session."""
    with running_service({"VERIFIER_CODE__IS_ENABLED": "false"}) as url:
        yield url


@pytest.fixture(scope="session")
def docker_engine() -> None:
    require_docker_engine()


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.Module:
    """Every test module is collected so that a missing optional package (trl, verl, openrlhf,
    torch...) skips it with the reason, or fails it under `RLVR_REQUIRE_PACKAGES=1` (CI)."""
    return OptionalPackagesModule.from_parent(parent, path=module_path)
