"""Test doubles for the code sandbox, for fast tests of the fault paths without Docker (the real
suites against a Docker engine stay; these never replace them).

- `FakeBackend` / `FakeSandbox`: the host's view of containers (`sandbox.host.backend`); each
  sandbox answers jobs with a script (a function of the job) and records what it was sent.
- `FakeSupervisor`: PID 1's processes as the job runner (`sandbox.inside.jobs.JobRunner`) uses
  them, without forking: a stdio run's outcome is a function of its stdin; a compile "writes" a
  real artefact tar.
"""

from __future__ import annotations

import contextlib
import io
import tarfile
from collections.abc import Callable, Iterator
from typing import Any

from rlvr.verifier.sandbox.host.backend import SandboxLost, SandboxUnavailable
from rlvr.verifier.sandbox.inside.supervisor import ContainerDirty, ProcessOutcome
from rlvr.verifier.sandbox.wire.protocol import Job, JobResult, Limits, RunReport
from tests.support import run_reports

Script = Callable[[Job, "FakeSandbox"], JobResult]


def passing(job: Job, sandbox: FakeSandbox) -> JobResult:
    """Every test ran and exited 0 with "ok" (what an honest program prints here)."""
    tests: list[RunReport] = [run_reports.stdio(stdout="ok\n") for _ in job["tests"]]
    return {"id": job.get("id"), "tests": tests, "healthy": True}


class FakeSandbox:
    def __init__(self, name: str, script: Script) -> None:
        self.name = name
        self.script = script
        self.jobs_done = 0
        self.jobs: list[Job] = []
        self._alive = True

    @property
    def is_alive(self) -> bool:
        return self._alive

    async def run(self, job: Job, timeout_s: float) -> JobResult:
        if not self._alive:
            raise SandboxLost(f"sandbox {self.name} is gone")
        self.jobs.append(job)
        self.jobs_done += 1
        try:
            result = self.script(job, self)
        except SandboxLost:
            self._alive = False
            raise
        # as the Docker sandbox: unhealthy or a fault retires it (after answering)
        if not result.get("healthy", True) or "fault" in result:
            self._alive = False
        return result


class FakeBackend:
    """Starts `FakeSandbox`es running `script`; `fail_starts` makes every start fail."""

    def __init__(self, script: Script = passing, fail_starts: bool = False) -> None:
        self.script = script
        self.fail_starts = fail_starts
        self.started: list[FakeSandbox] = []
        self.removed: list[FakeSandbox] = []

    async def start(self) -> FakeSandbox:
        if self.fail_starts:
            raise SandboxUnavailable("the engine is unreachable (fake)")
        sandbox = FakeSandbox(f"fake-{len(self.started)}", self.script)
        self.started.append(sandbox)
        return sandbox

    async def remove(self, sandbox: Any) -> None:
        if sandbox not in self.removed:
            self.removed.append(sandbox)

    async def cleanup_stale(self) -> int:
        return 0

    async def close(self) -> None:
        pass

    @property
    def jobs(self) -> list[Job]:
        return [job for sandbox in self.started for job in sandbox.jobs]


def artefact_tar(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), 0o700
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


class _Zygote:
    pid = 2

    def __init__(self) -> None:
        self.is_alive = True


def outcome(exit_code: int | None = 0, stdout: bytes = b"", **fields: Any) -> ProcessOutcome:
    report: ProcessOutcome = {
        "exit_code": exit_code,
        "signal": None,
        "timed_out": False,
        "stdout_bytes": stdout,
        "stdout_over": False,
        "stderr": "",
        "elapsed_s": 0.001,
        "anomalies": [],
        "phases_ms": {},
    }
    return {**report, **fields}  # type: ignore[typeddict-item, unused-ignore]


class FakeSupervisor:
    """`Supervisor`'s face for the job runner. `on_stdin(stdin) -> ProcessOutcome` answers each
    stdio run, and may kill the zygote or dirty the container through `self`."""

    def __init__(self, on_stdin: Callable[[bytes, FakeSupervisor], ProcessOutcome]) -> None:
        self.on_stdin = on_stdin
        self.zygote = _Zygote()
        self.launcher = None
        self.is_clean = True
        self.output_limit = 1 << 20
        self.runs: list[bytes] = []  # the stdin of every program run, in order
        self.compiles = 0
        self.fetch_paths: list[str] = []  # `/run_code`'s fetch_files, set by the job runner
        self.fetched: dict[str, str] = {}

    @contextlib.contextmanager
    def job_space(self) -> Iterator[None]:
        """A job in the container's shared namespaces (the fake has no kernel to give it)."""
        yield

    def prepare_dir(self, files: dict[str, bytes]) -> str:
        if not self.is_clean:
            raise ContainerDirty("not run: the sandbox could not be cleaned after this program")
        return "/tmp/w"

    def child_request(self, mode: str, cwd: str, limits: Limits, **extra: Any) -> dict[str, Any]:
        return {"mode": mode, "cwd": cwd, "rlimits": {"nproc": 1}, "env": {}, **extra}

    def run_process(
        self, request: dict[str, Any], stdin_data: bytes, deadline: float, program_fd: Any = None
    ) -> ProcessOutcome:
        if request["mode"] == "exec" and any("tar" in arg for arg in request.get("argv", [])):
            self.compiles += 1  # the compiler: its stdout is the artefact tar
            return outcome(0, artefact_tar({"main": b"\x7fELF fake"}))
        self.runs.append(stdin_data)
        return self.on_stdin(stdin_data, self)

    def changed_attributes(self) -> list[str]:
        return []
