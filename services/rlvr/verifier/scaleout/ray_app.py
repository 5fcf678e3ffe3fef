"""The verifier as a Ray Serve application: every replica is one `create_app` with its own pools.

Serve runs an HTTP proxy on every node (so each trainer process can call `127.0.0.1`), routes
each batch request to a replica, and replaces a replica whose health check fails. A replica
builds its settings from the `VERIFIER_*` environment of its node plus the deployer's
`VERIFIER_*` variables (passed as the replica's runtime environment, except the node-local
Docker host), so `/code` replicas use their own node's Docker engine and sandbox image; they
are only placed on nodes that declare the `docker_resource` custom resource. A session's calls
reach the replica that holds it (`session_router.py`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI
from ray import serve
from ray.serve import Application

from rlvr.verifier.app import create_app
from rlvr.verifier.scaleout.config import RayServeSettings
from rlvr.verifier.scaleout.session_router import serve_replica_tag
from rlvr.verifier.settings import VerifierSettings

# Variables that describe one node, never copied from the deployer to every replica.
NODE_LOCAL_VARIABLES = frozenset({"VERIFIER_CODE__SANDBOX__DOCKER_HOST", "VERIFIER_HOST"})


def replica_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The deployer's `VERIFIER_*` settings that every replica should share."""
    return {
        name: value
        for name, value in environ.items()
        if name.startswith("VERIFIER_")
        and not name.startswith("VERIFIER_RAY__")
        and name not in NODE_LOCAL_VARIABLES
    }


def with_replica_tag(settings: VerifierSettings, unique_id: str) -> VerifierSettings:
    """`settings` whose session ids start with this replica's tag, the one the session router
    matches (`session_router.py`)."""
    sessions = settings.sessions.model_copy(update={"id_tag": serve_replica_tag(unique_id)})
    return settings.model_copy(update={"sessions": sessions})


def _own_replica_id() -> str:
    return str(serve.get_replica_context().replica_id.unique_id)


@serve.ingress()
class VerifierReplica:
    """One replica: the FastAPI app and its pools, built when the replica starts."""

    def __init__(self, required_domains: list[str]) -> None:
        self._required_domains = list(required_domains)
        self._app: FastAPI | None = None

    def __serve_build_asgi_app__(self) -> FastAPI:
        self._app = create_app(with_replica_tag(VerifierSettings(), _own_replica_id()))
        return self._app

    async def check_health(self) -> None:
        """Serve calls this periodically; raising makes it replace the replica."""
        verifiers = getattr(self._app.state, "verifiers", None) if self._app else None
        if verifiers is None:
            raise RuntimeError("the verifier's pools are not built yet")
        down = {
            name: verifiers[name].health().detail
            for name in self._required_domains
            if not verifiers[name].health().ok
        }
        if down:
            raise RuntimeError(f"required domains down: {down}")


def build_app(args: Mapping[str, Any] | None = None) -> Application:
    """Serve application builder (`import_path: rlvr.verifier.scaleout.ray_app:build_app`).

    `args` are `RayServeSettings` fields (the Serve config's `args:`); unset ones come from the
    `VERIFIER_RAY__*` environment of the deployer.
    """
    base = VerifierSettings().ray.model_dump()
    settings = RayServeSettings.model_validate({**base, **dict(args or {})})
    options = settings.deployment_options(needs_docker="code" in settings.required_domains)
    shared = replica_environment(os.environ)
    if shared:  # else leave the application's own runtime_env (a Serve config's) untouched
        options["ray_actor_options"]["runtime_env"] = {"env_vars": shared}
    deployment = serve.deployment(**options)(VerifierReplica)
    return deployment.bind(settings.required_domains)


def run(settings: VerifierSettings, address: str | None = None) -> None:
    """Deploy on a running Ray cluster (`ray start --head` first) and block until interrupted."""
    import ray

    ray.init(address=address or "auto")
    serve.start(
        proxy_location="EveryNode",
        http_options={"host": settings.ray.http_host, "port": settings.ray.http_port},
    )
    serve.run(
        build_app(settings.ray.model_dump()),
        name=settings.ray.app_name,
        route_prefix="/",
        blocking=True,
    )
