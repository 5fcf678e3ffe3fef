"""Optional packages (the trainer's and the frameworks' stacks): skip where absent, fail in CI.

A developer's machine may lack them (`pip install -e .[verifier]` only); then the tests that
need them are skipped with the reason. `.ci/run` sets `RLVR_REQUIRE_PACKAGES=1`, and there a
missing one fails the run, as a missing Docker engine does under `RLVR_REQUIRE_DOCKER=1`.

Two ways in: `tests/conftest.py` collects every test module through `OptionalPackagesModule`
(a module whose import fails on one of `OPTIONAL` is skipped), and `require_packages(...)` at
the top of a module that imports them only inside its tests.
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

import pytest

SWITCH = "RLVR_REQUIRE_PACKAGES"
#: Top-level names of the packages a test may need that the service and client never import.
OPTIONAL = frozenset(
    {
        "accelerate",
        "datasets",
        "openrlhf",
        "peft",
        "tensordict",
        "tokenizers",
        "torch",
        "transformers",
        "trl",
        "verl",
    }
)


def packages_are_required() -> bool:
    return os.environ.get(SWITCH, "") == "1"


def missing_optional(error: BaseException | None) -> str | None:
    """The optional package an import error (or its cause) reports missing, else None."""
    while error is not None:
        if isinstance(error, ModuleNotFoundError) and error.name:
            root = error.name.split(".")[0]
            return root if root in OPTIONAL else None
        error = error.__cause__
    return None


def _absent(where: str, name: str, error: BaseException) -> None:
    message = f"{where}: optional package {name!r} is not importable ({error})"
    if packages_are_required():
        pytest.fail(f"{message} ({SWITCH}=1: these tests must run here)", pytrace=False)
    pytest.skip(f"{message} (set {SWITCH}=1 to make this a failure)", allow_module_level=True)


def require_packages(*names: str) -> list[ModuleType]:
    """Import `names` (call at module level): skip the module where one is absent, fail in CI."""
    where = sys._getframe(1).f_globals.get("__name__", "?")
    modules = []
    for name in names:
        try:
            modules.append(importlib.import_module(name))
        except ImportError as error:
            _absent(where, name, error)
    return modules


class OptionalPackagesModule(pytest.Module):
    """A test module whose import failing on an `OPTIONAL` package is a skip (a failure in CI)."""

    def _getobj(self) -> ModuleType:
        try:
            module: ModuleType = super()._getobj()
        except pytest.Collector.CollectError as error:
            name = missing_optional(error.__cause__)
            if name is None or error.__cause__ is None:
                raise
            _absent(self.nodeid, name, error.__cause__)
            raise  # unreachable: `_absent` skips or fails
        return module
