"""The Docker backend and the pool against a real engine: hardening, recovery, recycling."""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from typing import Any

import docker
import pytest

from rlvr.schemas.code import CodeItem
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.verifier import open_code_verifier
from rlvr.verifier.sandbox.host.cpu_spread import PINNED_CPU_LABEL, least_used_cpu, pinned_counts
from rlvr.verifier.sandbox.host.docker import DockerBackend, DockerSandbox
from rlvr.verifier.sandbox.host.settings import DockerSandboxSettings
from rlvr.verifier.sandbox.inside import executor
from rlvr.verifier.sandbox.wire.codec import decode_value
from rlvr.verifier.sandbox.wire.protocol import CHANNEL_DIR, Job, Limits
from tests.support import jobs
from tests.support.docker_engine import sandbox_settings

pytestmark = [pytest.mark.docker]

LIMITS: Limits = {"timeout_s": 5, "memory_mb": 256, "file_size_mb": 16, "nproc": 32}

PROBE = """
import os, socket
def probe():
    # /proc/net/dev, not socket.if_nameindex(): runs may open no socket but AF_UNIX
    rows = open("/proc/net/dev").read().splitlines()[2:]
    out = {"uid": os.getuid(), "interfaces": sorted(r.split(":")[0].strip() for r in rows)}
    for path in ("/proc/1/fd/1", "/proc/1/mem", "/proc/1/environ"):
        try:
            open(path, "rb").read(1)
            out[path] = "readable"
        except OSError as exc:
            out[path] = type(exc).__name__
    try:
        open("/etc/evil", "w")
        out["root_fs"] = "writable"
    except OSError:
        out["root_fs"] = "read-only"
    return out
"""


def call_job(code: str, fn: str) -> Job:
    return jobs.call_job(code, fn, LIMITS)


async def test_container_is_hardened_and_the_executor_unreachable(docker_engine: None) -> None:
    backend = DockerBackend(sandbox_settings())
    sandbox = await backend.start()
    try:
        assert isinstance(sandbox, DockerSandbox)
        attrs = docker.from_env().api.inspect_container(sandbox.container_id)
        host = attrs["HostConfig"]
        assert host["NetworkMode"] == "none"
        assert host["ReadonlyRootfs"] is True
        assert host["CapDrop"] == ["ALL"]
        assert "no-new-privileges" in host["SecurityOpt"]
        assert host["Memory"] > 0 and host["PidsLimit"] > 0
        # nothing from the host but the job channel's directory, removed once connected
        assert not host["Binds"]
        assert all(m["Destination"] == CHANNEL_DIR for m in attrs["Mounts"])
        assert not any(os.path.exists(m["Source"]) for m in attrs["Mounts"])
        assert "/tmp" in host["Tmpfs"] and "size=" in host["Tmpfs"]["/tmp"]
        assert not attrs["Config"]["User"].startswith("0")
        assert attrs["Config"]["Labels"]["rlvr.pool"] == "code"

        result = await sandbox.run(call_job(PROBE, "probe"), timeout_s=30)
        seen = decode_value(result["tests"][0]["replies"][1]["value"])
        assert seen["uid"] != 0
        assert seen["interfaces"] == ["lo"]
        assert seen["root_fs"] == "read-only"
        for path in ("/proc/1/fd/1", "/proc/1/mem", "/proc/1/environ"):
            assert seen[path] == "PermissionError", seen
    finally:
        await backend.close()


AFFINITY = "import os\ndef cpus():\n    return sorted(os.sched_getaffinity(0))\n"


def pinned_cpu(container_id: str) -> tuple[str, str | None]:
    """(the container's cpuset, its `rlvr.cpu` label)."""
    attrs = docker.from_env().api.inspect_container(container_id)
    return attrs["HostConfig"]["CpusetCpus"], attrs["Config"]["Labels"].get(PINNED_CPU_LABEL)


def engine_pins() -> Counter[int]:
    """How many of the engine's containers are pinned to each CPU now (this suite's other
    services may hold some)."""
    listed = docker.from_env().api.containers(
        all=True, filters={"label": PINNED_CPU_LABEL, "status": ["created", "running"]}
    )
    return pinned_counts(c.get("Labels") for c in listed)


async def test_each_container_runs_on_a_cpu_of_its_own(docker_engine: None) -> None:
    """Spread: each container goes to the CPU the fewest of the engine's containers use, so a
    backend's two land on different CPUs where the engine's were even; a run inside sees only
    its container's CPU."""
    backend = DockerBackend(sandbox_settings())
    cpus = sorted(os.sched_getaffinity(0))
    assert backend.settings.cpu_pinning == "spread"
    try:
        before_first = engine_pins()
        first = await backend.start()
        before_second = engine_pins()
        second = await backend.start()
        pins = [pinned_cpu(first.container_id), pinned_cpu(second.container_id)]
        assert all(cpuset == label and cpuset.isdigit() for cpuset, label in pins), pins
        assert int(pins[0][0]) == least_used_cpu(cpus, before_first)
        assert int(pins[1][0]) == least_used_cpu(cpus, before_second)
        if len(cpus) >= 2 and len({before_first[cpu] for cpu in cpus}) == 1:
            assert pins[0] != pins[1]
        for sandbox, (cpuset, _) in zip((first, second), pins, strict=True):
            result = await sandbox.run(call_job(AFFINITY, "cpus"), timeout_s=30)
            assert decode_value(result["tests"][0]["replies"][1]["value"]) == [int(cpuset)]
    finally:
        await backend.close()


