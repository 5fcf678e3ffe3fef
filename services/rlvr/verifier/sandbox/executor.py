"""The trusted executor: PID 1 of every sandbox container (stdlib only; sent in at start with
`codec`, `procs`, `runner` and `asserts`).

Processes inside a container (all one unprivileged uid, no capabilities):

* **PID 1, the executor** (this module's `main`). Reads jobs from stdin and writes results to
  stdout (length-prefixed JSON frames over Docker's attach stream), never runs candidate code.
  As PID 1 of its namespace it ignores every signal sent from inside, and it is non-dumpable,
  so a candidate of the same uid can neither kill it nor read its memory or file descriptors.
* **The zygote** (`runner.py`), forked once at start *before any job arrives*, so its memory
  never holds a test. It forks one child per run (candidate program, compiler, compiled binary);
  the child makes its own session (process group), sets rlimits, and reads the candidate's
  source from a file in its fresh work dir. Forking a warm interpreter is what makes a run cost
  ~1 ms instead of an interpreter or container start.
* **The harness** (`asserts.py`, assert tests only), forked from PID 1 per item (a session of
  consecutive tests; a new one after a timeout or a lost candidate): it executes the test code,
  with the candidate's functions replaced by proxies that call into the candidate's process
  over pipes. Arguments and return values cross as plain data (`codec`), so the assertion runs
  in a process the candidate cannot touch, comparing builtin values only. Its verdict goes to
  PID 1 over a pipe only the harness holds.

Expected values of call and stdio tests never enter the container at all (the host compares);
assert-test code lives only in PID 1 and the harness.

All processes share one uid, so what the kernel lets a process do to another of the same uid is
taken away from candidates by a seccomp filter the zygote installs on itself (inherited by every
run, kept over exec): no other process's rlimits, nice value, CPU affinity, scheduling or I/O
priority, no ptrace-like access, no SysV IPC, POSIX message queues or keyrings (state that would
outlive the job). After every run PID 1 kills the run's process group, then stops and kills every
other process in the container (daemons that left the group), wipes every writable place (the
/tmp tmpfs, /dev/mqueue, /dev/shm if mounted, SysV IPC objects); after every job it checks
that its own and the zygote's attributes are unchanged. It reports anomalies, and the host
retires a container that reported any. Whatever a candidate left behind, its verdict stays its
own: a container that cannot be cleaned ends the job with the remaining tests not run
(runtime_error), never a fault.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import selectors
import signal
import socket
import struct
import time
from typing import Any

from rlvr.verifier.sandbox.asserts import harness_main
from rlvr.verifier.sandbox.procs import (
    decode_status,
    other_pids,
    process_attributes,
    read_exact,
    reap_all,
    set_non_dumpable,
    wipe_dir,
    wipe_ipc,
    write_all,
)
from rlvr.verifier.sandbox.programs import (
    ArtefactError,
    compile_limits,
    run_argv,
    shape_request,
    unpack_artefact,
)
from rlvr.verifier.sandbox.runner import SOURCE_NAME, WORK_ROOT, zygote_main

SHM_ROOT = "/dev/shm"
MQUEUE_ROOT = "/dev/mqueue"
_FRAME = struct.Struct(">I")
# Time PID 1 spends emptying the tmpfs after one run; past it the container is dirty (retired).
_WIPE_BUDGET_S = 2.0
# What one job's answer may carry, JSON-encoded: each test's output is capped, but many tests of
# escaped control characters (6 bytes each) are not. The host parses the answer with one
# `json.loads` on its event loop (C code holding the GIL: a thread would not help), which takes
# about 0.1 s for 16 MiB of escapes on a loaded 2-core machine and 0.5 s for 64 MiB. Tests past
# the budget count as over the output limit.
_ANSWER_BUDGET_BYTES = 16 << 20
# The largest compiled artefact (its tar) kept in PID 1's memory and carried to the host.
_ARTEFACT_LIMIT = 64 << 20


class ZygoteLost(Exception):
    """The zygote stopped answering (a candidate killed or stopped it): retire the container."""


class ContainerDirty(Exception):
    """What a run left could not be removed: no further run here (the container is retired)."""


class Zygote:
    def __init__(self) -> None:
        parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            parent.close()
            try:
                null = os.open(os.devnull, os.O_RDWR)
                os.dup2(null, 0)
                os.dup2(null, 1)
                zygote_main(child)
            finally:
                os._exit(1)
        child.close()
        self.pid = pid
        self.sock = parent
        self.is_alive = True
        ready = self.receive(timeout_s=30)
        if ready is None or not ready.get("ready"):
            detail = (ready or {}).get("error", "no answer")
            raise RuntimeError(f"the process spawner did not start: {detail}")

    def spawn(self, request: dict[str, Any], fds: list[int]) -> int:
        socket.send_fds(self.sock, [json.dumps(request).encode()], fds)
        reply = self.receive(timeout_s=5)
        if reply is None or "pid" not in reply:
            self.is_alive = False
            raise ZygoteLost("the sandbox's process spawner was killed or stopped")
        return int(reply["pid"])

    def receive(self, timeout_s: float) -> dict[str, Any] | None:
        self.sock.settimeout(timeout_s)
        try:
            data = self.sock.recv(1 << 16)
        except (TimeoutError, OSError):
            return None
        finally:
            self.sock.settimeout(None)
        if not data:
            self.is_alive = False
            return None
        message: dict[str, Any] = json.loads(data)
        return message


class Capture:
    """A capped read end of a pipe: keeps the head, counts the rest."""

    def __init__(self, fd: int, limit: int) -> None:
        self.fd, self.limit = fd, limit
        self.chunks: list[bytes] = []
        self.size = 0
        self.is_open = True

    def feed(self) -> None:
        data = os.read(self.fd, 1 << 16)
        if not data:
            self.is_open = False
            return
        if self.size < self.limit:
            self.chunks.append(data[: self.limit - self.size])
        self.size += len(data)

    @property
    def is_over(self) -> bool:
        return self.size > self.limit

    def data(self) -> bytes:
        return b"".join(self.chunks)

    def text(self) -> str:
        return self.data().decode("utf-8", "replace")


class Run:
    """One run of a candidate process (plus its harness), driven by PID 1 to completion."""

    def __init__(self, executor: Executor, deadline: float) -> None:
        self.executor = executor
        self.deadline = deadline
        self.selector = selectors.DefaultSelector()
        self.to_close: list[int] = []
        self.pid: int | None = None
        self.harness_pid: int | None = None
        self.status: int | None = None
        self.timed_out = False
        self.output_over = False
        self.marks: dict[str, float] = {"start": time.monotonic()}

    def pipe(self) -> tuple[int, int]:
        read_fd, write_fd = os.pipe()
        self.to_close += [read_fd, write_fd]
        return read_fd, write_fd

    def close(self, fd: int) -> None:
        if fd in self.to_close:
            self.to_close.remove(fd)
            with contextlib.suppress(OSError):
                os.close(fd)

    def capture(self, fd: int) -> Capture:
        capture = Capture(fd, self.executor.output_limit)
        os.set_blocking(fd, False)
        self.selector.register(fd, selectors.EVENT_READ, capture)
        return capture

    def spawn(self, request: dict[str, Any], child_fds: list[int]) -> None:
        self.marks["spawn"] = time.monotonic()
        self.pid = self.executor.zygote.spawn(request, child_fds)
        self.marks["spawned"] = time.monotonic()
        for fd in child_fds:
            self.close(fd)
        self.selector.register(self.executor.zygote.sock, selectors.EVENT_READ, "zygote")

    def remaining_s(self) -> float:
        return self.deadline - time.monotonic()

    def wait(self, is_done: Any, stdin: tuple[int, bytes] | None = None) -> None:
        """Pump pipes until `is_done()` or the deadline; stdin data is written as it drains."""
        pending = memoryview(stdin[1]) if stdin else None
        if stdin and not stdin[1]:
            self.close(stdin[0])
        elif stdin:
            os.set_blocking(stdin[0], False)
            self.selector.register(stdin[0], selectors.EVENT_WRITE, "stdin")
        while not is_done():
            left = self.remaining_s()
            if left <= 0:
                self.timed_out = True
                return
            for key, _ in self.selector.select(min(left, 1.0)):
                target = key.data
                if target == "zygote":
                    self.selector.unregister(key.fd)
                    reply = self.executor.zygote.receive(timeout_s=1)
                    self.status = -1 if reply is None else int(reply.get("status", -1))
                elif target == "stdin" and stdin and pending is not None:
                    try:
                        pending = pending[os.write(stdin[0], pending[: 1 << 16]) :]
                    except BlockingIOError:
                        continue
                    except OSError:  # the program closed its stdin: fine, it read what it wanted
                        pending = memoryview(b"")
                    if not pending:
                        self.selector.unregister(stdin[0])
                        self.close(stdin[0])
                elif isinstance(target, Capture):
                    try:
                        target.feed()
                    except BlockingIOError:
                        continue
                    if not target.is_open:
                        self.selector.unregister(key.fd)
                    if target.is_over:
                        self.output_over = True
                        return

    def finish(self) -> list[str]:
        """Kill the run's group and every stray process; return anomalies (empty if clean)."""
        self.marks["finish"] = time.monotonic()
        zygote = self.executor.zygote
        if self.pid is not None:
            with contextlib.suppress(OSError):
                os.killpg(self.pid, signal.SIGKILL)
        if self.harness_pid is not None:
            with contextlib.suppress(OSError):
                os.kill(self.harness_pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.harness_pid, 0)
        with contextlib.suppress(OSError):
            os.kill(zygote.pid, signal.SIGCONT)  # in case the candidate stopped it
        if self.pid is not None and self.status is None:
            reply = zygote.receive(timeout_s=2)
            self.status = -1 if reply is None else int(reply.get("status", -1))
        for fd in list(self.to_close):
            self.close(fd)
        self.selector.close()
        self.marks["sweep"] = time.monotonic()
        anomalies = self.executor.sweep()
        self.marks["end"] = time.monotonic()
        return anomalies

    def phases_ms(self) -> dict[str, float]:
        start = self.marks["start"]
        return {k: round((v - start) * 1000, 2) for k, v in self.marks.items() if k != "start"}


