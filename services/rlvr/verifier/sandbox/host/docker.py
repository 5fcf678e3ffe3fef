"""Docker backend: hardened warm containers whose PID 1 is the trusted executor.

Lifecycle calls (create, start, remove, list) go through the docker SDK in a thread; the job
stream is Docker's attach endpoint (the container's stdin/stdout), read with asyncio directly
from the engine's unix socket, so a running job costs no Docker API call at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
import threading
import uuid
from pathlib import Path
from typing import Any, cast

import docker
from docker.errors import APIError, DockerException, NotFound

from rlvr.verifier.docker_engine import (
    POOL_ID_LABEL,
    POOL_LABEL,
    STDOUT,
    AttachRefused,
    UnsupportedDockerHost,
    create_unmasked,
    locked_down,
    open_attach,
    orphaned,
    pool_labels,
    read_chunk,
    socket_path,
)
from rlvr.verifier.sandbox.host.backend import SandboxLost, SandboxUnavailable
from rlvr.verifier.sandbox.host.channel import (
    ChannelPlace,
    ChannelStream,
    channel_mount,
    is_mount_refused,
    open_channel,
    remove_directory,
    remove_orphaned_directories,
)
from rlvr.verifier.sandbox.host.cpu_spread import (
    PINNED_CPU_LABEL,
    allowed_cpus,
    least_used_cpu,
    pinned_counts,
)
from rlvr.verifier.sandbox.host.engine_seccomp import engine_security_opt
from rlvr.verifier.sandbox.host.settings import DockerSandboxSettings
from rlvr.verifier.sandbox.host.shipment import BOOTSTRAP, MAIN_MODULE, bootstrap_payload
from rlvr.verifier.sandbox.wire.frames import encode_frame, take_frame
from rlvr.verifier.sandbox.wire.protocol import (
    CHANNEL_PATH,
    ExecutorConfig,
    ExecutorReady,
    Job,
    JobResult,
)
from rlvr.verifier.sandbox.wire.session_protocol import SessionExecutorConfig, SessionKeys

log = logging.getLogger(__name__)


def hardened_container_args(
    settings: DockerSandboxSettings, labels: dict[str, str], uid: int, cpu: int | None = None
) -> dict[str, Any]:
    """The container's isolation, in one place (docs: Code verifier, "Containers"); `cpu`: the
    one CPU it is pinned to (`cpu_spread.py`), else `cpuset_cpus` where set."""
    if cpu is not None:
        pinned = {"cpuset_cpus": str(cpu)}
        labels = {**labels, PINNED_CPU_LABEL: str(cpu)}
    else:
        pinned = {"cpuset_cpus": settings.cpuset_cpus} if settings.cpuset_cpus else {}
    args = locked_down(
        uid=uid,
        labels=labels,
        tmpfs_options=f"rw,exec,nosuid,nodev,size={settings.tmpfs_mb}m,mode=1777",
        memory_mb=settings.memory_mb,
        pids_limit=settings.pids_limit,
        cpus=settings.cpus,
    )
    if settings.job_namespaces != "off":  # the zygote unshares, enters, mounts (engine_seccomp.py)
        args["security_opt"] = [*args["security_opt"], engine_security_opt()]
    return {
        **pinned,
        **args,
        "image": settings.image,
        "command": ["python3", "-I", "-S", "-c", BOOTSTRAP],
        "hostname": "sandbox",
        "working_dir": "/tmp",
        "auto_remove": True,
    }


class _AttachStream:
    """Docker's multiplexed attach stream, turned into executor frames."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.buffer = bytearray()
        self.stderr_tail = bytearray()

    @classmethod
    async def open(cls, path: str, container_id: str) -> _AttachStream:
        try:
            reader, writer = await open_attach(path, container_id)
        except AttachRefused as exc:
            raise SandboxUnavailable(str(exc)) from exc
        return cls(reader, writer)

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def read_frame(self) -> dict[str, Any]:
        """The next executor frame; raises IncompleteReadError/ValueError (FrameError) if the
        stream ends or breaks."""
        while True:
            frame = take_frame(self.buffer)
            if frame is not None:
                return frame
            kind, payload = await read_chunk(self.reader)
            if kind == STDOUT:
                self.buffer += payload
            else:  # the executor's own stderr (never a candidate's): keep a tail for logs
                self.stderr_tail = (self.stderr_tail + payload)[-4000:]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()


