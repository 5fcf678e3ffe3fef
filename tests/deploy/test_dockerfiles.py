"""The Dockerfiles: public bases by default (build arguments), non-root, healthchecked, and ENV
defaults that are real settings with valid values."""

from __future__ import annotations

import os
from unittest import mock

from rlvr.verifier.settings import VerifierSettings
from tests.deploy.files import REPO_ROOT, dockerfile_instructions


def test_bases_default_to_the_public_images_a_user_pulls() -> None:
    assert dockerfile_instructions("Dockerfile.verifier", "ARG")["BASE_IMAGE"] == "python:3.11-slim"
    trainer_base = dockerfile_instructions("Dockerfile.trainer", "ARG")["BASE_IMAGE"]
    assert trainer_base.startswith("pytorch/pytorch:") and "cuda" in trainer_base


def test_images_run_as_an_unprivileged_user() -> None:
    for name in ("Dockerfile.verifier", "Dockerfile.trainer"):
        users = [
            line.split()[1]
            for line in (REPO_ROOT / name).read_text().splitlines()
            if line.startswith("USER ")
        ]
        assert users and all(not u.startswith(("0", "root")) for u in users), name


def test_verifier_healthcheck_probes_health() -> None:
    text = (REPO_ROOT / "Dockerfile.verifier").read_text()
    assert "HEALTHCHECK" in text and "/health" in text.split("HEALTHCHECK", 1)[1]


def test_lean_in_the_verifier_image_is_off_by_default_and_mathlib_off() -> None:
    """REPLs run in containers of the Lean image; only `unsafe_process` needs Lean here."""
    args = dockerfile_instructions("Dockerfile.verifier", "ARG")
    assert args["INSTALL_LEAN"] == "false"
    assert args["INSTALL_MATHLIB"] == "false"


def test_image_env_defaults_are_valid_settings() -> None:
    env = {
        k: v
        for k, v in dockerfile_instructions("Dockerfile.verifier", "ENV").items()
        if k.startswith("VERIFIER_")
    }
    assert env["VERIFIER_HOST"] == "0.0.0.0"
    with mock.patch.dict(os.environ, env):
        settings = VerifierSettings(_env_file=None)
    assert settings.host == "0.0.0.0" and settings.port == 8000
    names = {f"VERIFIER_{n.upper()}" for n in VerifierSettings.model_fields}
    nested = {k for k in env if "__" in k}
    assert {k for k in env if "__" not in k} <= names, "unknown top-level setting in ENV"
    for key in nested:
        section = key.removeprefix("VERIFIER_").split("__")[0].lower()
        assert section in VerifierSettings.model_fields, key


def test_pinned_lean_versions_match_the_lean_settings_everywhere() -> None:
    from rlvr.verifier.domains.lean import config

    pins = {
        "LEAN_TOOLCHAIN": config.DEFAULT_LEAN_TOOLCHAIN,
        "REPL_REV": config.DEFAULT_REPL_REV,
        "MATHLIB_REV": config.DEFAULT_MATHLIB_REV,
    }
    args = dockerfile_instructions("Dockerfile.verifier", "ARG")
    compose_text = (REPO_ROOT / "docker-compose.yml").read_text()
    for name, pinned in pins.items():
        assert args[name] == pinned, name
        assert f"{name}: ${{RLVR_{name}:-{pinned}}}" in compose_text, name
