"""REPLs in locked-down containers, on the REAL Docker engine, with the STAND-IN REPL inside.

The stand-in (`fake_repl.py`, not Lean) runs in the code sandbox's Python image, exactly where
the Lean REPL runs in production, and is sent in over the container's stdin (nothing of the host
is mounted). Its `escape` directive plays a proof whose code runs inside the REPL: every way out
it tries must fail in the container; the same probe run as an UNSAFE local process gains things,
which shows the probe can see an escape when there is one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import docker
import pytest

from rlvr.schemas.common import Status
from rlvr.schemas.lean import LeanItem, LeanResult
from rlvr.verifier.docker_engine import OWNER_LABEL, POOL_ID_LABEL, POOL_LABEL
from rlvr.verifier.domains.lean.config import LeanSettings
from rlvr.verifier.domains.lean.container import LeanContainers
from rlvr.verifier.domains.lean.verifier import LeanVerifier, open_lean_verifier
from tests.rlvr.verifier.domains.lean.support import (
    container_settings,
    process_command,
    require_stand_in_image,
)

STATEMENT = "theorem add_zero' (a : Nat) : a + 0 = a := by sorry"
HONEST = "theorem add_zero' (a : Nat) : a + 0 = a := by\n  simp"


@pytest.fixture(autouse=True)
def _image() -> None:
    require_stand_in_image()


@asynccontextmanager
async def lean(*env: str, **overrides: Any) -> AsyncIterator[LeanVerifier]:
    async with open_lean_verifier(container_settings(*env, **overrides)) as verifier:
        assert verifier.unavailable is None, verifier.unavailable
        yield verifier


async def one(verifier: LeanVerifier, proof: str = HONEST, **fields: Any) -> LeanResult:
    item = LeanItem(statement=fields.pop("statement", STATEMENT), proof=proof, **fields)
    [result] = await verifier.verify_batch([item])
    return result


def own_containers(verifier: LeanVerifier) -> list[Any]:
    pool_id = pool_id_of(verifier)
    client = docker.from_env()
    return list(client.containers.list(all=True, filters={"label": f"{POOL_ID_LABEL}={pool_id}"}))


def pool_id_of(verifier: LeanVerifier) -> str:
    assert verifier.pool is not None
    factory = verifier.pool._factory
    assert isinstance(factory, LeanContainers)
    return factory.pool_id


@pytest.fixture
def listener() -> Iterator[int]:
    """A TCP port open on every host interface: something an escaped proof could talk to."""
    with socket.socket() as server:
        server.bind(("0.0.0.0", 0))
        server.listen(8)
        yield int(server.getsockname()[1])


def escape_report(result: LeanResult) -> dict[str, str]:
    [text] = [m.text for m in result.messages if m.text.startswith("escape report: ")]
    report: dict[str, str] = json.loads(text.removeprefix("escape report: "))
    return report


async def test_honest_proof_passes_in_a_container_and_the_header_is_elaborated_once() -> None:
    async with lean(pool_size_per_header=1) as verifier:
        results = await verifier.verify_batch([LeanItem(statement=STATEMENT, proof=HONEST)] * 3)
        cheat = await one(verifier, "theorem add_zero' (a : Nat) : a + 0 = a + 0 := rfl")
        stats = verifier.health().stats
        assert len(own_containers(verifier)) == 1
    assert [r.status for r in results] == [Status.passed] * 3
    assert cheat.status is Status.failed and "does not prove" in cheat.detail
    assert stats["repls_started"] == 1 and stats["isolation"] == "container"


async def test_every_escape_attempt_from_inside_the_repl_fails(
    tmp_path: Path, listener: int
) -> None:
    secret = tmp_path / "api-key"
    secret.write_text("k" * 32)
    directive = f" -- fake: escape port={listener} file={secret} file=/home/rlvr/.env"
    async with lean() as verifier:
        result = await one(verifier, HONEST + directive)
    report = escape_report(result)
    assert result.status is Status.passed  # the proof itself is still judged
    assert {"docker_socket", "route_out", "interfaces", f"loopback:{listener}"} <= set(report)
    assert {"environment", "host_file:0", "write_outside_tmp", "privileges"} <= set(report)
    gained = {k: v for k, v in report.items() if not v.startswith("blocked")}
    assert gained == {}, gained
    print(json.dumps(report, indent=1))  # shown with -s: what each attempt met


async def test_the_escape_probe_sees_an_escape_where_there_is_one(
    tmp_path: Path, listener: int
) -> None:
    # The control: the same probe as an UNSAFE local process reaches the host's files, network
    # and environment, so a green test above means blocked, not blind.
    secret = tmp_path / "api-key"
    secret.write_text("k" * 32)
    settings = LeanSettings(
        isolation="unsafe_process",
        repl_command=f"env VERIFIER_API_KEY=secret {process_command()}",
    )
    directive = f" -- fake: escape port={listener} file={secret} dir={tmp_path}"
    async with open_lean_verifier(settings) as verifier:
        report = escape_report(await one(verifier, HONEST + directive))
    for attempt in ("environment", "host_file:0", f"loopback:{listener}", "write_outside_tmp"):
        assert report[attempt].startswith("GAINED"), (attempt, report[attempt])


async def test_the_container_is_locked_down() -> None:
    async with lean(pool_size_per_header=1) as verifier:
        await one(verifier)
        [container] = own_containers(verifier)
        attrs = container.attrs
    host = attrs["HostConfig"]
    assert host["NetworkMode"] == "none" and host["ReadonlyRootfs"] is True
    assert host["CapDrop"] == ["ALL"] and "no-new-privileges" in host["SecurityOpt"]
    assert host["PidsLimit"] and host["Memory"] == 16384 * 1024 * 1024
    assert host["MemorySwap"] == host["Memory"] and host["IpcMode"] == "none"
    assert host["Binds"] in (None, []) and attrs["Mounts"] == []
    assert host["Privileged"] is False and host["Init"] is True
    assert list(host["Tmpfs"]) == ["/tmp"]
    uid = attrs["Config"]["User"].split(":")[0]
    assert int(uid) >= 100_000
    env = attrs["Config"]["Env"] or []
    assert not [e for e in env if e.startswith(("VERIFIER_", "DOCKER", "RLVR_"))], env
    assert attrs["Config"]["Labels"][POOL_LABEL] == "lean"


async def test_a_late_proof_times_out_and_its_container_is_removed() -> None:
    async with lean(pool_size_per_header=1) as verifier:
        hung = await one(verifier, HONEST + " -- fake: hang", timeout_s=1.5)
        assert own_containers(verifier) == []  # removed, not left running the proof
        after = await one(verifier)
        stats = verifier.health().stats
    assert hung.status is Status.timed_out and "killed" in hung.detail
    assert after.status is Status.passed
    assert stats["repls_started"] == 2 and stats["repls_recycled"] == 1


async def test_a_proof_over_the_memory_cap_is_killed_by_the_cgroup() -> None:
    async with lean(memory_limit_mb=128) as verifier:
        hungry = await one(verifier, HONEST + " -- fake: memory 512")
        after = await one(verifier)
    assert hungry.status is Status.failed and "crashed the Lean REPL twice" in hungry.detail
    assert "memory limit" in hungry.detail or "137" in hungry.detail, hungry.detail
    assert after.status is Status.passed


async def test_a_crashing_proof_fails_and_the_next_gets_a_fresh_container() -> None:
    async with lean(pool_size_per_header=1) as verifier:
        crashed = await one(verifier, HONEST + " -- fake: crash")
        after = await one(verifier)
        assert len(own_containers(verifier)) == 1
    assert crashed.status is Status.failed and "code 3" in crashed.detail
    assert after.status is Status.passed


async def test_forged_reply_from_inside_the_container_never_passes() -> None:
    async with lean(pool_size_per_header=1) as verifier:
        forged = await one(verifier, HONEST + " -- fake: forge")
        after = await one(verifier)
    assert forged.status is not Status.passed and forged.reward != 1.0
    assert after.status is Status.passed


async def test_containers_are_recycled_after_max_proofs_and_removed_at_close() -> None:
    async with lean(pool_size_per_header=1, max_proofs_per_repl=2) as verifier:
        results = [await one(verifier) for _ in range(5)]
        stats = verifier.health().stats
        pool_id = pool_id_of(verifier)
        assert len(own_containers(verifier)) == 1
    assert all(r.status is Status.passed for r in results)
    assert stats["repls_started"] == 3
    left = docker.from_env().containers.list(
        all=True, filters={"label": f"{POOL_ID_LABEL}={pool_id}"}
    )
    assert left == []


async def test_containers_of_a_dead_service_are_removed_at_start() -> None:
    client = docker.from_env()
    dead_owner = f"{socket.gethostname()}:{2**22 + 12345}"  # above pid_max: never alive
    orphan = client.containers.create(
        "rlvr-sandbox:latest",
        command=["sleep", "600"],
        labels={POOL_LABEL: "lean", OWNER_LABEL: dead_owner, POOL_ID_LABEL: "dead"},
        network_mode="none",
    )
    try:
        async with lean() as verifier:
            await one(verifier)
        with pytest.raises(docker.errors.NotFound):
            client.containers.get(str(orphan.id))
    finally:
        with contextlib.suppress(docker.errors.NotFound):
            orphan.remove(force=True)


async def test_concurrent_items_run_in_parallel_containers_without_mixing_replies() -> None:
    cheat = "theorem add_zero' (a : Nat) : a + 0 = a + 0 := rfl"
    async with lean(pool_size_per_header=2, max_repls=2) as verifier:
        batches = await asyncio.gather(
            *(
                verifier.verify_batch(
                    [LeanItem(statement=STATEMENT, proof=p) for p in (HONEST, cheat, HONEST)]
                )
                for _ in range(3)
            )
        )
        assert len(own_containers(verifier)) == 2
    for results in batches:
        assert [r.status for r in results] == [Status.passed, Status.failed, Status.passed]


async def test_missing_image_makes_lean_unavailable_with_a_reason() -> None:
    settings = container_settings(sandbox={"image": "rlvr-no-such-image:never"})
    async with open_lean_verifier(settings) as verifier:
        result = await one(verifier)
        health = verifier.health()
    assert result.status is Status.error and "no Lean toolchain" in result.detail
    assert not health.ok and "rlvr-no-such-image" in (health.detail or "")


@pytest.mark.parametrize(
    "sandbox",
    [{"docker_host": "tcp://127.0.0.1:2375"}, {"stdin_preamble_path": "/nonexistent/preamble"}],
    ids=["tcp-docker-host", "missing-preamble"],
)
async def test_a_misconfigured_sandbox_makes_lean_unavailable_not_the_service(
    sandbox: dict[str, str],
) -> None:
    async with open_lean_verifier(container_settings(sandbox=sandbox)) as verifier:
        result = await one(verifier)
        health = verifier.health()
    assert result.status is Status.error and result.reward is None
    assert not health.ok and "Lean sandbox unavailable" in (health.detail or "")


def test_default_settings_sandbox_the_repl() -> None:
    settings = LeanSettings()
    assert settings.isolation == "container" and settings.is_sandboxed
    assert os.environ.get("VERIFIER_LEAN__ISOLATION") in (None, "container")
