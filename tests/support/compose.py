"""Drive one Docker Compose project from tests: up, run, down, and what it left behind.

Every call passes `-p <project>`, so a test touches only its own stack; the sandboxes the
verifier starts carry `rlvr.pool=<project>` (VERIFIER_CODE__SANDBOX__LABEL) for the same reason.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
POOL_LABEL = "rlvr.pool"


def compose_command() -> list[str] | None:
    """Compose v2 (`docker compose`) when the plugin exists, else v1 (`docker-compose`)."""
    override = os.environ.get("RLVR_COMPOSE")
    if override:
        return override.split()
    if shutil.which("docker"):
        probe = subprocess.run(["docker", "compose", "version"], capture_output=True, check=False)
        if probe.returncode == 0:
            return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return None


def docker_lines(*args: str) -> list[str]:
    """Non-empty output lines of a `docker` command (which must succeed)."""
    out = subprocess.run(["docker", *args], capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if line.strip()]


@dataclass
class ComposeProject:
    """One compose project (unique name) with its environment and files."""

    name: str
    env: Mapping[str, str]
    port: int = 0
    files: Sequence[str] = ("docker-compose.yml",)
    compose: Sequence[str] = field(default_factory=lambda: compose_command() or ["docker-compose"])

    def command(self, *args: str, files: Sequence[str] | None = None) -> list[str]:
        chosen = files if files is not None else self.files
        return [*self.compose, "-p", self.name, *(a for f in chosen for a in ("-f", f)), *args]

    def run(
        self,
        *args: str,
        files: Sequence[str] | None = None,
        extra_env: Mapping[str, str] | None = None,
        timeout_s: float = 300,
        check: bool = True,
    ) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            self.command(*args, files=files),
            cwd=REPO_ROOT,
            env={**os.environ, **self.env, **(extra_env or {})},
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )
        if check and result.returncode != 0:
            raise AssertionError(
                f"{' '.join(result.args)} -> {result.returncode}\n"
                f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
            )
        return result

    def container_id(self, service: str) -> str:
        ids = docker_lines(
            "ps",
            "-q",
            "--filter",
            f"label=com.docker.compose.project={self.name}",
            "--filter",
            f"label=com.docker.compose.service={service}",
        )
        assert len(ids) == 1, f"expected one running {service} container, found {ids}"
        return ids[0]

    def wait_healthy(self, service: str, timeout_s: float = 180) -> str:
        """The container id once Docker's HEALTHCHECK says healthy."""
        deadline = time.monotonic() + timeout_s
        status = "unknown"
        while time.monotonic() < deadline:
            ids = docker_lines(
                "ps",
                "-q",
                "--filter",
                f"label=com.docker.compose.project={self.name}",
                "--filter",
                f"label=com.docker.compose.service={service}",
            )
            if ids:
                status = docker_lines("inspect", "-f", "{{.State.Health.Status}}", ids[0])[0]
                if status == "healthy":
                    return ids[0]
            time.sleep(1)
        logs = self.run("logs", "--tail", "50", service, check=False)
        raise AssertionError(f"{service} not healthy in {timeout_s}s ({status}):\n{logs.stdout}")

    def leftovers(self) -> dict[str, list[str]]:
        """Containers, sandboxes, networks and volumes of this project that still exist."""
        project = f"label=com.docker.compose.project={self.name}"
        return {
            "containers": docker_lines("ps", "-aq", "--filter", project),
            "sandboxes": docker_lines("ps", "-aq", "--filter", f"label={POOL_LABEL}={self.name}"),
            "networks": docker_lines("network", "ls", "-q", "--filter", project),
            "volumes": docker_lines("volume", "ls", "-q", "--filter", project),
        }

    def force_clean(self) -> None:
        """Last resort after a failed test: remove this project's leftovers, nothing else."""
        self.run("--profile", "cpu", "down", "-v", "--remove-orphans", "-t", "30", check=False)
        left = self.leftovers()
        for container in left["containers"] + left["sandboxes"]:
            subprocess.run(["docker", "rm", "-f", container], capture_output=True, check=False)
        for network in left["networks"]:
            subprocess.run(["docker", "network", "rm", network], capture_output=True, check=False)
        for volume in left["volumes"]:
            subprocess.run(["docker", "volume", "rm", volume], capture_output=True, check=False)