class Executor:
    def __init__(self, config: dict[str, Any]) -> None:
        self.output_limit = int(config.get("output_limit_bytes", 1 << 20))
        self.tmpfs_slack_bytes = int(config.get("tmpfs_slack_bytes", 1 << 20))
        self.is_clean = True
        self.zygote = Zygote()
        self.attributes = self.snapshot()

    # -- cleanup

    def sweep(self) -> list[str]:
        """Stop, kill and reap every process but PID 1 and the zygote; wipe every writable
        place. Returns anomalies; never raises."""
        try:
            anomalies = self._kill_strays()
        except Exception as exc:  # reported: the container is retired
            anomalies = [f"sweep failed: {type(exc).__name__}"]
        try:
            pid, _ = os.waitpid(self.zygote.pid, os.WNOHANG)
        except ChildProcessError:
            pid = self.zygote.pid
        if pid != 0 or not self.zygote.is_alive:
            self.zygote.is_alive = False
            anomalies.append("zygote died")
        return anomalies + self._clean_places()

    def _kill_strays(self) -> list[str]:
        anomalies: list[str] = []
        reap_all()
        keep = {1, os.getpid(), self.zygote.pid}
        if other_pids(keep):
            anomalies.append("leftover process")
            with contextlib.suppress(OSError):
                os.kill(-1, signal.SIGSTOP)  # nothing can fork while we look (not PID 1)
            for _ in range(50):
                for pid in other_pids(keep):
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                reap_all()
                if not other_pids(keep):
                    break
                time.sleep(0.01)
            else:
                anomalies.append("a process could not be killed")
            with contextlib.suppress(OSError):
                os.kill(self.zygote.pid, signal.SIGCONT)
        return anomalies

    def _clean_places(self) -> list[str]:
        """Empty every place a run could write to; what remains is an anomaly."""
        anomalies: list[str] = []
        try:
            found, ipc_clean = wipe_ipc(MQUEUE_ROOT)
            if found:
                anomalies.append("IPC objects left behind")
            if not ipc_clean:
                anomalies.append("IPC objects could not be removed")
        except Exception as exc:
            anomalies.append(f"IPC wipe failed: {type(exc).__name__}")
        self.is_clean = wipe_dir(WORK_ROOT, _WIPE_BUDGET_S) and wipe_dir(SHM_ROOT, 1.0)
        try:
            usage = os.statvfs(WORK_ROOT)
            used = (usage.f_blocks - usage.f_bfree) * usage.f_frsize
            if os.listdir(WORK_ROOT) or used > self.tmpfs_slack_bytes:
                self.is_clean = False
        except OSError:
            self.is_clean = False
        if not self.is_clean:
            anomalies.append("tmpfs not clean")
        return anomalies

    def snapshot(self) -> dict[int, tuple[object, ...]]:
        return {pid: process_attributes(pid) for pid in (os.getpid(), self.zygote.pid)}

    def changed_attributes(self) -> list[str]:
        """A candidate of the same uid changed PID 1's or the zygote's rlimits, nice value,
        affinity, scheduling... (seccomp forbids it; this is the second line)."""
        if not self.zygote.is_alive:
            return []
        try:
            if self.snapshot() == self.attributes:
                return []
        except Exception:  # unreadable: treat as changed
            pass
        return ["sandbox process attributes changed"]

    # -- one run

    def prepare_dir(self, files: dict[str, bytes], executable: str | None = None) -> str:
        if not self.is_clean:
            raise ContainerDirty("not run: the sandbox could not be cleaned after this program")
        work = os.path.join(WORK_ROOT, "w")
        try:
            os.mkdir(work, 0o700)
        except OSError as exc:
            self.is_clean = False
            raise ContainerDirty(f"not run: the sandbox's work dir is unusable ({exc})") from exc
        for name, data in files.items():
            path = os.path.join(work, name)
            if "/" in name:  # a compiled artefact's subdirectory (Java packages)
                os.makedirs(os.path.dirname(path), 0o700, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o700)
            write_all(fd, data)
            os.close(fd)
        return work

    def child_request(self, mode: str, cwd: str, limits: dict[str, Any], **extra: Any) -> dict:
        memory = int(limits["memory_mb"]) * 1024 * 1024
        cpu = int(limits["timeout_s"]) + 1
        rlimits = {
            "cpu": cpu,
            "as": memory,
            "fsize": int(limits["file_size_mb"]) * 1024 * 1024,
            "nproc": int(limits["nproc"]),
            "core": 0,
            "nofile": 256,
        }
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": cwd, "LANG": "C.UTF-8"}
        return {"mode": mode, "cwd": cwd, "rlimits": rlimits, "env": env, **extra}

    def run_process(
        self, request: dict[str, Any], stdin_data: bytes, deadline: float, raw: bool = False
    ) -> dict[str, Any]:
        """A program reading stdin (stdio tests, the compiler): exit status and capped output."""
        run = Run(self, deadline)
        started = time.monotonic()
        anomalies: list[str] = []
        try:
            stdin_r, stdin_w = run.pipe()
            out_r, out_w = run.pipe()
            err_r, err_w = run.pipe()
            stdout, stderr = run.capture(out_r), run.capture(err_r)
            run.spawn(request, [stdin_r, out_w, err_w])

            def is_done() -> bool:
                return run.status is not None and not stdout.is_open and not stderr.is_open

            run.wait(is_done, stdin=(stdin_w, stdin_data))
            if run.status is not None and not run.timed_out and (stdout.is_open or stderr.is_open):
                run.deadline = min(run.deadline, time.monotonic() + 0.05)
                run.wait(lambda: not stdout.is_open and not stderr.is_open)
                run.timed_out = False  # a stray holder of the pipe: the program itself ended
        finally:
            anomalies = run.finish()
        code, sig = decode_status(run.status) if run.status is not None else (None, None)
        return {
            "exit_code": code,
            "signal": sig,
            "timed_out": run.timed_out,
            "stdout": stdout.data() if raw else stdout.text(),
            "stdout_over": stdout.is_over,
            "stderr": stderr.text()[-2000:],
            "elapsed_s": time.monotonic() - started,
            "anomalies": anomalies,
            "phases_ms": run.phases_ms(),
        }

    def run_session(
        self, kind: str, tests: list[dict[str, Any]], code: bytes, limits: dict[str, Any]
    ) -> tuple[list[dict[str, Any]], list[str]]:
        """Consecutive assert (or call) tests of one item, one candidate process per session.

        A session ends early when a test times out or the candidate's process is lost; the
        next session (a fresh process, after a full sweep) resumes with the following test.
        """
        results: list[dict[str, Any]] = []
        anomalies: list[str] = []
        while len(results) < len(tests):
            rest = tests[len(results) :]
            cwd = self.prepare_dir({f"{SOURCE_NAME}.py": code})
            session_limits = {**limits, "timeout_s": float(limits["timeout_s"]) * len(rest)}
            request = self.child_request(
                "python-serve",
                cwd,
                session_limits,
                path=os.path.join(cwd, f"{SOURCE_NAME}.py"),
                describe=kind == "assert",
            )
            if kind == "assert":
                got, found = self._assert_session(request, rest, limits)
            else:
                got, found = self._call_session(request, rest, limits)
            results += got
            anomalies += found
            if not self.zygote.is_alive:
                break
        return results, anomalies

    def _session_pipes(self, run: Run) -> tuple[list[int], Capture, int, int]:
        """Pipes of a serving candidate: its fds, its stderr capture, our request/response ends."""
        null = os.open(os.devnull, os.O_RDONLY)
        run.to_close.append(null)
        out_r, out_w = run.pipe()
        err_r, err_w = run.pipe()
        req_r, req_w = run.pipe()
        resp_r, resp_w = run.pipe()
        run.capture(out_r)
        stderr = run.capture(err_r)
        return [null, out_w, err_w, req_r, resp_w], stderr, req_w, resp_r

    def _call_session(
        self, request: dict[str, Any], calls: list[dict[str, Any]], limits: dict[str, Any]
    ) -> tuple[list[dict[str, Any]], list[str]]:
        """Send one call at a time; each reply (encoded value) goes back to the host untouched."""
        timeout_s = float(limits["timeout_s"])
        run = Run(self, time.monotonic() + timeout_s)
        clock = _TestClock(run, timeout_s)
        results: list[dict[str, Any]] = []
        ready: list[dict[str, Any]] = []
        try:
            child_fds, stderr, req_w, resp_r = self._session_pipes(run)
            responses = run.capture(resp_r)
            run.spawn(request, child_fds)
            lines = _LineReader(responses)

            def send_next() -> None:
                call = calls[len(results)]
                payload = json.dumps({"fn": call["fn"], "args": call["args"]}).encode()
                with contextlib.suppress(OSError):
                    write_all(req_w, payload + b"\n")

            def is_done() -> bool:
                for message in lines.take():
                    if not ready:
                        ready.append(message)
                        if "ready" not in message:
                            return True  # the code does not load
                        send_next()
                        continue
                    replies = [_reply_fields(ready[0]), _reply_fields(message)]
                    results.append({"replies": replies, "elapsed_s": clock.lap()})
                    if len(results) == len(calls):
                        return True
                    send_next()
                return not responses.is_open or responses.is_over

            run.wait(is_done)
        finally:
            anomalies = run.finish()
        if ready and "ready" not in ready[0]:
            elapsed_s = clock.lap()
            first = [_reply_fields(m) for m in ready[:1]]
            results = [{"replies": first, "elapsed_s": elapsed_s} for _ in calls]
        elif len(results) < len(calls):
            results.append(
                {
                    "replies": [_reply_fields(m) for m in ready[:1]],
                    "timed_out": run.timed_out,
                    "response_over": responses.is_over,
                    "output_over": run.output_over,
                    "elapsed_s": clock.lap(),
                }
            )
        tail = stderr.text()[-2000:]
        for result in results:
            result["stderr"] = tail
        return results, anomalies

    def _assert_session(
        self, request: dict[str, Any], tests: list[dict[str, Any]], limits: dict[str, Any]
    ) -> tuple[list[dict[str, Any]], list[str]]:
        timeout_s = float(limits["timeout_s"])
        run = Run(self, time.monotonic() + timeout_s)
        clock = _TestClock(run, timeout_s)
        results: list[dict[str, Any]] = []
        try:
            child_fds, stderr, req_w, resp_r = self._session_pipes(run)
            verdict_r, verdict_w = run.pipe()
            verdicts = run.capture(verdict_r)
            run.spawn(request, child_fds)
            harness_rlimits = {"as": max(int(limits["memory_mb"]), 256) * 1024 * 1024}
            codes = [str(test["code"]) for test in tests]
            pid = os.fork()
            if pid == 0:
                harness_main(codes, [req_w, resp_r, verdict_w], harness_rlimits)
            run.harness_pid = pid
            for fd in (req_w, resp_r, verdict_w):
                run.close(fd)
            lines = _LineReader(verdicts)

            def is_done() -> bool:
                for message in lines.take():
                    results.append({"verdict": message, "elapsed_s": clock.lap()})
                    if message.get("lost") or message.get("load") or len(results) == len(tests):
                        return True
                return not verdicts.is_open

            run.wait(is_done)
        finally:
            anomalies = run.finish()
        if results and results[0]["verdict"].get("load"):
            results = [dict(results[0]) for _ in tests]  # the code does not load: same for all
        elif len(results) < len(tests) and not (results and results[-1]["verdict"].get("lost")):
            # the running test timed out, or its harness was killed
            results.append(
                {
                    "verdict": None,
                    "timed_out": run.timed_out,
                    "output_over": run.output_over,
                    "elapsed_s": clock.lap(),
                }
            )
        tail = stderr.text()[-2000:]
        for result in results:
            result["stderr"] = tail
        return results, anomalies

    # -- jobs

    def run_job(self, job: dict[str, Any]) -> dict[str, Any]:
        limits = job["limits"]
        language = job["language"]
        code = job["code"].encode()
        anomalies: list[str] = []
        results: list[dict[str, Any]] = []
        binary: dict[str, bytes] | None = None
        program = job.get("program") or {}
        if program.get("compile_argv"):
            compiled: dict[str, Any]
            try:
                if "artefact" in job:  # compiled before (the host's cache): no compiler run
                    blob = base64.b64decode(job["artefact"])
                    compiled = {"files": unpack_artefact(blob, _ARTEFACT_LIMIT), "anomalies": []}
                else:
                    compiled = self.compile_job(code, job)
            except ContainerDirty as exc:
                compiled = {"detail": str(exc), "anomalies": ["tmpfs not clean"]}
            anomalies += compiled.pop("anomalies", [])
            binary = compiled.pop("files", None)
            if binary is None or not job["tests"]:
                detail = compiled.get("detail", "compilation failed")
                verdict = {"status": "compile_error", "detail": detail, "elapsed_s": 0.0}
                return {
                    "id": job.get("id"),
                    "compile": compiled,
                    "tests": [verdict for _ in job["tests"]],
                    "anomalies": sorted(set(anomalies + self.changed_attributes())),
                }
        stop_early = bool(job.get("stop_on_first_failure"))
        tests: list[dict[str, Any]] = job["tests"]
        budget = _ANSWER_BUDGET_BYTES
        while len(results) < len(tests):
            if stop_early and results and results[-1].get("stop"):
                results.append({"skipped": True})
                continue
            test = tests[len(results)]
            try:
                if language == "python" and test["kind"] != "stdio" and not stop_early:
                    end = len(results)
                    while end < len(tests) and tests[end]["kind"] == test["kind"]:
                        end += 1
                    got, found = self.run_session(
                        test["kind"], tests[len(results) : end], code, limits
                    )
                else:
                    result = self.run_test(test, language, code, binary, limits, program)
                    got, found = [result], result.pop("anomalies", [])
            except ZygoteLost as exc:
                anomalies.append("zygote lost")
                results.append({"skipped": True, "reason": str(exc)})
                break
            except ContainerDirty as exc:
                anomalies.append("tmpfs not clean")
                while len(results) < len(tests):
                    results.append({"skipped": True, "reason": str(exc)})
                break
            anomalies += found
            for result in got:
                budget = self.charge_answer(result, budget)
                result["stop"] = is_definite_failure(result)
            results += got
            if not self.zygote.is_alive:
                break
            if not self.is_clean and len(results) < len(tests):
                reason = "not run: the sandbox could not be cleaned after this program"
                while len(results) < len(tests):
                    results.append({"skipped": True, "reason": reason})
        while len(results) < len(job["tests"]):
            reason = "not run: the sandbox's process spawner was killed or stopped by this program"
            results.append({"skipped": True, "reason": reason})
        anomalies += self.changed_attributes()  # once per job: it only protects later jobs
        return {"id": job.get("id"), "tests": results, "anomalies": sorted(set(anomalies))}

    @staticmethod
    def charge_answer(result: dict[str, Any], budget: int) -> int:
        """Keep the job's answer under what the host accepts: once the budget is spent, a
        test's captured output or return value is dropped and counted as over the limit (the
        candidate's failure, never a lost sandbox). Returns the budget left."""
        size = len(json.dumps(result))
        if size <= budget:
            return budget - size
        if "stdout" in result:
            result.update(stdout="", stdout_over=True)
        if "replies" in result:
            result.update(replies=result["replies"][:1], response_over=True)
        return budget - min(size, len(json.dumps(result)))

    def compile_job(self, source: bytes, job: dict[str, Any]) -> dict[str, Any]:
        """Run the job's compile command once: {"files", "artefact"?} or {"detail"}."""
        program = job["program"]
        limits = compile_limits(job)
        cwd = self.prepare_dir({program["source_name"]: source})
        request = self.child_request("exec", cwd, limits, argv=program["compile_argv"])
        request = shape_request(
            request,
            program.get("compile_env", {}),
            program.get("compile_memory_rlimit", "as"),
            int(limits["memory_mb"]),
            0,
            int(limits["nproc"]),
        )
        deadline = time.monotonic() + float(job["compile_timeout_s"])
        saved_limit = self.output_limit
        self.output_limit = int(job.get("binary_limit_bytes", _ARTEFACT_LIMIT))
        try:
            outcome = self.run_process(request, b"", deadline, raw=True)
        finally:
            self.output_limit = saved_limit
        elapsed = round(outcome["elapsed_s"], 4)
        anomalies = outcome["anomalies"]
        if outcome["timed_out"]:
            return {"detail": "compilation timed out", "timed_out": True, "anomalies": anomalies}
        if outcome["exit_code"] != 0 or outcome["stdout_over"]:
            detail = outcome["stderr"][-1500:] or "compilation failed"
            if outcome["stdout_over"]:
                detail = "the compiled program is too large"
            return {"detail": detail, "anomalies": anomalies, "elapsed_s": elapsed}
        try:
            files = unpack_artefact(outcome["stdout"], _ARTEFACT_LIMIT)
        except ArtefactError as exc:
            return {"detail": str(exc), "anomalies": anomalies, "elapsed_s": elapsed}
        report: dict[str, Any] = {"files": files, "anomalies": anomalies, "elapsed_s": elapsed}
        if job.get("return_artefact"):
            report["artefact"] = base64.b64encode(outcome["stdout"]).decode()
        return report

    def run_test(
        self,
        test: dict[str, Any],
        language: str,
        code: bytes,
        binary: dict[str, bytes] | None,
        limits: dict[str, Any],
        job_program: dict[str, Any],
    ) -> dict[str, Any]:
        """One test in a fresh process: stdio (any language), or a session of one test."""
        kind = test["kind"]
        if language == "python" and kind != "stdio":
            got, anomalies = self.run_session(kind, [test], code, limits)
            return {**got[0], "anomalies": anomalies}
        deadline = time.monotonic() + float(limits["timeout_s"])
        program = job_program
        if language == "python":
            cwd = self.prepare_dir({f"{SOURCE_NAME}.py": code})
            path = os.path.join(cwd, f"{SOURCE_NAME}.py")
            request = self.child_request("python-main", cwd, limits, path=path)
        else:
            files = binary if binary is not None else {program["source_name"]: code}
            cwd = self.prepare_dir(files)
            request = self.child_request("exec", cwd, limits, argv=run_argv(program, cwd))
            request = shape_request(
                request,
                program.get("run_env", {}),
                program.get("memory_rlimit", "as"),
                int(limits["memory_mb"]),
                int(program.get("memory_slack_mb", 0)),
                int(program.get("min_processes", 0)),
            )
        return self.run_process(request, test["stdin"].encode(), deadline)


