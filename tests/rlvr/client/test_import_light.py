"""Importing the client (and the TRL adapter) must not pull in server or ML dependencies."""

from __future__ import annotations

import subprocess
import sys

from tests.support.server import REPO_ROOT

HEAVY = ("fastapi", "starlette", "uvicorn", "docker", "sympy", "torch", "math_verify", "trl")


def _imported_heavy_modules(module: str) -> list[str]:
    code = f"import sys, {module}\nprint(','.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    )
    return [m for m in out.stdout.strip().split(",") if m]


def test_client_import_is_light_in_a_fresh_interpreter() -> None:
    assert _imported_heavy_modules("rlvr.client") == []


def test_trl_and_verl_adapters_import_no_framework_or_server_code() -> None:
    assert _imported_heavy_modules("rlvr.adapters.trl") == []
    assert _imported_heavy_modules("rlvr.adapters.verl") == []
