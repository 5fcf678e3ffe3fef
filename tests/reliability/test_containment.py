"""Containment: hostile programs through `/code`, and the host sees nothing of them.

Each program gets reward 0 and afterwards: no process of it is alive anywhere on the host (the
container's processes are visible in the host's process table), no file it wrote exists on the
host, a listener on the host's loopback saw no connection, the sandbox containers had no
network, and the service with its pool still judges the next batch right.
"""

from __future__ import annotations

import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import docker
import httpx
import psutil
import pytest

from tests.support.server import LiveService, live_service

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("docker_engine")]

POOL_LABEL = "reliability-containment"
MARK = f"rlvrmark{uuid.uuid4().hex[:8]}"
ADD_TESTS = [{"kind": "call", "fn": "add", "args": [2, 3], "expected": 5}]


class LoopbackListener(threading.Thread):
    """A TCP listener on the host's 127.0.0.1 that counts connections."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.sock.settimeout(0.2)
        self.port = int(self.sock.getsockname()[1])
        self.connections = 0
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            self.connections += 1
            conn.close()

    def stop(self) -> None:
        self.stopping.set()
        self.join()
        self.sock.close()


def hostile_programs(port: int) -> dict[str, str]:
    """Programs that try to leave a trace on the host; each also answers wrongly (add + 1)."""
    return {
        "daemon": (
            "import os, subprocess\n"
            "def add(a, b):\n"
            "    if os.fork() == 0:\n"
            "        os.setsid()\n"
            "        if os.fork() == 0:\n"
            f"            os.execvp('sleep', ['sleep', '4242', '{MARK}'])\n"
            "        os._exit(0)\n"
            f"    cmd = 'nohup sleep 4243 {MARK} &'\n"
            "    subprocess.Popen(['sh', '-c', cmd], start_new_session=True)\n"
            "    return a + b + 1\n"
        ),
        "files": (
            "import os\n"
            "def add(a, b):\n"
            f"    for d in ['/tmp', '/root', '/', '/var/tmp', '/dev/shm', '/work', os.getcwd()]:\n"
            "        try:\n"
            f"            open(os.path.join(d, '{MARK}'), 'w').write('x')\n"
            "        except OSError:\n"
            "            pass\n"
            "    return a + b + 1\n"
        ),
        "network": (
            "import socket\n"
            "def add(a, b):\n"
            "    for host in ['127.0.0.1', 'localhost']:\n"
            "        try:\n"
            f"            socket.create_connection((host, {port}), timeout=1).close()\n"
            "        except OSError:\n"
            "            pass\n"
            "    try:\n"
            "        socket.getaddrinfo('pypi.org', 443)\n"
            "    except OSError:\n"
            "        pass\n"
            "    return a + b + 1\n"
        ),
        "kill_everything": (
            "import os, signal\n"
            "def add(a, b):\n"
            "    for sig in (signal.SIGKILL, signal.SIGTERM):\n"
            "        try:\n"
            "            os.kill(-1, sig)\n"
            "        except OSError:\n"
            "            pass\n"
            "    for pid in (1, os.getppid()):\n"
            "        try:\n"
            "            os.kill(pid, signal.SIGKILL)\n"
            "        except OSError:\n"
            "            pass\n"
            "    return a + b + 1\n"
        ),
    }


def marked_processes() -> list[str]:
    found = []
    for proc in psutil.process_iter(["pid", "cmdline"]):
        cmdline = " ".join(proc.info.get("cmdline") or [])
        if MARK in cmdline:
            found.append(f"{proc.info['pid']}: {cmdline}")
    return found


@pytest.fixture(scope="module")
def service() -> Iterator[LiveService]:
    env = {"VERIFIER_CODE__SANDBOX__LABEL": POOL_LABEL, "VERIFIER_CODE__POOL_SIZE": "2"}
    with live_service(env) as live:
        yield live


def test_hostile_programs_leave_no_trace_on_the_host(service: LiveService) -> None:
    listener = LoopbackListener()
    listener.start()
    try:
        programs = hostile_programs(listener.port)
        items: list[dict[str, Any]] = [
            {"id": name, "code": code, "language": "python", "tests": ADD_TESTS, "timeout_s": 3}
            for name, code in programs.items()
        ]
        reply = httpx.post(f"{service.url}/code", json={"items": items}, timeout=120)
        assert reply.status_code == 200
        for result in reply.json()["results"]:
            assert result["reward"] == 0.0, result
        time.sleep(2)  # anything that survived would still be running now
    finally:
        listener.stop()

    assert marked_processes() == []
    for place in [Path("/tmp"), Path("/root"), Path("/"), Path("/var/tmp"), Path("/dev/shm")]:
        assert not (place / MARK).exists(), f"{place / MARK} appeared on the host"
    assert listener.connections == 0

    client = docker.from_env()
    try:
        containers = client.containers.list(filters={"label": f"rlvr.pool={POOL_LABEL}"})
        assert containers
        for container in containers:
            assert container.attrs["HostConfig"]["NetworkMode"] == "none"
    finally:
        client.close()

    health = httpx.get(f"{service.url}/health").json()
    assert health["domains"]["code"]["ok"] is True
    good = [{"id": "ok", "code": "def add(a, b):\n    return a + b\n", "tests": ADD_TESTS}]
    after = httpx.post(f"{service.url}/code", json={"items": good}, timeout=60).json()
    assert after["results"][0]["status"] == "passed"
