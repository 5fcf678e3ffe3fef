"""The verifier as a Ray Serve application on a simulated two-node cluster: two raylets on this
machine, each with its own Docker engine (the second started by
`scripts/docker/start_second_engine.sh`). Checks verdicts through the Serve proxy, that each
replica's sandboxes live on its own node's engine, and that killing a node mid-load loses no
item and gives no `error` verdict, and that the replica comes back with the node."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import docker
import httpx
import pytest

from rlvr.client import VerifierClient
from rlvr.schemas.sessions import CellStatus
from rlvr.verifier.scaleout.session_router import session_tag
from rlvr.verifier.testing.ray_cluster import RayCluster, ray_cluster
from tests.support.server import REPO_ROOT, free_port

pytestmark = [pytest.mark.docker, pytest.mark.slow]

FIRST_ENGINE = "unix:///var/run/docker.sock"
SECOND_ENGINE = "unix:///run/rlvr-docker2.sock"
NODE_RESOURCES = '{"rlvr_docker": 1}'
DEPLOY = [sys.executable, "-m", "rlvr.verifier.cli", "serve", "--ray"]
ADD = "def add(a, b):\n    return a + b\n"
ADD_TESTS = [
    {"kind": "call", "fn": "add", "args": [2, 3], "expected": 5},
    {"kind": "assert", "code": "assert add(-4, 4) == 0"},
]


@dataclass
class Deployed:
    cluster: RayCluster
    url: str


def _owners(docker_host: str) -> set[str]:
    """Owner labels (host:pid of a replica) of the code sandboxes running on one engine."""
    client = docker.DockerClient(base_url=docker_host, timeout=10)
    try:
        containers = client.containers.list(filters={"label": "rlvr.pool=code"})
        return {c.labels.get("rlvr.pool.owner", "") for c in containers}
    finally:
        client.close()


def _wait_for(condition, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(1)


def _healthy(url: str) -> bool:
    try:
        return httpx.get(url + "/health", timeout=3).status_code == 200
    except httpx.HTTPError:
        return False


@pytest.fixture(scope="module")
def deployed(docker_engine: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployed]:
    subprocess.run(["bash", "scripts/docker/start_second_engine.sh"], cwd=REPO_ROOT, check=True)
    before = {FIRST_ENGINE: _owners(FIRST_ENGINE), SECOND_ENGINE: _owners(SECOND_ENGINE)}
    temp_dir = tmp_path_factory.mktemp("ray")
    # Serve's proxy prefers a replica on its own node; all nodes here share one machine, so
    # without this every request would reach the head's replica, and no call would ever need
    # routing to the other one (the session test below shows it does)
    spread = {"RAY_SERVE_PROXY_PREFER_LOCAL_NODE_ROUTING": "0"}
    with ray_cluster(FIRST_ENGINE, temp_dir, NODE_RESOURCES, env=spread) as cluster:
        cluster.add_node(SECOND_ENGINE, NODE_RESOURCES)
        port = free_port()
        env = {
            **os.environ,
            "VERIFIER_RAY__NUM_REPLICAS": "2",
            "VERIFIER_RAY__MAX_REPLICAS_PER_NODE": "1",
            "VERIFIER_RAY__NUM_CPUS_PER_REPLICA": "1",
            "VERIFIER_RAY__HTTP_PORT": str(port),
            "VERIFIER_RAY__HEALTH_CHECK_PERIOD_S": "2",
            "VERIFIER_MATH__WORKERS": "1",
            "VERIFIER_CODE__POOL_SIZE": "1",
            # the 200 identical sleeping items must all run (no dedup, no verdict cache)
            "VERIFIER_CODE__IS_DEDUP_ENABLED": "false",
            "VERIFIER_CODE__CACHE_ITEMS": "0",
        }
        log = (temp_dir / "deploy.log").open("wb")
        deployer = subprocess.Popen(
            [*DEPLOY, "--ray-address", cluster.address],
            cwd=REPO_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_for(
                lambda: (
                    _healthy(url)
                    and _owners(FIRST_ENGINE) - before[FIRST_ENGINE]
                    and _owners(SECOND_ENGINE) - before[SECOND_ENGINE]
                ),
                240,
                "both replicas serving with a sandbox on their own engine "
                f"(log: {temp_dir / 'deploy.log'})",
            )
            yield Deployed(cluster, url)
        finally:
            deployer.terminate()
            try:
                deployer.wait(timeout=30)
            except subprocess.TimeoutExpired:
                deployer.kill()
            log.close()


def _mixed_batch(n: int, code_prelude: str = "") -> list[dict]:
    """Every third item is code (passing on even indices), the rest math; `code_prelude` runs
    before each code item, so a test can set how long the batch takes."""
    items: list[dict] = []
    for i in range(n):
        if i % 3 == 0:
            body = code_prelude + (ADD if i % 2 == 0 else ADD.replace("a + b", "a - b"))
            items.append({"domain": "code", "code": body, "language": "python", "tests": ADD_TESTS})
        else:
            items.append(
                {"domain": "math", "response": f"\\boxed{{{i}}}", "answer": str(i + i % 2)}
            )
    return items


def _check_mixed(results: list, n: int) -> None:
    assert len(results) == n
    for i, result in enumerate(results):
        assert result.status.value == ("passed" if i % 2 == 0 else "failed"), (i, result)


def test_a_mixed_batch_gets_right_verdicts_through_the_serve_proxy(deployed: Deployed) -> None:
    with VerifierClient(deployed.url, chunk_size=16) as client:
        results = client.verify(_mixed_batch(96))
    _check_mixed(results, 96)


def test_each_replica_keeps_its_sandboxes_on_its_own_nodes_engine(deployed: Deployed) -> None:
    first, second = _owners(FIRST_ENGINE), _owners(SECOND_ENGINE)
    assert first and second
    assert not first & second, "a replica started sandboxes on another node's engine"


def test_a_sessions_calls_reach_the_replica_that_holds_it(deployed: Deployed) -> None:
    """Every cell of sessions opened through Serve's proxy, sent through the proxy with the
    `x-session-id` header the client adds, finds that session's own state, on both replicas.
    The same call without the header is routed like any other request, whichever replica holds
    the session: for a session on each replica, some of those calls reach the other one, which
    answers 404. The router does the work."""
    with VerifierClient(deployed.url, timeout=60) as client:
        sessions: list = []
        try:
            # opened twelve at once, so Serve's shorter-queue choice spreads them over both
            # replicas; a round can land on one (the other may still be starting: Serve lists
            # a replica once its start-up is over, seconds after its sandboxes exist)
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                with ThreadPoolExecutor(12) as opener:
                    opened = opener.map(lambda _: client.session(timeout_s=20), range(12))
                    sessions += list(opened)
                if len({session_tag(session.id) for session in sessions}) >= 2:
                    break
                time.sleep(2)
            holders = {session_tag(session.id): session for session in sessions}
            assert len(holders) >= 2, f"{len(sessions)} sessions all landed on one replica"
            for i, session in enumerate(sessions):
                assert session.run(f"x = {i}").status == CellStatus.ok
            for _ in range(3):
                for i, session in enumerate(sessions):
                    cell = session.run("x")
                    assert (cell.status, cell.value) == (CellStatus.ok, str(i)), cell
            # without the header: a session on each replica, 16 calls each; whichever replica
            # the proxy favours, the calls for the session on the other one answer 404
            unrouted = [
                httpx.post(
                    f"{deployed.url}/sessions/{held.id}/run", json={"code": "x"}, timeout=60
                ).status_code
                for held in holders.values()
                for _ in range(16)
            ]
            assert 404 in unrouted and set(unrouted) <= {200, 404}, unrouted
        finally:
            for session in sessions:
                session.close()


def test_killing_a_node_mid_load_loses_no_item_and_the_replica_comes_back(
    deployed: Deployed,
) -> None:
    n = 600
    # Each code item sleeps, so the 200 code items keep both replicas busy for at least
    # 200 x 0.15 s / 2 = 15 s however fast the machine: the kill lands mid-batch.
    slow = "import time\ntime.sleep(0.15)\n"
    outcome: dict[str, object] = {}
    with VerifierClient(deployed.url, chunk_size=8, max_concurrency=4) as client:

        def load() -> None:
            try:
                outcome["results"] = client.verify(_mixed_batch(n, slow))
            except BaseException as exc:  # reported below
                outcome["error"] = exc

        worker = threading.Thread(target=load)
        worker.start()
        time.sleep(3)  # the batch is under way on both replicas
        assert worker.is_alive(), f"the batch ended before the node could be killed: {outcome}"
        doomed = deployed.cluster.nodes[1]
        owners_before = _owners(SECOND_ENGINE)
        doomed.kill()
        worker.join(timeout=600)
    assert "error" not in outcome, outcome.get("error")
    _check_mixed(outcome["results"], n)  # type: ignore[arg-type]
    deployed.cluster.nodes.remove(doomed)
    deployed.cluster.add_node(SECOND_ENGINE, NODE_RESOURCES)
    _wait_for(
        lambda: _owners(SECOND_ENGINE) - owners_before,
        240,
        "a new replica with its sandboxes on the returning node's engine",
    )
    with VerifierClient(deployed.url, chunk_size=16) as client:
        _check_mixed(client.verify(_mixed_batch(48)), 48)
