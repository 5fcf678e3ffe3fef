"""The trusted executor: PID 1 of every sandbox container (stdlib only; sent in at start with
every module of `sandbox/wire/` and `sandbox/inside/`, see `sandbox/host/shipment.py`).

Processes inside a container (all one unprivileged uid, no capabilities):

* **PID 1, the executor** (this module's `main`). Reads jobs and writes results as
  length-prefixed JSON frames, on the job channel's socket where the host connected to it
  (`channel.py`), else on stdin and stdout (Docker's attach stream); never runs candidate code.
  As PID 1 of its namespace it ignores every signal sent from inside, and it is non-dumpable,
  so a candidate of the same uid can neither kill it nor read its memory or file descriptors.
* **The zygote** (`zygote.py`), forked once at start *before any job arrives*, so its memory
  never holds a test. It forks one child per Python run (and per judge run); the child makes
  its own session (process group), sets rlimits, and reads the candidate's source from a file
  in its fresh work dir. Forking a warm interpreter is what makes a run cost a few ms instead of
  an interpreter or container start.
* **The launcher** (`launcher.py`, `docker/sandbox/launch.c`): native runs (compiler, compiled
  binary, JVM, Node) are started by PID 1 with posix_spawn through this small static binary,
  which installs the zygote's seccomp filter, sets the rlimits and work dir and execs the
  program (a job's binary from a sealed memfd). Without it in the image, the zygote forks them.
* **The harness** (`harness.py`, assert tests only), forked from PID 1 per item (a session of
  consecutive tests; a new one after a timeout or a lost candidate): it executes the test code,
  with the candidate's functions replaced by proxies that call into the candidate's process
  over pipes. Arguments and return values cross as plain data (`codec`), so the assertion runs
  in a process the candidate cannot touch, comparing builtin values only. Its verdict goes to
  PID 1 over a pipe only the harness holds.

Expected values of call and stdio tests never enter the container at all (the host compares);
assert-test code lives only in PID 1 and the harness.

All processes share one uid, so what the kernel lets a process do to another of the same uid is
taken away from candidates by a seccomp filter the zygote installs on itself (inherited by every
run, kept over exec; the launcher installs the same one): no other process's rlimits, nice
value, CPU affinity, scheduling or I/O priority, no ptrace-like access, no SysV IPC, POSIX
message queues or keyrings (state that would outlive the job). After every run PID 1 kills the
run's process group, then stops and kills every other process in the container (daemons that
left the group), wipes every writable place (the /tmp tmpfs, /dev/mqueue, /dev/shm if mounted,
SysV IPC objects); after every job it checks that its own and the zygote's attributes are
unchanged. It reports anomalies, and the host retires a container that reported any. Whatever a
candidate left behind, its verdict stays its own: a container that cannot be cleaned ends the
job with the remaining tests not run (runtime_error), never a fault.

Module map: `supervisor.py` (runs, captures, the sweep), `zygote.py` and `candidate.py` (the
spawner and what a Python run becomes), `jobs.py` (what a job does with its tests),
`sessions.py`, `artefacts.py`, `toolchain.py`, `judges.py`, `harness.py`, `launcher.py`; the
low-level helpers `procs.py`, `fds.py`, `wipe.py`, `seccomp.py`, `libc.py`; `wire/protocol.py`
(the messages) and `wire/frames.py` (their frames); `channel.py` (the job channel's socket);
this module (PID 1's loop and its stream).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping
from typing import Any

from rlvr.verifier.sandbox.inside import channel
from rlvr.verifier.sandbox.inside.artefacts import KEPT_ARTEFACTS, KEPT_BYTES, ArtefactStore
from rlvr.verifier.sandbox.inside.fds import read_exact, write_all
from rlvr.verifier.sandbox.inside.jobs import JobRunner
from rlvr.verifier.sandbox.inside.procs import set_non_dumpable
from rlvr.verifier.sandbox.inside.supervisor import Supervisor
from rlvr.verifier.sandbox.inside.wipe import wipe_dir
from rlvr.verifier.sandbox.inside.zygote import WORK_ROOT
from rlvr.verifier.sandbox.wire.frames import HEADER, body_size, decode_body, encode_frame
from rlvr.verifier.sandbox.wire.protocol import (
    ExecutorConfig,
    ExecutorReady,
    JobResult,
    decode_job,
)


def main(config: ExecutorConfig) -> None:
    """Serve jobs until their stream closes (the host went away: the container then exits)."""
    if os.getpid() != 1:  # it stops and kills every process it can signal: never on a host
        raise SystemExit("the executor only runs as PID 1 of a sandbox container")
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2):
        signal.signal(sig, signal.SIG_IGN)
    set_non_dumpable()
    wipe_dir(WORK_ROOT)
    try:
        supervisor = Supervisor(config)
    except Exception as exc:  # the host reports it: the container is not used
        failed: ExecutorReady = {"ready": False, "error": f"{type(exc).__name__}: {exc}"[:1000]}
        send_frame(failed)
        return
    ready: ExecutorReady = {
        "ready": True,
        "pid": os.getpid(),
        "zygote": supervisor.zygote.pid,
        "launcher": supervisor.launcher is not None,
        "job_namespaces": supervisor.has_job_namespaces,
        "job_namespaces_error": supervisor.namespaces_error,
    }
    path = config.get("channel")
    listener = channel.listen(path) if path else None
    if path:
        ready["channel"] = listener is not None
    send_frame(ready)
    kept = ArtefactStore(
        config.get("kept_artefacts", KEPT_ARTEFACTS), config.get("kept_artefact_bytes", KEPT_BYTES)
    )
    runner = JobRunner(supervisor, kept)
    supervisor.between_jobs()
    jobs_in, results_out = 0, 1
    if listener is not None and path:
        connection = channel.choose(listener, path)
        if connection is not None:  # kept open for the container's life
            jobs_in = results_out = connection.detach()
            send_frame({"channel": "open"}, results_out)
    while True:
        job = read_frame(jobs_in)
        if job is None:
            return
        send_frame(answer(runner, job), results_out)
        supervisor.between_jobs()


def answer(runner: JobRunner, message: dict[str, Any]) -> JobResult:
    """PID 1's answer to one frame from the host: the job's result, or a `fault` when PID 1
    failed on it before judging it (a malformed job, a bug of its own: the verifier's error,
    which the host does not retry, `sandbox/host/backend.py`); `healthy` False when the
    container must take no other job."""
    try:
        result = runner.run_job(decode_job(message))
    except Exception as exc:
        job_id = message.get("id")
        result = {
            "id": job_id if type(job_id) is str else None,
            "fault": f"{type(exc).__name__}: {exc}"[:1000],
        }
    supervisor = runner.supervisor
    # any anomaly retires the container: what it means was cleaned up, but it was hostile
    result["healthy"] = (
        supervisor.zygote.is_alive and supervisor.is_clean and not result.get("anomalies")
    )
    return result


def read_frame(fd: int = 0) -> dict[str, Any] | None:
    """The host's next job (stdin, or the channel's socket); None when the stream ends."""
    header = read_exact(fd, HEADER.size)
    if header is None:
        return None
    body = read_exact(fd, body_size(header))
    return None if body is None else decode_body(body)


def send_frame(message: Mapping[str, object], fd: int = 1) -> None:
    write_all(fd, encode_frame(message))
