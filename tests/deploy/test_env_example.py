"""`.env.example` lists every setting (it is generated from the settings classes) and every
variable the compose files read."""

from __future__ import annotations

from services.verifier.settings import VerifierSettings
from tests.deploy.files import (
    REPO_ROOT,
    documented_variables,
    env_example_module,
    interpolated_variables,
)


def test_env_example_is_up_to_date_with_the_settings_classes() -> None:
    rendered = env_example_module().render()
    assert (REPO_ROOT / ".env.example").read_text() == rendered, (
        "stale: run .venv/bin/python scripts/docker/env_example.py --write"
    )


def test_every_verifier_setting_is_documented_with_its_default() -> None:
    module = env_example_module()
    settings = list(module.setting_lines(VerifierSettings, "VERIFIER_"))
    assert len(settings) > 20
    text = (REPO_ROOT / ".env.example").read_text()
    for variable, default, _ in settings:
        assert f"# {variable}={default}\n" in text


def test_every_variable_the_compose_files_read_is_documented() -> None:
    used = interpolated_variables("docker-compose.yml") | interpolated_variables(
        "docker-compose.prod.yml"
    )
    assert "RLVR_PORT" in used and "VERIFIER_API_KEY" in used
    assert used - documented_variables() == set()


def test_documented_defaults_parse_as_settings() -> None:
    """Uncommenting every VERIFIER_ line unchanged must give a valid VerifierSettings."""
    module = env_example_module()
    env = {v: d for v, d, _ in module.setting_lines(VerifierSettings, "VERIFIER_") if d != ""}
    import os
    from unittest import mock

    with mock.patch.dict(os.environ, env, clear=False):
        parsed = VerifierSettings(_env_file=None)
    assert parsed == VerifierSettings(_env_file=None)
