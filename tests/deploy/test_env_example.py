"""`.env.example` lists every setting (it is generated from the settings classes) and every
variable the compose files read."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from unittest import mock

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from rlvr.verifier.settings import VerifierSettings
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


def _leaf_fields(model: type[BaseModel], prefix: str) -> Iterator[tuple[str, FieldInfo]]:
    """Every leaf setting as (VARIABLE, field), walked here rather than by the generator."""
    for name, info in model.model_fields.items():
        variable = f"{prefix}{name.upper()}"
        annotation = info.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            yield from _leaf_fields(annotation, variable + "__")
        else:
            yield variable, info


def _documented_values() -> dict[str, str]:
    text = (REPO_ROOT / ".env.example").read_text()
    return dict(re.findall(r"^# (VERIFIER_[A-Z0-9_]+)=(.*)$", text, flags=re.MULTILINE))


def test_every_verifier_setting_is_documented_in_the_file() -> None:
    expected = {variable for variable, _ in _leaf_fields(VerifierSettings, "VERIFIER_")}
    documented = _documented_values()
    assert len(expected) > 20
    assert expected - set(documented) == set(), "settings missing from .env.example"
    # read by the client and rlvr-train, not the service
    client_variables = {"VERIFIER_URL", "VERIFIER_SPLIT_BY_RANK"}
    assert set(documented) - expected == client_variables, (
        ".env.example names settings that do not exist"
    )


def test_every_variable_the_compose_files_read_is_documented() -> None:
    used = interpolated_variables("docker-compose.yml") | interpolated_variables(
        "docker-compose.prod.yml"
    )
    assert "RLVR_PORT" in used and "VERIFIER_API_KEY" in used
    assert used - documented_variables() == set()


def test_documented_values_parse_back_to_the_defaults() -> None:
    """Uncommenting every VERIFIER_ line of the file as written must give the default settings."""
    client = ("VERIFIER_URL", "VERIFIER_SPLIT_BY_RANK")
    env = {v: value for v, value in _documented_values().items() if value and v not in client}
    with mock.patch.dict(os.environ, env, clear=False):
        parsed = VerifierSettings(_env_file=None)
    assert parsed == VerifierSettings(_env_file=None)


def test_a_changed_value_in_the_file_would_be_noticed() -> None:
    """The check above can fail: one documented value changed parses to different settings."""
    env = {"VERIFIER_MATH__DEFAULT_TIMEOUT_S": "7.5"}
    with mock.patch.dict(os.environ, env, clear=False):
        parsed = VerifierSettings(_env_file=None)
    assert parsed != VerifierSettings(_env_file=None)
