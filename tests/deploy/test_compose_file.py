"""docker-compose.yml: one file for Compose v1 and v2, loopback by default, the trainer after a
healthy verifier, GPU and CPU profiles, every setting reaching the container, and (with the
compose CLI) a config both the default and the production override accept or refuse as they must.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from rlvr.verifier.settings import VerifierSettings
from tests.deploy.files import (
    REPO_ROOT,
    compose,
    dockerfile_instructions,
    env_example_module,
    environment_names,
)
from tests.support.compose import compose_command
from tests.support.docker_engine import docker_is_required


def test_file_has_no_version_key_and_only_features_both_composes_read() -> None:
    spec = compose()
    assert "version" not in spec  # v2 warns on it; v1 1.29 reads the unversioned spec
    assert set(spec["services"]) == {
        "sandbox-image",
        "lean-image",
        "verifier",
        "trainer",
        "trainer-cpu",
    }


def test_the_lean_image_is_built_under_its_own_profile_as_the_verifier_expects() -> None:
    """Building it downloads Lean, so only `--profile lean` does; its tag is the one the verifier
    starts REPL containers from (VERIFIER_LEAN__SANDBOX__IMAGE, same default)."""
    from rlvr.verifier.domains.lean.config import LeanSandboxSettings

    lean = compose()["services"]["lean-image"]
    assert lean["profiles"] == ["lean"]
    default = LeanSandboxSettings().image
    assert lean["image"] == f"${{VERIFIER_LEAN__SANDBOX__IMAGE:-{default}}}"
    assert lean["build"]["context"] == "docker/lean"


def test_verifier_is_published_on_loopback_with_the_socket_and_its_group() -> None:
    verifier = compose()["services"]["verifier"]
    assert verifier["ports"] == ["${RLVR_BIND:-127.0.0.1}:${RLVR_PORT:-8000}:8000"]
    assert "/var/run/docker.sock:/var/run/docker.sock" in verifier["volumes"]
    assert verifier["group_add"] == ["${RLVR_DOCKER_GID:-999}"]
    assert verifier["init"] is True
    assert (
        verifier["build"]["args"]["BASE_IMAGE"] == "${RLVR_VERIFIER_BASE_IMAGE:-python:3.11-slim}"
    )


def test_every_setting_reaches_the_verifier_container() -> None:
    """Each VERIFIER_* setting is either passed by compose or fixed by the image's ENV; never
    both (an unset pass-through would erase the image's value under Compose v1)."""
    settings = {v for v, _, _ in env_example_module().setting_lines(VerifierSettings, "VERIFIER_")}
    passed = environment_names(compose()["services"]["verifier"])
    image = {k for k in dockerfile_instructions("Dockerfile.verifier", "ENV") if k in settings}
    assert settings - passed - image == set()
    assert passed - settings == set()
    erasable = {
        e for e in compose()["services"]["verifier"]["environment"] if "=" not in e and e in image
    }
    assert erasable == set()


def test_generated_environment_block_is_up_to_date() -> None:
    text = (REPO_ROOT / "docker-compose.yml").read_text()
    assert env_example_module().render_compose(text) == text, (
        "stale: run .venv/bin/python scripts/docker/env_example.py --write"
    )


def test_trainers_wait_for_a_healthy_verifier_and_only_the_gpu_one_reserves_gpus() -> None:
    services = compose()["services"]
    for name, profile in (("trainer", "gpu"), ("trainer-cpu", "cpu")):
        trainer = services[name]
        assert trainer["profiles"] == [profile]
        assert trainer["depends_on"] == {"verifier": {"condition": "service_healthy"}}
        assert trainer["environment"]["VERIFIER_URL"] == "http://verifier:8000"
        assert "trainer-outputs:/outputs" in trainer["volumes"]
        assert "/var/run/docker.sock:/var/run/docker.sock" not in trainer["volumes"]
    gpu = services["trainer"]["deploy"]["resources"]["reservations"]["devices"]
    assert gpu == [{"driver": "nvidia", "count": "all", "capabilities": ["gpu"]}]
    assert "deploy" not in services["trainer-cpu"]
    assert "cuda" in services["trainer"]["build"]["args"]["BASE_IMAGE"]


@pytest.fixture(scope="module")
def compose_cli() -> list[str]:
    command = compose_command()
    if command is None:
        message = "neither `docker compose` nor `docker-compose` is installed"
        if docker_is_required():  # CI installs docker-compose: missing it is a failure there
            pytest.fail(message)
        pytest.skip(message + " (set RLVR_REQUIRE_DOCKER=1 to make this a failure)")
    return command


def _config(cli: list[str], *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("VERIFIER_", "RLVR_"))}
    return subprocess.run(
        [*cli, "-p", "rlvrconfigcheck", *args],
        cwd=REPO_ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_compose_cli_accepts_the_file_with_each_profile(compose_cli: list[str]) -> None:
    for profile in ("cpu", "gpu"):
        result = _config(compose_cli, "--profile", profile, "config", "--services")
        assert result.returncode == 0, result.stderr
        assert "verifier" in result.stdout.split()


def test_production_override_refuses_to_start_without_an_api_key(compose_cli: list[str]) -> None:
    files = ["-f", "docker-compose.yml", "-f", "docker-compose.prod.yml"]
    refused = _config(compose_cli, *files, "config", "-q")
    assert refused.returncode != 0
    assert "VERIFIER_API_KEY" in refused.stderr + refused.stdout
    accepted = _config(compose_cli, *files, "config", VERIFIER_API_KEY="k" * 32)
    assert accepted.returncode == 0, accepted.stderr
    assert "restart: unless-stopped" in accepted.stdout
