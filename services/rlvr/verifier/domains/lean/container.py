"""REPLs in locked-down containers: where code run by Lean elaboration can reach nothing of value.

Lean elaboration can run code (tactics, `#eval`-like commands, compiled instances); the pre-check
refuses the known ways in, but a list has holes. So every REPL runs in its own container of the
Lean image, with the same isolation as the code sandbox: no network (`network_mode=none`), a
read-only root with a small tmpfs `/tmp` as the only writable place, a random unprivileged uid, no
capabilities, `no-new-privileges`, no IPC namespace sharing, cgroup memory (no swap), pids and CPU
limits, an empty environment (no API key, no `VERIFIER_*`), and no host directory or Docker socket
mounted. `docker-init` is PID 1 (it reaps what the REPL spawns and lets a SIGKILL from outside
always land).

The REPL's JSON protocol runs over the container's stdin/stdout through Docker's attach endpoint,
read with asyncio straight from the engine's socket (the same wire as the code sandbox), so a
command costs no Docker API call. A container is warm per header and recycled exactly like a
process REPL (the pool does not know the difference); killing one is `docker rm -f`. Containers
carry the pool's labels; a later service on the same host removes those whose owner process died.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
import uuid
from pathlib import Path
from typing import Any

import docker
from docker.errors import DockerException, ImageNotFound, NotFound

from rlvr.verifier.docker_engine import (
    POOL_ID_LABEL,
    POOL_LABEL,
    STDERR,
    STDOUT,
    AttachRefused,
    UnsupportedDockerHost,
    locked_down,
    open_attach,
    orphaned,
    pool_labels,
    read_chunk,
    socket_path,
)
from rlvr.verifier.domains.lean.config import LeanSettings
from rlvr.verifier.domains.lean.repl import ReplBase, ReplCrashed

log = logging.getLogger(__name__)

_STREAM_LIMIT = 64 * 1024 * 1024


def container_args(
    settings: LeanSettings, labels: dict[str, str], uid: int, name: str
) -> dict[str, Any]:
    """The REPL container's isolation, in one place (README, Lean section)."""
    sandbox = settings.sandbox
    return {
        **locked_down(
            uid=uid,
            labels=labels,
            tmpfs_options=f"rw,nosuid,nodev,size={sandbox.tmpfs_mb}m,mode=1777",
            memory_mb=settings.memory_limit_mb or None,
            pids_limit=sandbox.pids_limit,
            cpus=sandbox.cpus,
        ),
        "image": sandbox.image,
        "command": settings.command(),
        "name": name,
        "init": True,
        "hostname": "lean",
        "working_dir": settings.project_dir or "/tmp",
    }


class LeanContainers:
    """Starts REPL containers on the Docker engine; removes only containers it labelled.

    Called as the pool's factory (`containers(settings)` -> a not-yet-started `ContainerRepl`).
    """

    def __init__(self, settings: LeanSettings) -> None:
        self.settings = settings
        try:
            self.socket = socket_path(settings.sandbox.docker_host)
        except UnsupportedDockerHost as exc:
            raise ReplCrashed(str(exc)) from exc
        self.pool_id = uuid.uuid4().hex[:12]
        self._client: docker.DockerClient | None = None
        preamble = settings.sandbox.stdin_preamble_path
        body = Path(preamble).read_bytes() if preamble else None
        self.preamble = f"{len(body):010d}".encode() + body if body is not None else b""

    def docker(self) -> docker.DockerClient:
        if self._client is None:
            self._client = docker.DockerClient(base_url=f"unix://{self.socket}", timeout=30)
        return self._client

    def labels(self) -> dict[str, str]:
        return pool_labels(self.settings.sandbox.label, self.pool_id)

    def __call__(self, settings: LeanSettings) -> ContainerRepl:
        return ContainerRepl(self)

    async def unavailable(self) -> str | None:
        """None when REPL containers can be started, else a sentence saying what is missing."""

        def probe() -> str | None:
            try:
                self.docker().ping()
            except Exception as exc:
                return f"Lean sandbox unavailable: Docker engine unreachable ({exc})"
            try:
                self.docker().images.get(self.settings.sandbox.image)
            except ImageNotFound:
                return (
                    f"no Lean toolchain: image {self.settings.sandbox.image} not found (build it: "
                    "docker compose --profile lean build lean-image)"
                )
            except DockerException as exc:
                return f"Lean sandbox unavailable: {exc}"
            return None

        return await asyncio.to_thread(probe)

    def create(self) -> tuple[str, str]:
        uid = 100_000 + secrets.randbelow(1_000_000_000)  # per container: RLIMIT_NPROC is per uid
        name = f"rlvr-lean-{self.pool_id}-{uuid.uuid4().hex[:8]}"
        args = container_args(self.settings, self.labels(), uid, name)
        container = self.docker().containers.create(**args)
        return str(container.id), name

    def start_id(self, container_id: str) -> None:
        self.docker().api.start(container_id)

    def exit_state(self, container_id: str) -> str:
        """`code N` once the container has stopped (the stream can end a moment earlier)."""
        with contextlib.suppress(Exception):
            self.docker().api.wait(container_id, timeout=2)
        with contextlib.suppress(Exception):
            state = self.docker().api.inspect_container(container_id)["State"]
            detail = f"code {state.get('ExitCode')}"
            if state.get("OOMKilled"):
                detail += ", killed at the memory limit"
            return detail
        return "code unknown"

    def remove_id(self, container_id: str) -> None:
        try:
            with contextlib.suppress(NotFound):
                self.docker().api.remove_container(container_id, force=True)
        except Exception as exc:  # best effort; cleanup_stale retries after a restart
            log.warning("could not remove Lean container %s: %s", container_id[:12], exc)

    def _own(self, label: str) -> list[Any]:
        return list(self.docker().containers.list(all=True, filters={"label": label}))

    async def cleanup_stale(self) -> int:
        """Remove our-label containers whose owner process (same host) no longer exists."""
        host = socket.gethostname()

        def stale() -> list[str]:
            found = self._own(f"{POOL_LABEL}={self.settings.sandbox.label}")
            return orphaned(((str(c.id), c.labels) for c in found), host)

        try:
            ids = await asyncio.to_thread(stale)
        except Exception:
            return 0
        for container_id in ids:
            await asyncio.to_thread(self.remove_id, container_id)
        return len(ids)

    async def close(self) -> None:
        """Remove every container of this pool, then drop the client."""
        with contextlib.suppress(Exception):
            found = await asyncio.to_thread(self._own, f"{POOL_ID_LABEL}={self.pool_id}")
            for container in found:
                await asyncio.to_thread(self.remove_id, str(container.id))
        if self._client is not None:
            with contextlib.suppress(Exception):
                self._client.close()


