"""A small multi-node Ray cluster on one machine, for the scale-out tests: each node is a raylet
started with `ray start` in its own process group (so killing a node kills its workers too), with
its own `DOCKER_HOST` so the replicas placed there use that node's Docker engine."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from rlvr.verifier.testing._service import free_port

RAY = str(Path(sys.executable).with_name("ray"))
LOOPBACK = "127.0.0.1"  # every Ray address stays on loopback


@dataclass
class RayNode:
    process: subprocess.Popen[bytes]
    docker_host: str

    def kill(self) -> None:
        """SIGKILL the node: its raylet, object store and every worker (replicas included)."""
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)


@dataclass
class RayCluster:
    address: str
    temp_dir: Path
    nodes: list[RayNode] = field(default_factory=list)
    env: Mapping[str, str] = field(default_factory=dict)  # for every node's processes

    def add_node(self, docker_host: str, resources: str, num_cpus: int = 1) -> RayNode:
        node = _start_node(
            ["--address", self.address], docker_host, resources, num_cpus, self.temp_dir, self.env
        )
        self.nodes.append(node)
        return node


def _start_node(
    role: list[str],
    docker_host: str,
    resources: str,
    num_cpus: int,
    temp_dir: Path,
    extra_env: Mapping[str, str],
) -> RayNode:
    env: Mapping[str, str] = {
        **os.environ,
        **extra_env,
        "DOCKER_HOST": docker_host,
        "RAY_USAGE_STATS_ENABLED": "0",
        "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
    }
    log = (temp_dir / f"node-{time.monotonic_ns()}.log").open("wb")
    process = subprocess.Popen(
        [
            RAY,
            "start",
            *role,
            "--node-ip-address",
            LOOPBACK,
            "--num-cpus",
            str(num_cpus),
            "--resources",
            resources,
            "--block",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    return RayNode(process, docker_host)


@contextmanager
def ray_cluster(
    head_docker_host: str,
    temp_dir: Path,
    resources: str,
    num_cpus: int = 1,
    env: Mapping[str, str] | None = None,
) -> Iterator[RayCluster]:
    """A head node (GCS on a free loopback port); add worker nodes with `add_node`; `env` is
    set for every node's processes (Ray's and Serve's `RAY_*` switches)."""
    port = free_port()
    head = _start_node(
        [
            "--head",
            "--port",
            str(port),
            "--include-dashboard",
            "false",
            "--temp-dir",
            str(temp_dir / "ray"),
        ],
        head_docker_host,
        resources,
        num_cpus,
        temp_dir,
        env or {},
    )
    cluster = RayCluster(f"{LOOPBACK}:{port}", temp_dir, [head], dict(env or {}))
    try:
        yield cluster
    finally:
        for node in reversed(cluster.nodes):
            node.kill()
