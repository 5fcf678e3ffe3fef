"""Run the real service for tests and benchmarks: a live uvicorn process, and a local Ray cluster.

This is the service's own test kit (as `fastapi.testclient` is FastAPI's): it sits inside
`rlvr.verifier`, so the client face never imports it, and it needs nothing beyond the service's
own dependencies (httpx and the standard library; `ray_cluster` runs the `ray` CLI installed by
the `ray` extra, and imports no Ray module). Benchmarks import it from an installed wheel as
well as from a checkout; the test suite reaches it through `tests.support.server`.

    from rlvr.verifier.testing import running_service

    with running_service({"VERIFIER_CODE__IS_ENABLED": "false"}) as url:
        httpx.post(f"{url}/math", json={"items": [...]})
"""

from rlvr.verifier.testing._service import (
    NO_REUSE,
    REUSE,
    LiveService,
    free_port,
    live_service,
    running_service,
)

__all__ = ["NO_REUSE", "REUSE", "LiveService", "free_port", "live_service", "running_service"]