class ContainerRepl(ReplBase):
    """One REPL in its own container, spoken to over Docker's attach stream."""

    def __init__(self, backend: LeanContainers) -> None:
        super().__init__()
        self.backend = backend
        self.container_id: str | None = None
        self.name = ""
        self._writer: asyncio.StreamWriter | None = None
        self._stdout = asyncio.StreamReader(limit=_STREAM_LIMIT)
        self._pump: asyncio.Task[None] | None = None
        self._ended = False
        self._killed = False

    @property
    def is_started(self) -> bool:
        return self.container_id is not None

    @property
    def is_alive(self) -> bool:
        return self.container_id is not None and not self._ended and not self._killed

    async def start(self) -> None:
        settings = self.backend.settings.sandbox
        try:
            self.container_id, self.name = await asyncio.to_thread(self.backend.create)
        except (DockerException, OSError) as exc:
            raise ReplCrashed(f"cannot create a Lean container: {exc}") from exc
        try:
            await asyncio.wait_for(self._attach_and_start(), settings.start_timeout_s)
        except BaseException as exc:
            await self.kill()
            if isinstance(exc, asyncio.CancelledError):
                raise
            raise ReplCrashed(f"cannot start Lean container {self.name}: {exc!r}") from exc

    async def _attach_and_start(self) -> None:
        assert self.container_id is not None
        try:  # attached before the start, so not a byte of the REPL's output is lost
            reader, writer = await open_attach(self.backend.socket, self.container_id)
        except AttachRefused as exc:
            raise ReplCrashed(str(exc)) from exc
        self._writer = writer
        self._pump = asyncio.ensure_future(self._demultiplex(reader))
        await asyncio.to_thread(self.backend.start_id, self.container_id)
        if self.backend.preamble:
            await self._send(self.backend.preamble)

    async def _demultiplex(self, reader: asyncio.StreamReader) -> None:
        """Docker's attach stream (8-byte headers) into stdout bytes and a stderr tail."""
        try:
            while True:
                kind, payload = await read_chunk(reader)
                if kind == STDOUT:
                    self._stdout.feed_data(payload)
                elif kind == STDERR:
                    self._add_stderr(payload.decode("utf-8", "replace"))
        except (OSError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            self._ended = True
            self._stdout.feed_eof()

    async def _send(self, data: bytes) -> None:
        if self._writer is None or self._ended:
            raise ConnectionError("the REPL container's stream is closed")
        self._writer.write(data)
        await self._writer.drain()

    async def _readline(self) -> bytes:
        return await self._stdout.readline()

    async def _exit_detail(self) -> str:
        if self._pump is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self._pump), timeout=1.0)
        state = "code unknown"
        if self.container_id is not None and not self._killed:
            state = await asyncio.to_thread(self.backend.exit_state, self.container_id)
        detail = f"REPL exited ({state})"
        if self.stderr_tail():
            detail += f"; stderr: {self.stderr_tail()}"
        return detail

    async def kill(self) -> None:
        """`docker rm -f` the container (SIGKILL to everything in it) and close the stream."""
        if self._killed:
            return
        self._killed = True
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
        if self.container_id is not None:
            await asyncio.shield(asyncio.to_thread(self.backend.remove_id, self.container_id))
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._pump
