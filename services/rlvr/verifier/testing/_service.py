"""Start the real service (`rlvr-verifier serve`, uvicorn) in a subprocess on a loopback port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

# A code item a test sends again in a later request must really run again (hostile probes,
# "the next job is unaffected", fault tests that expect `error` while the sandbox is down): the
# service's cache of verdicts across requests is off here unless the caller's `env` turns it on.
# Identical items within one request still run once (the service's default).
NO_REUSE = {"VERIFIER_CODE__CACHE_ITEMS": "0"}
REUSE = {"VERIFIER_CODE__IS_DEDUP_ENABLED": "true", "VERIFIER_CODE__CACHE_ITEMS": "4096"}


def free_port() -> int:
    """A loopback port nothing listens on now (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class LiveService:
    url: str
    process: subprocess.Popen[bytes]
    log_path: Path


@contextmanager
def running_service(
    env: Mapping[str, str] | None = None,
    startup_timeout_s: float = 120.0,
    cwd: Path | None = None,
) -> Iterator[str]:
    """Yield the base URL of a live `rlvr-verifier serve` process (uvicorn, `create_app_from_env`).

    `env` holds `VERIFIER_*` overrides. The process is terminated (then killed) on exit.
    """
    with live_service(env, startup_timeout_s, cwd=cwd) as service:
        yield service.url


@contextmanager
def live_service(
    env: Mapping[str, str] | None = None,
    startup_timeout_s: float = 120.0,
    port: int | None = None,
    cwd: Path | None = None,
) -> Iterator[LiveService]:
    """Like `running_service`, also exposing the process (for RSS, signals) and its log.

    `port`: listen there (to restart a service where clients expect it); default a free one.
    `cwd`: the service's working directory (where it would read a `.env`); default this one's.
    The log goes to `$RLVR_TEST_LOG_DIR` (default /tmp) as `rlvr-verifier-<port>.log`.
    """
    port = port or free_port()
    full_env = {
        **NO_REUSE,
        "VERIFIER_LOG_LEVEL": "warning",
        **os.environ,
        "PYTHONUNBUFFERED": "1",
        **(env or {}),
    }
    log_path = Path(os.environ.get("RLVR_TEST_LOG_DIR", "/tmp")) / f"rlvr-verifier-{port}.log"
    log_file = log_path.open("w")
    process = subprocess.Popen(
        # The deployment's own entry point, so the connection limits (`VERIFIER_SERVER__*`,
        # `rlvr.verifier.connections`) are the ones under test.
        [
            sys.executable,
            "-m",
            "rlvr.verifier.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        cwd=cwd,
        env=full_env,
        stdout=log_file,
        stderr=subprocess.STDOUT,
    )
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + startup_timeout_s
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"service exited early: {log_path.read_text()[-3000:]}")
            try:
                if httpx.get(f"{base_url}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"service not ready in {startup_timeout_s}s: {log_path}")
            time.sleep(0.2)
        yield LiveService(base_url, process, log_path)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log_file.close()