def is_definite_failure(result: dict[str, Any]) -> bool:
    """A failure visible inside the container (wrong outputs are only known to the host)."""
    if any(result.get(k) for k in ("timed_out", "response_over", "stdout_over", "output_over")):
        return True
    if "verdict" in result:
        return (result["verdict"] or {}).get("status") != "passed"
    if "replies" in result:
        replies = result["replies"]
        return len(replies) < 2 or "value" not in replies[-1]
    return result.get("exit_code") != 0


class _TestClock:
    """Per-test wall deadlines inside a session: each finished test restarts the clock."""

    def __init__(self, run: Run, timeout_s: float) -> None:
        self.run, self.timeout_s = run, timeout_s
        self.started = time.monotonic()

    def lap(self) -> float:
        now = time.monotonic()
        elapsed = now - self.started
        self.started = now
        self.run.deadline = now + self.timeout_s
        return elapsed


# What a call session's reply line may carry to the host, all scalars (`value`/`args` are the
# codec's encoded text). A forged line from the candidate could hold any JSON tree; passed on, the
# host would parse it on its event loop as part of the job's answer, so anything else is dropped.
_REPLY_KEYS = frozenset(
    {"value", "args", "raised", "message", "memory", "unplain", "ready", "load", "detail"}
)
_SCALARS = (str, int, float, bool, type(None))


