"""The host's end of the job channel: a Unix socket to PID 1, past the engine.

Jobs and results cross the engine's attach stream by default: the service writes to dockerd,
which writes to the container's shim, which writes to PID 1's stdin, and back the same way.
Under load that hop cost more CPU than anything but the run itself (dockerd and the shims 0.38
ms per `/run_code` call, measured; `benchmarks/RESULTS.md`, "Tool calls: the job channel past
the engine"). So, where it can, the host talks to PID 1 over a socket instead:

- per container, a fresh private directory (`tempfile.mkdtemp`, owned by the container's uid:
  only root may give it away, so only a service running as root uses the channel), bind-mounted
  at `inside/channel.CHANNEL_DIR`;
- PID 1 listens there and says so in its ready frame; the host connects, PID 1 unlinks the
  socket and answers `{"channel": "open"}`, and the host gives the directory back to root
  (read-only) and removes it: nothing can be created in a removed directory, so what every job
  sees there is an empty, dead directory it may not write to;
- the attach stream stays open beside it: PID 1's stderr (a tail kept for logs) and, should the
  channel fail to come up, the jobs themselves.

An engine that cannot mount the directory (it runs elsewhere: the service in a container of
its own, a remote engine behind a forwarded socket) refuses the mount at create time, or mounts
another directory of the same name; either way the host does not see PID 1's socket and sends
its jobs over the attach stream, and this backend stops trying (`ChannelPlace.is_usable`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from docker.types import Mount

from rlvr.verifier.docker_engine import pid_alive, read_chunk
from rlvr.verifier.sandbox.wire.frames import take_frame
from rlvr.verifier.sandbox.wire.protocol import CHANNEL_DIR, CHANNEL_PATH

log = logging.getLogger(__name__)

# What PID 1 sends first on the channel, once its listener is gone.
OPEN_FRAME = {"channel": "open"}
# A channel directory's name: this prefix, the pid of the service that made it, a random part.
_PREFIX = "rlvr-channel-"


class ChannelPlace:
    """The directories this backend's containers get, and whether the engine shares them."""

    def __init__(self, is_wanted: bool) -> None:
        # root only: the directory must be given to the container's uid (and no one else)
        self.is_usable = is_wanted and os.geteuid() == 0

    def make(self, uid: int) -> Path | None:
        """A fresh directory only `uid` may write to; None where the channel is not used."""
        if not self.is_usable:
            return None
        path = Path(tempfile.mkdtemp(prefix=f"{_PREFIX}{os.getpid()}-"))
        os.chown(path, uid, uid)
        return path

    def give_up(self, why: str) -> None:
        if self.is_usable:
            log.warning("sandbox jobs go over the engine's attach stream: %s", why)
        self.is_usable = False


def channel_mount(directory: Path) -> Mount:
    """The bind mount of `directory` at PID 1's channel directory (a missing source is the
    engine's error: it cannot see this host's files)."""
    return Mount(target=CHANNEL_DIR, source=str(directory), type="bind", read_only=False)


def is_mount_refused(error: Exception) -> bool:
    text = str(error).lower()
    return "bind source path" in text or ("mount" in text and "does not exist" in text)


def remove_directory(directory: Path | None) -> None:
    """Best effort (a socket PID 1 never unlinked, the directory itself)."""
    if directory is not None:
        shutil.rmtree(directory, ignore_errors=True)


def remove_orphaned_directories(root: Path | None = None) -> int:
    """Remove the channel directories a service left when it was killed before it could (between
    making one and the container's first job: an instant, but a start is a loop of them); each
    is named after the process that made it, so one whose process lives is never touched.
    Returns how many were removed."""
    removed = 0
    for path in (root or Path(tempfile.gettempdir())).glob(f"{_PREFIX}*-*"):
        pid = path.name[len(_PREFIX) :].partition("-")[0]
        if pid.isdigit() and not pid_alive(int(pid)) and path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
            removed += not path.exists()
    return removed


class ChannelStream:
    """Executor frames over the channel's socket; the attach stream beside it is only drained
    (PID 1's stderr, kept as a tail for logs), so PID 1 never blocks on a full pipe."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, attach: Any
    ) -> None:
        self.reader, self.writer, self.attach = reader, writer, attach
        self.buffer = bytearray()
        self._drain = asyncio.ensure_future(self._drain_attach())

    @property
    def stderr_tail(self) -> bytearray:
        return bytearray(self.attach.stderr_tail)

    async def _drain_attach(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                kind, payload = await read_chunk(self.attach.reader)
                if kind != 1:  # stdout carries nothing once the channel is open
                    self.attach.stderr_tail = (self.attach.stderr_tail + payload)[-4000:]

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def read_frame(self) -> dict[str, Any]:
        """The next executor frame; raises IncompleteReadError/ValueError (FrameError) if the
        socket ends or breaks."""
        while True:
            frame = take_frame(self.buffer)
            if frame is not None:
                return frame
            chunk = await self.reader.read(1 << 16)
            if not chunk:
                raise asyncio.IncompleteReadError(bytes(self.buffer), None)
            self.buffer += chunk

    def close(self) -> None:
        self._drain.cancel()
        with contextlib.suppress(Exception):
            self.writer.close()
        self.attach.close()


async def open_channel(directory: Path, attach: Any, timeout_s: float) -> ChannelStream | None:
    """The channel to the PID 1 that listens in `directory`; None where its socket is not there
    (the engine mounted another directory: it is not on this host). The directory is removed
    once PID 1 has unlinked its socket."""
    path = directory / os.path.basename(CHANNEL_PATH)
    if not path.exists():
        return None
    reader, writer = await asyncio.open_unix_connection(str(path), limit=1 << 20)
    stream = ChannelStream(reader, writer, attach)
    try:
        opened = await asyncio.wait_for(stream.read_frame(), timeout_s)
        if opened != OPEN_FRAME:
            raise ValueError(f"the channel opened with {opened!r}")
        # empty (PID 1 unlinked its socket before it said so): root's and read-only again, then
        # removed, so no job can write there or make it writable
        os.chown(directory, 0, 0)
        os.chmod(directory, 0o555)
        os.rmdir(directory)
    except BaseException:
        stream._drain.cancel()
        with contextlib.suppress(Exception):
            writer.close()
        raise
    return stream