async def test_the_spread_counts_other_pools_containers(docker_engine: None) -> None:
    """Two services on one engine (two backends) do not stack their containers on one CPU:
    another pool's container is counted where this one chooses."""
    ours, theirs = DockerBackend(sandbox_settings()), DockerBackend(sandbox_settings())
    cpus = sorted(os.sched_getaffinity(0))
    try:
        before = engine_pins()
        held = await theirs.start()
        taken = int(pinned_cpu(held.container_id)[0])
        counted = engine_pins()
        assert counted[taken] == before[taken] + 1
        mine = await ours.start()
        assert int(pinned_cpu(mine.container_id)[0]) == least_used_cpu(cpus, counted)
        if len(cpus) >= 2 and len({before[cpu] for cpu in cpus}) == 1:
            assert int(pinned_cpu(mine.container_id)[0]) != taken
    finally:
        await ours.close()
        await theirs.close()


async def test_a_cpu_the_engine_refuses_leaves_the_containers_unpinned(
    docker_engine: None,
) -> None:
    """A derived CPU the engine does not have (the service sees other CPUs than the engine):
    the container starts unpinned, and so do the next ones."""
    backend = DockerBackend(sandbox_settings())
    backend._cpus = [4095]
    try:
        sandbox = await backend.start()
        assert pinned_cpu(sandbox.container_id) == ("", None)
        assert backend._cpus == []
        result = await sandbox.run(call_job(AFFINITY, "cpus"), timeout_s=30)
        assert decode_value(result["tests"][0]["replies"][1]["value"]) == sorted(
            os.sched_getaffinity(0)
        )
    finally:
        await backend.close()


async def test_pinning_off_leaves_containers_on_every_cpu(docker_engine: None) -> None:
    backend = DockerBackend(sandbox_settings(cpu_pinning="off"))
    try:
        sandbox = await backend.start()
        assert pinned_cpu(sandbox.container_id) == ("", None)
    finally:
        await backend.close()


def test_executor_refuses_to_run_outside_a_container() -> None:
    # It stops and kills every process it may signal: on a host that would be a disaster.
    with pytest.raises(SystemExit):
        executor.main({})


def settings(**overrides: Any) -> CodeSettings:
    """Every job here must really run: no verdict is reused from an earlier identical item."""
    defaults = {"pool_size": 1, "warm_timeout_s": 60, "cache_items": 0}
    return CodeSettings(**{**defaults, **overrides})


SLOW_ITEM = CodeItem.model_validate(
    {
        "id": "slow",
        "code": "import time\ndef f():\n    time.sleep(2)\n    return 1\n",
        "tests": [{"kind": "call", "fn": "f", "expected": 1}],
    }
)
QUICK_ITEM = CodeItem.model_validate(
    {
        "id": "quick",
        "code": "def f():\n    return 1\n",
        "tests": [{"kind": "call", "fn": "f", "expected": 1}],
    }
)


async def test_killed_container_is_replaced_and_its_item_retried(docker_engine: None) -> None:
    async with open_code_verifier(settings(retries=1)) as verifier:
        assert verifier.pool is not None
        (sandbox,) = list(verifier.pool._live)
        assert isinstance(sandbox, DockerSandbox)
        pending = asyncio.create_task(verifier.verify_batch([SLOW_ITEM]))
        await asyncio.sleep(0.8)
        await asyncio.to_thread(docker.from_env().api.kill, sandbox.container_id)
        (result,) = await pending
        assert result.status.value == "passed", result  # retried on the replacement
        (after,) = await verifier.verify_batch([QUICK_ITEM])
        assert after.reward == 1.0
        stats = verifier.pool.stats()
        assert stats["retired_total"] >= 1 and stats["started_total"] >= 2
        assert verifier.health().ok


async def test_killed_container_without_retry_gives_an_error_not_a_verdict(
    docker_engine: None,
) -> None:
    async with open_code_verifier(settings(retries=0)) as verifier:
        assert verifier.pool is not None
        (sandbox,) = list(verifier.pool._live)
        assert isinstance(sandbox, DockerSandbox)
        pending = asyncio.create_task(verifier.verify_batch([SLOW_ITEM]))
        await asyncio.sleep(0.8)
        await asyncio.to_thread(docker.from_env().api.kill, sandbox.container_id)
        (result,) = await pending
        assert result.status.value == "error" and result.reward is None


async def test_containers_are_recycled_after_max_jobs(docker_engine: None) -> None:
    async with open_code_verifier(settings(max_jobs_per_sandbox=2)) as verifier:
        assert verifier.pool is not None
        for _ in range(3):
            (result,) = await verifier.verify_batch([QUICK_ITEM])
            assert result.reward == 1.0
        assert verifier.pool.stats()["retired_total"] >= 1


async def test_pool_removes_its_containers_on_shutdown(docker_engine: None) -> None:
    async with open_code_verifier(settings()) as verifier:
        assert verifier.pool is not None
        pool_id = verifier.pool.backend.pool_id  # type: ignore[attr-defined]
    client = docker.from_env()
    left = client.containers.list(all=True, filters={"label": f"rlvr.pool.id={pool_id}"})
    assert left == []


async def test_unreachable_docker_gives_fast_errors_and_unhealthy(tmp_path: Any) -> None:
    sandbox = DockerSandboxSettings(docker_host=f"unix://{tmp_path}/no-docker.sock")
    async with open_code_verifier(settings(sandbox=sandbox, warm_timeout_s=10)) as verifier:
        health = verifier.health()
        assert not health.ok and "sandbox unavailable" in health.detail
        started = asyncio.get_running_loop().time()
        (result,) = await verifier.verify_batch([QUICK_ITEM])
        assert result.status.value == "error" and result.reward is None
        assert asyncio.get_running_loop().time() - started < 5
