"""The Ray Serve config and the KubeRay manifest: valid for Serve's own schema, for strict
Kubernetes schemas (the pod templates), and in step with each other and with `build_app`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from ray.serve.schema import ServeDeploySchema

from rlvr.verifier.scaleout.config import RayServeSettings
from rlvr.verifier.scaleout.ray_app import build_app, replica_environment
from tests.deploy.files import REPO_ROOT

SERVE_CONFIG = REPO_ROOT / "deploy" / "ray" / "serve.yaml"
RAYSERVICE = REPO_ROOT / "deploy" / "kubernetes" / "rayservice.yaml"
KUBERAY_SPEC_FIELDS = {"serveConfigV2", "rayClusterConfig"}
KUBERAY_CLUSTER_FIELDS = {
    "rayVersion",
    "enableInTreeAutoscaling",
    "headGroupSpec",
    "workerGroupSpecs",
}
KUBERAY_GROUP_FIELDS = {
    "groupName",
    "replicas",
    "minReplicas",
    "maxReplicas",
    "rayStartParams",
    "template",
}


def _load(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text())


def test_the_serve_config_is_valid_for_serve_and_builds_our_application() -> None:
    config = ServeDeploySchema.model_validate(_load(SERVE_CONFIG))
    [application] = config.applications
    assert application.import_path == "rlvr.verifier.scaleout.ray_app:build_app"
    assert config.proxy_location.value == "EveryNode"
    settings = RayServeSettings.model_validate(application.args)
    assert settings.max_ongoing_requests > 5  # Serve's default would starve batch requests
    app = build_app(application.args)
    deployment = app._bound_deployment  # what Serve will deploy
    assert deployment.max_ongoing_requests == settings.max_ongoing_requests
    assert (deployment.ray_actor_options or {}).get("resources") == {"rlvr_docker": 1}
    autoscaling = deployment._deployment_config.autoscaling_config
    assert autoscaling is not None and autoscaling.max_replicas == 8


def test_the_rayservice_runs_the_same_serve_config() -> None:
    manifest = _load(RAYSERVICE)
    assert yaml.safe_load(manifest["spec"]["serveConfigV2"]) == _load(SERVE_CONFIG)


def test_the_rayservice_uses_only_kuberay_fields() -> None:
    manifest = _load(RAYSERVICE)
    assert (manifest["apiVersion"], manifest["kind"]) == ("ray.io/v1", "RayService")
    spec = manifest["spec"]
    assert set(spec) <= KUBERAY_SPEC_FIELDS
    cluster = spec["rayClusterConfig"]
    assert set(cluster) <= KUBERAY_CLUSTER_FIELDS
    assert set(cluster["headGroupSpec"]) <= {"rayStartParams", "template", "serviceType"}
    for group in cluster["workerGroupSpecs"]:
        assert set(group) <= KUBERAY_GROUP_FIELDS
        assert all(isinstance(v, str) for v in group["rayStartParams"].values())


def _pod_templates() -> list[dict[str, Any]]:
    cluster = _load(RAYSERVICE)["spec"]["rayClusterConfig"]
    groups = [cluster["headGroupSpec"], *cluster["workerGroupSpecs"]]
    return [group["template"] for group in groups]


@pytest.mark.parametrize("index", range(2))
def test_every_pod_template_is_valid_for_a_strict_kubernetes_schema(index: int) -> None:
    template = _pod_templates()[index]
    document = {
        "apiVersion": "v1",
        "kind": "PodTemplate",
        "metadata": {"name": f"template-{index}"},
        "template": template,
    }
    # it raises on the first schema error; it returns the version it validated against
    assert kubernetes_validate.validate(document, "1.33.0", strict=True) == "1.33"


def test_a_wrong_field_in_a_pod_template_is_caught() -> None:
    """The strict check above can fail: a misspelt field is refused."""
    template = _pod_templates()[1]
    broken = {**template, "spec": {**template["spec"], "nodeSelektor": {}}}
    document = {"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"name": "x"}}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate({**document, "template": broken}, "1.33.0", strict=True)


def test_code_workers_declare_the_docker_resource_and_mount_the_socket() -> None:
    [worker] = _load(RAYSERVICE)["spec"]["rayClusterConfig"]["workerGroupSpecs"]
    assert "rlvr_docker" in worker["rayStartParams"]["resources"]
    [container] = worker["template"]["spec"]["containers"]
    assert {"name": "docker-socket", "mountPath": "/var/run/docker.sock"} in container[
        "volumeMounts"
    ]


def test_node_local_settings_are_not_copied_to_every_replica() -> None:
    environ = {
        "VERIFIER_MATH__WORKERS": "4",
        "VERIFIER_CODE__SANDBOX__DOCKER_HOST": "unix:///mine.sock",
        "VERIFIER_RAY__NUM_REPLICAS": "3",
        "HOME": "/root",
    }
    assert replica_environment(environ) == {"VERIFIER_MATH__WORKERS": "4"}