# How a host talks to one container's PID 1: its attach stream, or the channel's socket.
FrameStream = _AttachStream | ChannelStream


class DockerSandbox:
    """One warm container; runs one job at a time over its attach stream or channel.

    A reader task pumps the executor's frames as they come, so a container that dies while
    idle (`docker kill`, an engine restart) is noticed at once, not by the next item.
    """

    def __init__(
        self,
        container_id: str,
        name: str,
        stream: FrameStream,
        has_launcher: bool = False,
        has_job_namespaces: bool = False,
    ) -> None:
        self.container_id = container_id
        self.name = name
        self.stream = stream
        self.has_launcher = has_launcher  # the image's launcher starts native runs
        self.has_job_namespaces = has_job_namespaces  # every job in fresh namespaces
        self.jobs_done = 0
        self._alive = True
        self._lock = asyncio.Lock()
        self._frames: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._pump = asyncio.ensure_future(self._read_frames())

    async def _read_frames(self) -> None:
        try:
            while True:
                self._frames.put_nowait(await self.stream.read_frame())
        except (OSError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            self._alive = False
            self._frames.put_nowait(None)

    @property
    def is_alive(self) -> bool:
        return self._alive

    def mark_dead(self) -> None:
        self._alive = False
        self.stream.close()
        self._pump.cancel()

    async def run(self, job: Job, timeout_s: float) -> JobResult:
        async with self._lock:
            if not self.is_alive:
                raise SandboxLost(f"sandbox {self.name} is gone")
            try:
                await self.stream.send(encode_frame(job))
                result = await asyncio.wait_for(self._frames.get(), timeout_s)
            except TimeoutError as exc:
                self.mark_dead()
                message = f"sandbox {self.name} did not answer in {timeout_s:.0f}s"
                raise SandboxLost(message) from exc
            except OSError:
                result = None
                self.mark_dead()
            except asyncio.CancelledError:
                # The job still runs in there and its answer would reach the next job: retire.
                self.mark_dead()
                raise
            if result is None:
                self.mark_dead()
                tail = self.stream.stderr_tail.decode(errors="replace")[-500:]
                raise SandboxLost(f"sandbox {self.name} died mid-job {tail}".strip())
            self.jobs_done += 1
            if not result.get("healthy", False) or "fault" in result:
                self._alive = False  # answered, but must not take another job
            # An executor fault is an answer (see `Sandbox.run`): this container retires, and
            # the job is not retried elsewhere (the same job would fault there too).
            return cast(JobResult, result)


class DockerBackend:
    """Starts hardened sandbox containers; removes only containers it labelled as its own."""

    def __init__(
        self,
        settings: DockerSandboxSettings,
        main: str = MAIN_MODULE,
        session_keys: SessionKeys | None = None,
    ) -> None:
        """`main`: the program PID 1 runs; a session container's (`session_keys` given) is
        another, told its own keys besides."""
        self.settings = settings
        try:
            self.socket = socket_path(settings.docker_host)
        except UnsupportedDockerHost as exc:
            raise SandboxUnavailable(str(exc)) from exc
        self.pool_id = uuid.uuid4().hex[:12]
        self._client: docker.DockerClient | None = None
        # the CPUs containers are spread over, one each (empty: not pinned); creates hold the
        # lock from counting the pinned containers to creating, so this pool's do not collide
        self._cpus = allowed_cpus(settings.cpuset_cpus) if settings.cpu_pinning == "spread" else []
        self._spread_lock = threading.Lock()
        self._config: ExecutorConfig = {
            "output_limit_bytes": settings.output_limit_bytes,
            "is_launcher_enabled": settings.is_launcher_enabled,
            "is_job_init_enabled": settings.is_job_init_enabled,
            "job_namespaces": settings.job_namespaces,
            "tmpfs_mb": settings.tmpfs_mb,
            "kept_artefacts": settings.kept_artefacts,
            "kept_artefact_bytes": settings.kept_artefact_mb << 20,
        }
        payload: ExecutorConfig = self._config
        if session_keys is not None:
            session_config: SessionExecutorConfig = {**self._config, **session_keys}
            payload = session_config
        self._payload = bootstrap_payload(payload, main)
        # the job channel (`host/channel.py`): the code executor's only
        self._channel = ChannelPlace(settings.job_channel == "socket" and main == MAIN_MODULE)
        self._channel_payload = (
            bootstrap_payload({**payload, "channel": CHANNEL_PATH}, main)
            if self._channel.is_usable
            else self._payload
        )

    def _docker(self) -> docker.DockerClient:
        if self._client is None:
            self._client = docker.DockerClient(base_url=f"unix://{self.socket}", timeout=30)
        return self._client

    def labels(self) -> dict[str, str]:
        return pool_labels(self.settings.label, self.pool_id)

    def _create(self) -> tuple[str, str, Path | None]:
        """A created container: its id, name and channel directory (None: attach only)."""
        uid = 100_000 + secrets.randbelow(1_000_000_000)  # per container: RLIMIT_NPROC is per uid
        directory = self._channel.make(uid)
        try:
            return (*self._create_pinned(uid, directory), directory)
        except APIError as exc:
            remove_directory(directory)
            if directory is None:
                raise
            if is_mount_refused(exc):
                self._channel.give_up(f"the engine cannot mount this host's directories ({exc})")
            else:  # not the mount's fault, maybe: this one without it (it raises again if not)
                log.warning("sandbox container created without the job channel: %s", exc)
        except BaseException:
            remove_directory(directory)
            raise
        return (*self._create_pinned(uid, None), None)

    def _create_pinned(self, uid: int, directory: Path | None) -> tuple[str, str]:
        if not self._cpus:
            return self._create_on(None, uid, directory)
        with self._spread_lock:
            # created ones too (this pool's last create may not be started yet), not the
            # exited ones an engine is still removing
            listed = self._docker().api.containers(
                all=True, filters={"label": PINNED_CPU_LABEL, "status": ["created", "running"]}
            )
            cpu = least_used_cpu(self._cpus, pinned_counts(c.get("Labels") for c in listed))
            try:
                return self._create_on(cpu, uid, directory)
            except APIError as exc:
                # ("Requested CPUs are not available - requested 8, available: 0-1")
                if self.settings.cpuset_cpus or "cpu" not in str(exc).lower():
                    raise  # a CPU the user named is theirs to fix: the start fails and says so
                log.warning("sandbox containers unpinned: the engine refused CPU %d: %s", cpu, exc)
                self._cpus = []
        return self._create_on(None, uid, directory)

    def _create_on(self, cpu: int | None, uid: int, directory: Path | None) -> tuple[str, str]:
        name = f"rlvr-{self.settings.label}-{self.pool_id}-{uuid.uuid4().hex[:8]}"
        args = hardened_container_args(self.settings, self.labels(), uid, cpu)
        if directory is not None:
            args["mounts"] = [channel_mount(directory)]
        client = self._docker()
        if self.settings.job_namespaces == "off":
            container = client.containers.create(name=name, **args)
            return str(container.id), name
        # Docker masks parts of /proc (kcore, sysrq-trigger...) with mounts on top, and the
        # kernel then refuses a job's fresh /proc; the SDK has no word for `MaskedPaths`
        return create_unmasked(client, name, args), name

    def _start(self, container_id: str) -> None:
        self._docker().api.start(container_id)

    async def start(self) -> DockerSandbox:
        container_id, name, stream, ready = await self.launch()
        if self.settings.job_namespaces == "preferred" and not ready.get("job_namespaces"):
            log.warning(
                "code sandbox without job namespaces (jobs share its kernel state): %s",
                ready.get("job_namespaces_error"),
            )
        return DockerSandbox(
            container_id,
            name,
            stream,
            has_launcher=bool(ready.get("launcher")),
            has_job_namespaces=bool(ready.get("job_namespaces")),
        )

    async def launch(self) -> tuple[str, str, FrameStream, ExecutorReady]:
        """A started container whose PID 1 said it is ready: (id, name, stream, ready); the
        stream is the job channel where it came up (`host/channel.py`), else the attach one."""
        try:
            container_id, name, directory = await asyncio.to_thread(self._create)
        except (DockerException, OSError) as exc:
            raise SandboxUnavailable(f"cannot create a sandbox container: {exc}") from exc
        stream: FrameStream | None = None
        try:
            stream = attach = await _AttachStream.open(self.socket, container_id)
            await asyncio.to_thread(self._start, container_id)
            await attach.send(self._payload if directory is None else self._channel_payload)
            frame = await asyncio.wait_for(attach.read_frame(), self.settings.start_timeout_s)
            ready = cast(ExecutorReady, frame)
            if ready.get("ready") is not True:
                raise SandboxUnavailable(f"sandbox {name} did not become ready: {ready}")
            if directory is not None:
                channel = None
                if ready.get("channel"):
                    timeout_s = self.settings.start_timeout_s
                    try:
                        channel = await open_channel(directory, attach, timeout_s)
                    except Exception as exc:  # this container is retired; the next ones attach
                        self._channel.give_up(f"the job channel did not open: {exc!r}")
                        raise
                if channel is None:  # PID 1 then takes its jobs from the attach stream
                    self._channel.give_up(
                        "PID 1 could not listen in the mounted directory"
                        if not ready.get("channel")
                        else "the engine mounted a directory this service cannot see"
                    )
                else:
                    stream = channel
        except BaseException as exc:
            if stream is not None:
                stream.close()
            await asyncio.shield(self._remove_id(container_id))
            if isinstance(exc, SandboxUnavailable | asyncio.CancelledError):
                raise
            raise SandboxUnavailable(f"cannot start sandbox {name}: {exc!r}") from exc
        finally:
            remove_directory(directory)
        return container_id, name, stream, ready

    async def _remove_id(self, container_id: str) -> None:
        def remove() -> None:
            with contextlib.suppress(NotFound):
                self._docker().api.remove_container(container_id, force=True)

        try:
            await asyncio.to_thread(remove)
        except Exception as exc:  # removal is best effort; auto_remove also cleans up
            log.warning("could not remove sandbox container %s: %s", container_id[:12], exc)

    async def remove_id(self, container_id: str) -> None:
        """Kill and delete one container of ours by id (best effort, never raises)."""
        await self._remove_id(container_id)

    async def remove(self, sandbox: Any) -> None:
        if isinstance(sandbox, DockerSandbox):
            sandbox.mark_dead()
            await self._remove_id(sandbox.container_id)

    async def remove_all_own(self) -> None:
        """Remove every container of this pool (used at shutdown)."""

        def list_own() -> list[str]:
            found = self._docker().containers.list(
                all=True, filters={"label": f"{POOL_ID_LABEL}={self.pool_id}"}
            )
            return [str(c.id) for c in found]

        with contextlib.suppress(Exception):
            for container_id in await asyncio.to_thread(list_own):
                await self._remove_id(container_id)

    async def cleanup_stale(self) -> int:
        """Remove our-label containers whose owner process (same host) no longer exists, and the
        job channel directories such a process left (counted apart: logged, not returned)."""
        host = socket.gethostname()

        def stale() -> list[str]:
            found = self._docker().containers.list(
                all=True, filters={"label": f"{POOL_LABEL}={self.settings.label}"}
            )
            return orphaned(((str(c.id), c.labels) for c in found), host)

        try:
            ids = await asyncio.to_thread(stale)
        except Exception:
            ids = []
        for container_id in ids:
            await self._remove_id(container_id)
        if self._channel.is_usable:
            with contextlib.suppress(OSError):
                swept = await asyncio.to_thread(remove_orphaned_directories)
                if swept:
                    log.info("removed %d job channel directories of services gone", swept)
        return len(ids)

    async def close(self) -> None:
        await self.remove_all_own()
        if self._client is not None:
            with contextlib.suppress(Exception):
                self._client.close()
