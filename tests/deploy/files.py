"""Read the deployment files (compose YAML, Dockerfile ENV/ARG lines, .env.example) for tests."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
INTERPOLATION = re.compile(r"\$\{([A-Z0-9_]+)(?::?[-?][^}]*)?\}")


def env_example_module() -> ModuleType:
    path = REPO_ROOT / "scripts" / "docker" / "env_example.py"
    spec = importlib.util.spec_from_file_location("rlvr_env_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compose(name: str = "docker-compose.yml") -> dict[str, Any]:
    return yaml.safe_load((REPO_ROOT / name).read_text())


def interpolated_variables(name: str) -> set[str]:
    return set(INTERPOLATION.findall((REPO_ROOT / name).read_text()))


def environment_names(service: dict[str, Any]) -> set[str]:
    """Variable names a compose service sets or passes through (list or mapping form)."""
    environment = service.get("environment", {})
    if isinstance(environment, dict):
        return set(environment)
    return {entry.split("=", 1)[0] for entry in environment}


def dockerfile_instructions(name: str, instruction: str) -> dict[str, str]:
    """KEY=value pairs of every ENV or ARG instruction (continuations joined, comments dropped)."""
    lines = [
        line
        for line in (REPO_ROOT / name).read_text().splitlines()
        if not line.lstrip().startswith("#")
    ]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    pairs: dict[str, str] = {}
    for line in joined.splitlines():
        if line.startswith(f"{instruction} "):
            for key, value in re.findall(r"([A-Za-z_][A-Za-z0-9_]*)=(\S*)", line):
                pairs[key] = value.strip('"')
    return pairs


def documented_variables() -> set[str]:
    text = (REPO_ROOT / ".env.example").read_text()
    return set(re.findall(r"^# ([A-Z][A-Z0-9_]+)=", text, flags=re.MULTILINE))
