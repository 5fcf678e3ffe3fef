"""What the pool needs from an isolation backend: start a sandbox, run one job on it, remove it.

A backend (Docker is the default) decides *how* code is isolated; the pool decides *how many*
sandboxes exist and when one is replaced; the code domain decides *what* a job is. A job and
its result are the messages of `protocol.py`, understood by the in-container executor.
"""

from __future__ import annotations

from typing import Protocol

from rlvr.verifier.sandbox.wire.protocol import Job, JobResult


class SandboxError(Exception):
    """The sandbox failed (the verifier's fault, never the candidate's): the item gets `error`."""


class SandboxUnavailable(SandboxError):
    """No sandbox can be started right now (e.g. the Docker engine is unreachable)."""


class SandboxLost(SandboxError):
    """A sandbox died or stopped answering in the middle of a job."""


class Sandbox(Protocol):
    """One isolated executor that runs jobs one at a time."""

    name: str
    jobs_done: int

    @property
    def is_alive(self) -> bool: ...

    async def run(self, job: Job, timeout_s: float) -> JobResult:
        """The executor's result for `job`; raises SandboxLost if the sandbox dies or hangs
        (the caller may retry the job on another sandbox).

        What a fault is, decided here once: the executor *answering* `fault` (it failed on this
        job before judging it) is a result, not a loss: the item gets `error`, the job is not
        retried (it would fault again), and this one sandbox is retired (`is_alive` False)."""
        ...


class SandboxBackend(Protocol):
    async def start(self) -> Sandbox:
        """A fresh, ready sandbox; raises SandboxUnavailable when none can be made."""
        ...

    async def remove(self, sandbox: Sandbox) -> None:
        """Kill and delete a sandbox (idempotent, never raises)."""
        ...

    async def cleanup_stale(self) -> int:
        """Remove sandboxes left behind by dead verifier processes; return how many."""
        ...

    async def close(self) -> None: ...
