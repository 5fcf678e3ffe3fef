"""The optional-packages gate (`tests/support/packages.py`), in a pytest of its own with the
package hidden (`tests.support.hide_packages`): a module that needs it is a skip with the reason
on a developer's machine and a collection error under `RLVR_REQUIRE_PACKAGES=1` (CI)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.support.packages import SWITCH
from tests.support.server import REPO_ROOT

# One module imports openrlhf at its top (the collection hook's case); one calls
# `require_packages("verl", ...)` (the explicit case).
MODULES = {
    "openrlhf": "tests/rlvr/adapters/test_openrlhf_real.py",
    "verl": "tests/rlvr/adapters/test_verl_real.py",
}


def collect(module: str, hidden: str, is_required: bool) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HIDE_PACKAGES": hidden}
    env.pop(SWITCH, None)
    if is_required:
        env[SWITCH] = "1"
    command = [sys.executable, "-m", "pytest", "-p", "tests.support.hide_packages"]
    command += ["--collect-only", "-q", "-rs", "-p", "no:cacheprovider", module]
    return subprocess.run(
        command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize("package", sorted(MODULES))
def test_a_missing_optional_package_skips_its_module_with_the_reason(package: str) -> None:
    done = collect(MODULES[package], package, is_required=False)
    assert done.returncode == 5, done.stdout[-3000:]  # nothing collected, no error
    assert f"optional package '{package}' is not importable" in done.stdout
    assert f"set {SWITCH}=1 to make this a failure" in done.stdout


@pytest.mark.parametrize("package", sorted(MODULES))
def test_a_missing_optional_package_fails_collection_where_it_is_required(package: str) -> None:
    done = collect(MODULES[package], package, is_required=True)
    assert done.returncode == 2, done.stdout[-3000:]  # interrupted: errors during collection
    assert f"optional package '{package}' is not importable" in done.stdout
    assert f"{SWITCH}=1: these tests must run here" in done.stdout


def test_with_nothing_hidden_the_module_collects() -> None:
    done = collect(MODULES["verl"], "", is_required=True)
    assert done.returncode == 0, done.stdout[-3000:]
    # every test of the module is collected: one line per test id, none skipped at collection
    collected = [line for line in done.stdout.splitlines() if line.startswith(MODULES["verl"])]
    assert len(collected) >= 3, done.stdout[-3000:]
    assert f"{len(collected)} tests collected" in done.stdout
    assert "skipped" not in done.stdout
