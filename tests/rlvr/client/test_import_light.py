"""Importing the client face (the client, schemas, adapters, formats) must not pull in the
service package (`rlvr.verifier`) or server and ML dependencies: each is imported in a fresh
interpreter, where `sys.modules` shows everything the import dragged in."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support.server import REPO_ROOT

HEAVY = ("fastapi", "starlette", "uvicorn", "docker", "sympy", "torch", "math_verify", "trl")
CLIENT_FACE = (
    "rlvr",
    "rlvr.client",
    "rlvr.schemas",
    "rlvr.adapters",
    "rlvr.adapters.trl",
    "rlvr.adapters.verl",
    "rlvr.formats.answer",
    "rlvr.formats.choice",
    "rlvr.formats.code",
    "rlvr.formats.gym",
    "rlvr.formats.ifeval",
)


def _loaded_after_import(module: str) -> list[str]:
    """Every module name in `sys.modules` after `import <module>` in a fresh interpreter."""
    code = f"import json, sys, {module}\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    )
    loaded: list[str] = json.loads(out.stdout)
    assert module in loaded  # the probe itself worked
    return loaded


def _imported_heavy_modules(module: str) -> list[str]:
    loaded = set(_loaded_after_import(module))
    return [m for m in HEAVY if m in loaded]


def test_client_import_is_light_in_a_fresh_interpreter() -> None:
    assert _imported_heavy_modules("rlvr.client") == []


def test_trl_and_verl_adapters_import_no_framework_or_server_code() -> None:
    assert _imported_heavy_modules("rlvr.adapters.trl") == []
    assert _imported_heavy_modules("rlvr.adapters.verl") == []


@pytest.mark.parametrize("module", CLIENT_FACE)
def test_the_client_face_does_not_import_the_service_package(module: str) -> None:
    loaded = _loaded_after_import(module)
    server_side = [m for m in loaded if m == "rlvr.verifier" or m.startswith("rlvr.verifier.")]
    heavy = [m for m in loaded if m.split(".")[0] in HEAVY]
    assert server_side == [], f"`import {module}` loaded the service package: {server_side}"
    assert heavy == [], f"`import {module}` loaded server or ML dependencies: {heavy}"


def test_the_probe_sees_the_service_package_when_it_is_imported() -> None:
    """The check above can fail: importing the service's app does load it (and fastapi)."""
    loaded = _loaded_after_import("rlvr.verifier.app")
    assert "rlvr.verifier" in loaded and "fastapi" in loaded


def test_the_service_harness_for_benchmarks_imports_no_server_dependency() -> None:
    """`rlvr.verifier.testing` starts the service in a subprocess: itself it needs only httpx."""
    loaded = _loaded_after_import("rlvr.verifier.testing")
    heavy = [m for m in loaded if m.split(".")[0] in HEAVY]
    service = [m for m in loaded if m.startswith("rlvr.verifier.") and ".testing" not in m]
    assert heavy == [] and service == [], (heavy, service)
