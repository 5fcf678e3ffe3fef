"""One REPL: send commands, read replies, kill it at a deadline (the transport is a subclass's).

`ReplBase` holds the exchange every REPL shares: a command out, a framed reply in, a deadline
after which the REPL is killed (Lean has no cooperative cancellation we could trust with an
adversarial proof), and a check that env ids follow the REPL's own numbering (an out-of-step reply
means the stream is not what we think, so the REPL is retired). That numbering is bookkeeping,
not a defence: code running inside a REPL sees every command on its stdin and could forge replies
in step; what stops it is that such code never runs there (the pre-check) and that whatever runs
there is locked in a container (`container.py`).

`Repl` here is the UNSAFE development transport: a child process of the service, in its own
session (so `lake env repl` and what it spawns die together), address space capped with RLIMIT_AS.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import signal
from collections.abc import Callable, Sequence
from pathlib import Path

from rlvr.verifier.domains.lean.protocol import (
    ProtocolError,
    Reply,
    ReplyFramer,
    encode_command,
    parse_reply,
)

_STREAM_LIMIT = 64 * 1024 * 1024
_STDERR_TAIL = 4000


class ReplTimeout(Exception):
    """A command did not answer by its deadline; the REPL has been killed."""


class ReplCrashed(Exception):
    """The REPL exited, or answered out of protocol; it is unusable."""


def _limit_memory(memory_mb: int) -> Callable[[], None] | None:
    if memory_mb <= 0:
        return None
    limit = memory_mb * 1024 * 1024

    def apply() -> None:  # runs in the child between fork and exec
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


class ReplBase:
    """A REPL's command/reply exchange over some transport. Not safe for concurrent use: the
    pool hands a REPL to one task at a time."""

    def __init__(self) -> None:
        self.proofs = 0
        self._next_env = 0
        self._stderr_tail = ""

    # -- the transport (subclasses) ---------------------------------------------------------
    @property
    def is_alive(self) -> bool:
        raise NotImplementedError

    @property
    def is_started(self) -> bool:
        raise NotImplementedError

    async def start(self) -> None:
        raise NotImplementedError

    async def kill(self) -> None:
        raise NotImplementedError

    async def _send(self, data: bytes) -> None:
        raise NotImplementedError

    async def _readline(self) -> bytes:
        """One line of the REPL's stdout (b"" at its end)."""
        raise NotImplementedError

    async def _exit_detail(self) -> str:
        raise NotImplementedError

    def rss_mb(self) -> float | None:
        return None

    def stderr_tail(self) -> str:
        return self._stderr_tail.strip()[-500:]

    def _add_stderr(self, text: str) -> None:
        self._stderr_tail = (self._stderr_tail + text)[-_STDERR_TAIL:]

    # -- the exchange -----------------------------------------------------------------------
    async def run(self, cmd: str, env: int | None, timeout_s: float) -> Reply:
        """Send one command and return its reply; kill the REPL if it is late."""
        if not self.is_started:
            raise ReplCrashed("REPL was never started")
        if not self.is_alive:
            raise ReplCrashed(await self._exit_detail())
        try:
            return await asyncio.wait_for(self._exchange(cmd, env), timeout=max(timeout_s, 0.001))
        except TimeoutError:
            await self.kill()
            raise ReplTimeout(f"no reply within {timeout_s:.1f} s") from None
        except ProtocolError as exc:
            await self.kill()
            raise ReplCrashed(f"REPL protocol failure: {exc}") from exc
        except (ConnectionError, BrokenPipeError, OSError) as exc:
            detail = await self._exit_detail()
            await self.kill()
            raise ReplCrashed(detail) from exc

    async def _exchange(self, cmd: str, env: int | None) -> Reply:
        await self._send(encode_command(cmd, env))
        framer = ReplyFramer()
        while True:
            try:
                raw = await self._readline()
            except (ValueError, asyncio.LimitOverrunError) as exc:  # one line over the limit
                raise ProtocolError(f"REPL output line too long: {exc}") from exc
            if not raw:
                detail = await self._exit_detail()
                await self.kill()
                raise ReplCrashed(detail)
            obj = framer.feed(raw.decode("utf-8", "replace").rstrip("\r\n"))
            if obj is None:
                continue
            reply = parse_reply(obj)
            if reply.env is not None:
                if reply.env != self._next_env:
                    raise ProtocolError(
                        f"reply env {reply.env} out of step (expected {self._next_env})"
                    )
                self._next_env += 1
            return reply


class Repl(ReplBase):
    """UNSAFE (development only): a REPL as a child process of the service, sharing its user,
    files, network and Docker socket. The default is `ContainerRepl`."""

    def __init__(
        self,
        argv: Sequence[str],
        cwd: Path | None = None,
        memory_limit_mb: int = 0,
        env: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.argv = list(argv)
        self.cwd = cwd
        self.memory_limit_mb = memory_limit_mb
        self.env = env
        self._process: asyncio.subprocess.Process | None = None
        self._stderr_task: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    @property
    def is_alive(self) -> bool:
        return self._process is not None and self._process.returncode is None

    async def start(self) -> None:
        self._process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=self.cwd,
            env=self.env,
            start_new_session=True,
            preexec_fn=_limit_memory(self.memory_limit_mb),
            limit=_STREAM_LIMIT,
        )
        self._stderr_task = asyncio.create_task(self._drain_stderr())

    async def _drain_stderr(self) -> None:
        assert self._process and self._process.stderr
        while True:
            chunk = await self._process.stderr.read(4096)
            if not chunk:
                return
            self._add_stderr(chunk.decode("utf-8", "replace"))

    @property
    def is_started(self) -> bool:
        return self._process is not None

    async def _send(self, data: bytes) -> None:
        assert self._process and self._process.stdin
        self._process.stdin.write(data)
        await self._process.stdin.drain()

    async def _readline(self) -> bytes:
        assert self._process and self._process.stdout
        return await self._process.stdout.readline()

    async def _exit_detail(self) -> str:
        """`REPL exited (code N); stderr: ...`, after letting the exit and stderr settle."""
        assert self._process
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._process.wait(), timeout=1.0)
        if self._stderr_task:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self._stderr_task), timeout=1.0)
        detail = f"REPL exited (code {self._process.returncode})"
        if self.stderr_tail():
            detail += f"; stderr: {self.stderr_tail()}"
        return detail

    async def kill(self) -> None:
        """SIGKILL the REPL's whole process group and reap it."""
        process = self._process
        if process is None:
            return
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(process.wait(), timeout=5.0)
        if self._stderr_task:
            self._stderr_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._stderr_task
        if process.stdin:
            with contextlib.suppress(Exception):
                process.stdin.close()

    def rss_mb(self) -> float | None:
        """Resident memory of the REPL's process group in MiB (Linux /proc), if readable."""
        if not self.is_alive or self.pid is None:
            return None
        pgid, total_kb = self.pid, 0
        proc = Path("/proc")
        for entry in proc.iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                fields = stat[stat.rindex(")") + 2 :].split()
                if int(fields[2]) != pgid:
                    continue
                for line in (entry / "status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total_kb += int(line.split()[1])
            except (OSError, ValueError, IndexError):
                continue
        return total_kb / 1024
