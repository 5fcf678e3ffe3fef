"""A live service with a one-container code pool, shared by the Docker-backed code tests.

One container on purpose: consecutive items run in the same container (unless it was retired),
so "the next job is unaffected" is tested where it matters.
"""

from __future__ import annotations

from tests.support.server import service_fixture

code_url = service_fixture(
    {
        "VERIFIER_CODE__POOL_SIZE": "1",
        "VERIFIER_CODE__DEFAULT_TIMEOUT_S": "3",
        "VERIFIER_LEAN__IS_ENABLED": "false",
    },
    scope="session",
    needs_docker=True,
)
