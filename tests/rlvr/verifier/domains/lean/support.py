"""How the Lean tests start the STAND-IN REPL (`fake_repl.py`, not Lean): in a locked-down
container of the code sandbox's Python image (the default isolation), or, for the plumbing tests
that need host files (logs, crash markers), as an UNSAFE local process."""

from __future__ import annotations

import shlex
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from rlvr.schemas.lean import LeanItem
from rlvr.verifier.domains.lean.config import LeanSettings
from rlvr.verifier.domains.lean.verifier import LeanVerifier, open_lean_verifier
from tests.support.docker_engine import docker_is_required, require_docker_engine

FAKE_REPL = Path(__file__).with_name("fake_repl.py")
#: Any image with python3 stands in for the Lean image; the code sandbox's is built here.
STAND_IN_IMAGE = "rlvr-sandbox:latest"
#: The container's command: read the stand-in's source from stdin (the 10-digit length the
#: service sends first, then the bytes), run it as __main__, then serve the REPL protocol on the
#: rest of stdin. Nothing of the host is mounted.
BOOTSTRAP = (
    "import sys;b=sys.stdin.buffer;"
    "exec(compile(b.read(int(b.read(10))),'fake_repl.py','exec'),{'__name__':'__main__'})"
)


def container_command(*env: str) -> str:
    prefix = ["env", *env] if env else []
    return shlex.join([*prefix, "python3", "-I", "-S", "-c", BOOTSTRAP])


def container_settings(*env: str, **overrides: Any) -> LeanSettings:
    """Settings whose REPLs are the stand-in in a hardened container (the production path)."""
    sandbox = {"image": STAND_IN_IMAGE, "stdin_preamble_path": str(FAKE_REPL)}
    sandbox.update(overrides.pop("sandbox", {}))
    return LeanSettings(
        isolation="container",
        repl_command=container_command(*env),
        sandbox=sandbox,
        **overrides,
    )


def container_env(*env: str) -> dict[str, str]:
    """The same, as `VERIFIER_LEAN__*` variables for a live service."""
    return {
        "VERIFIER_LEAN__ISOLATION": "container",
        "VERIFIER_LEAN__REPL_COMMAND": container_command(*env),
        "VERIFIER_LEAN__SANDBOX__IMAGE": STAND_IN_IMAGE,
        "VERIFIER_LEAN__SANDBOX__STDIN_PREAMBLE_PATH": str(FAKE_REPL),
    }


def process_command() -> str:
    return f"{sys.executable} {FAKE_REPL}"


def require_stand_in_image() -> None:
    """Skip without Docker or the image on a developer's machine; fail under RLVR_REQUIRE_DOCKER."""
    require_docker_engine()
    import docker

    try:
        docker.from_env(timeout=10).images.get(STAND_IN_IMAGE)
    except Exception as exc:
        message = f"{STAND_IN_IMAGE} missing ({exc}); build it: scripts/docker/build_images.sh"
        if docker_is_required():
            pytest.fail(message)
        pytest.skip(message)


# -- the UNSAFE local stand-in, for the plumbing tests (`test_pool.py`, `test_admission.py`)

STATEMENT = "theorem add_zero' (a : Nat) : a + 0 = a := by sorry"
HONEST = "theorem add_zero' (a : Nat) : a + 0 = a := by\n  simp"


def fake_command() -> str:
    return f"{sys.executable} {FAKE_REPL}"


@asynccontextmanager
async def lean(
    log: Path | None = None, accumulate: bool = False, **overrides: Any
) -> AsyncIterator[LeanVerifier]:
    command = fake_command()
    if log is not None:
        command = f"env FAKE_REPL_LOG={log} {command}"
    if accumulate:
        command = f"env FAKE_REPL_ACCUMULATE=1 {command}"
    settings = LeanSettings(isolation="unsafe_process", repl_command=command, **overrides)
    async with open_lean_verifier(settings) as verifier:
        yield verifier


def item(proof: str = HONEST, **fields: Any) -> LeanItem:
    return LeanItem(statement=fields.pop("statement", STATEMENT), proof=proof, **fields)
