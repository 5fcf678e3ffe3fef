"""What every pool of locked-down containers shares: the engine's socket, the attach stream, the
labels that say whose a container is, the sweep of containers whose owner died, the hardening.

The code sandbox (`sandbox/host/docker.py`) and the Lean REPL containers
(`domains/lean/container.py`) start containers on the same engine; the labels keep each pool to
its own (`rlvr.pool` names the kind, `rlvr.pool.owner` the process, `rlvr.pool.id` one pool), so
neither ever removes the other's.
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import docker

POOL_LABEL = "rlvr.pool"
OWNER_LABEL = "rlvr.pool.owner"
POOL_ID_LABEL = "rlvr.pool.id"


STDOUT, STDERR = 1, 2  # stream types in the attach stream's 8-byte frame headers


class AttachRefused(ConnectionError):
    """The engine did not upgrade the attach request (no such container, engine trouble)."""


class UnsupportedDockerHost(ValueError):
    """Only unix sockets are supported (the job stream talks to the socket directly)."""


def socket_path(docker_host: str | None) -> str:
    """The engine's unix socket: the setting, else `$DOCKER_HOST`, else the default one."""
    url = docker_host or os.environ.get("DOCKER_HOST") or "unix:///var/run/docker.sock"
    if not url.startswith("unix://"):
        raise UnsupportedDockerHost(f"only unix:// Docker hosts are supported, not {url!r}")
    return url[len("unix://") :]


def owner_id() -> str:
    """This process, as written in `rlvr.pool.owner`."""
    return f"{socket.gethostname()}:{os.getpid()}"


def pool_labels(kind: str, pool_id: str) -> dict[str, str]:
    return {POOL_LABEL: kind, OWNER_LABEL: owner_id(), POOL_ID_LABEL: pool_id}


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def orphaned(containers: Iterable[tuple[str, Mapping[str, str]]], host: str) -> list[str]:
    """Ids of the containers (id, labels) whose owner was a process on `host` that is gone."""
    ids = []
    for container_id, labels in containers:
        owner_host, _, pid = labels.get(OWNER_LABEL, "").rpartition(":")
        if owner_host == host and pid.isdigit() and not pid_alive(int(pid)):
            ids.append(container_id)
    return ids


def locked_down(
    *,
    uid: int,
    labels: dict[str, str],
    tmpfs_options: str,
    memory_mb: int | None,
    pids_limit: int,
    cpus: float,
) -> dict[str, Any]:
    """The isolation both pools apply (the caller adds image, command, hostname, workdir).

    No network, no IPC sharing, read-only root with one tmpfs at `/tmp`, a random unprivileged
    uid, no capabilities, `no-new-privileges`, memory without swap, pids and CPU limits, an
    empty environment, no mounts; stdin kept open for the attach stream.
    """
    args: dict[str, Any] = {
        "user": f"{uid}:{uid}",
        "stdin_open": True,
        "tty": False,
        "detach": True,
        "network_mode": "none",
        "ipc_mode": "none",
        "read_only": True,
        "tmpfs": {"/tmp": tmpfs_options},
        "cap_drop": ["ALL"],
        "security_opt": ["no-new-privileges"],
        "pids_limit": pids_limit,
        "nano_cpus": int(cpus * 1e9),
        "environment": {},
        "labels": labels,
    }
    if memory_mb:
        args["mem_limit"] = f"{memory_mb}m"
        args["memswap_limit"] = f"{memory_mb}m"
    return args


# What `containers.create` takes that belongs to the container itself, not its host config.
_CONTAINER_KEYS = {
    "image", "command", "user", "stdin_open", "tty", "detach", "environment", "labels",
    "hostname", "working_dir", "name",
}  # fmt: skip


def create_unmasked(client: docker.DockerClient, name: str, args: dict[str, Any]) -> str:
    """`containers.create(name=name, **args)` with `/proc` unmasked (HostConfig `MaskedPaths`
    and `ReadonlyPaths` empty): the kernel mounts a fresh proc in a user namespace only where
    no mount hides part of the container's. Nothing is readable through it that the
    container's unprivileged uid could not read anyway (`kcore`, `keys`, `sysrq-trigger` are
    root's). Returns the container's id."""
    own = {key: value for key, value in args.items() if key in _CONTAINER_KEYS}
    host = {key: value for key, value in args.items() if key not in _CONTAINER_KEYS}
    own.pop("detach", None)
    host_config = client.api.create_host_config(**host)
    host_config["MaskedPaths"] = []
    host_config["ReadonlyPaths"] = []
    created = client.api.create_container(name=name, host_config=host_config, **own)
    return str(created["Id"])


async def open_attach(
    path: str, container_id: str
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Docker's attach endpoint (stdin, stdout, stderr) on the engine's socket, upgraded to a raw
    stream: a running container then costs no Docker API call per message. Attach before
    starting the container, so not a byte of its output is lost."""
    reader, writer = await asyncio.open_unix_connection(path, limit=1 << 20)
    writer.write(
        (
            f"POST /containers/{container_id}/attach?stream=1&stdin=1&stdout=1&stderr=1 "
            "HTTP/1.1\r\nHost: docker\r\nUpgrade: tcp\r\nConnection: Upgrade\r\n"
            "Content-Length: 0\r\n\r\n"
        ).encode()
    )
    await writer.drain()
    status = await reader.readline()
    if b" 101 " not in status and b" 200 " not in status:
        writer.close()
        raise AttachRefused(f"attach refused: {status.decode(errors='replace').strip()}")
    while (await reader.readline()) not in (b"\r\n", b"\n", b""):
        pass
    return reader, writer


async def read_chunk(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """The next (stream type, payload) of the multiplexed attach stream; raises
    IncompleteReadError when it ends."""
    header = await reader.readexactly(8)
    return header[0], await reader.readexactly(int.from_bytes(header[4:8], "big"))
