"""RayServeSettings: how the verifier is laid out on a Ray cluster (no Ray import here)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

Domain = Literal["math", "code", "lean"]
DEFAULT_REQUIRED_DOMAINS: tuple[Domain, ...] = ("math", "code")
# Serve's request router of the deployment (imported by Serve where it routes: every proxy)
SESSION_ROUTER_CLASS = "rlvr.verifier.scaleout.session_router:SessionOwnerRouter"


class RayServeSettings(BaseModel):
    """Deployment options of `rlvr-verifier serve --ray` and of `deploy/ray/serve.yaml`.

    Each replica is one `create_app(settings)` with its own math workers, sandbox pool and Lean
    REPLs, built from the `VERIFIER_*` environment of the node it lands on (so each uses its own
    node's Docker engine).
    """

    app_name: str = Field("rlvr", description="Serve application name.")
    http_host: str = Field(
        "127.0.0.1",
        description="Address of the HTTP proxy on every node (0.0.0.0 to expose it; then set "
        "VERIFIER_API_KEY).",
    )
    http_port: int = Field(8000, description="Port of the HTTP proxy on every node.")
    num_replicas: int | None = Field(
        None,
        ge=1,
        description="Fixed number of replicas; unset: autoscale between min_replicas and "
        "max_replicas.",
    )
    min_replicas: int = Field(1, ge=0, description="Autoscaling: fewest replicas.")
    max_replicas: int = Field(8, ge=1, description="Autoscaling: most replicas.")
    target_ongoing_requests: float = Field(
        4.0, gt=0, description="Autoscaling: batch requests in flight per replica to aim for."
    )
    max_ongoing_requests: int = Field(
        64,
        ge=1,
        description="Batch requests one replica takes at once (Serve's default of 5 starves "
        "batch endpoints: each request is a whole chunk of items).",
    )
    max_queued_requests: int = Field(
        1024,
        ge=-1,
        description="Requests queued for replicas before the proxy answers 503 (-1: no bound).",
    )
    num_cpus_per_replica: float = Field(
        2.0, gt=0, description="CPUs Ray reserves per replica (its math workers and event loop)."
    )
    max_replicas_per_node: int | None = Field(
        None, ge=1, description="Most replicas on one node (unset: as many as resources allow)."
    )
    docker_resource: str = Field(
        "rlvr_docker",
        description='Custom resource a node declares (`ray start --resources \'{"rlvr_docker": '
        "N}'`) when it has a Docker engine with the sandbox image; replicas serving `/code` "
        "need one unit each, so they land only there, N at most per node.",
    )
    required_domains: list[Domain] = Field(
        default_factory=lambda: list(DEFAULT_REQUIRED_DOMAINS),
        description="Domains a replica must have healthy; otherwise it fails Serve's health "
        "check and is replaced.",
    )
    health_check_period_s: float = Field(10.0, gt=0, description="Serve health-check period.")
    health_check_timeout_s: float = Field(30.0, gt=0, description="Serve health-check timeout.")

    @model_validator(mode="after")
    def _bounds_are_ordered(self) -> RayServeSettings:
        if self.min_replicas > self.max_replicas:
            raise ValueError("min_replicas must not exceed max_replicas")
        return self

    def deployment_options(self, needs_docker: bool) -> dict[str, Any]:
        """Keyword arguments of `serve.deployment(...)` (plain data, testable without Ray)."""
        actor: dict[str, Any] = {"num_cpus": self.num_cpus_per_replica}
        if needs_docker:
            actor["resources"] = {self.docker_resource: 1}
        options: dict[str, Any] = {
            "name": "verifier",
            "ray_actor_options": actor,
            "max_ongoing_requests": self.max_ongoing_requests,
            "max_queued_requests": self.max_queued_requests,
            "health_check_period_s": self.health_check_period_s,
            "health_check_timeout_s": self.health_check_timeout_s,
            # a session's calls to the replica that holds it (the rest: two random choices)
            "request_router_config": {"request_router_class": SESSION_ROUTER_CLASS},
        }
        if self.max_replicas_per_node is not None:
            options["max_replicas_per_node"] = self.max_replicas_per_node
        if self.num_replicas is not None:
            options["num_replicas"] = self.num_replicas
        else:
            options["autoscaling_config"] = {
                "min_replicas": self.min_replicas,
                "initial_replicas": max(self.min_replicas, 1),
                "max_replicas": self.max_replicas,
                "target_ongoing_requests": self.target_ongoing_requests,
            }
        return options