def _reply_fields(message: dict[str, Any]) -> dict[str, Any]:
    """The known keys of a reply line with scalar values (a nested `ready` becomes True)."""
    kept: dict[str, Any] = {}
    for key in _REPLY_KEYS.intersection(message):
        value = message[key]
        if key == "ready":
            kept[key] = True
        elif type(value) in _SCALARS:
            kept[key] = value
    return kept


class _LineReader:
    """Complete JSON lines out of a Capture, as they arrive."""

    def __init__(self, capture: Capture) -> None:
        self.capture = capture
        self.consumed = 0

    def take(self) -> list[dict[str, Any]]:
        data = b"".join(self.capture.chunks)
        messages: list[dict[str, Any]] = []
        while True:
            end = data.find(b"\n", self.consumed)
            if end < 0:
                return messages
            line = data[self.consumed : end]
            self.consumed = end + 1
            try:
                message = json.loads(line)
            except Exception:  # the candidate's bytes: deep nesting, junk
                message = {"broken": True}
            messages.append(message if type(message) is dict else {"broken": True})


def read_frame() -> dict[str, Any] | None:
    header = read_exact(0, _FRAME.size)
    if header is None:
        return None
    body = read_exact(0, _FRAME.unpack(header)[0])
    if body is None:
        return None
    message: dict[str, Any] = json.loads(body)
    return message


def send_frame(message: dict[str, Any]) -> None:
    body = json.dumps(message).encode()
    write_all(1, _FRAME.pack(len(body)) + body)


def main(config: dict[str, Any]) -> None:
    """Serve jobs until stdin closes (the host went away: the container then exits)."""
    if os.getpid() != 1:  # it stops and kills every process it can signal: never on a host
        raise SystemExit("the executor only runs as PID 1 of a sandbox container")
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2):
        signal.signal(sig, signal.SIG_IGN)
    set_non_dumpable()
    wipe_dir(WORK_ROOT)
    try:
        executor = Executor(config)
    except Exception as exc:  # the host reports it: the container is not used
        send_frame({"ready": False, "error": f"{type(exc).__name__}: {exc}"[:1000]})
        return
    send_frame({"ready": True, "pid": os.getpid(), "zygote": executor.zygote.pid})
    while True:
        job = read_frame()
        if job is None:
            return
        try:
            result = executor.run_job(job)
        except Exception as exc:
            result = {"id": job.get("id"), "fault": f"{type(exc).__name__}: {exc}"[:1000]}
        # any anomaly retires the container: what it means was cleaned up, but it was hostile
        result["healthy"] = executor.zygote.is_alive and not result.get("anomalies")
        send_frame(result)
