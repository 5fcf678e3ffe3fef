"""Python sessions: consecutive call or assert tests of one item in one serving candidate
process (a fresh process, after a full sweep, when a test times out or the candidate is lost),
and the job's wall budget that cuts every run (stdlib only; in sandboxes)."""

from __future__ import annotations

import contextlib
import json
import os
import time
from typing import Any, cast

from rlvr.verifier.sandbox.inside.candidate import SOURCE_NAME
from rlvr.verifier.sandbox.inside.fds import write_all
from rlvr.verifier.sandbox.inside.harness import harness_main
from rlvr.verifier.sandbox.inside.supervisor import Capture, LineReader, Run, Supervisor, TestClock
from rlvr.verifier.sandbox.inside.zygote import SpawnRequest
from rlvr.verifier.sandbox.wire.protocol import (
    AssertJobTest,
    AssertReport,
    CallJobTest,
    CallReport,
    HarnessVerdict,
    JobTest,
    Limits,
    Reply,
    RunReport,
    SkipReason,
)


class Budget:
    """The job's `total_timeout_s`, as a monotonic end (None: no budget)."""

    def __init__(self) -> None:
        self.end: float | None = None

    def deadline(self, timeout_s: float) -> float:
        """A run's wall deadline: its own timeout, cut by what is left of the job's budget."""
        end = time.monotonic() + timeout_s
        return end if self.end is None else min(end, self.end)

    def is_out(self) -> bool:
        return self.end is not None and time.monotonic() >= self.end


class PythonSessions:
    """Runs sessions of Python call/assert tests on PID 1's processes."""

    def __init__(self, supervisor: Supervisor, budget: Budget) -> None:
        self.supervisor = supervisor
        self.budget = budget

    def run(
        self, kind: str, tests: list[JobTest], code: bytes, limits: Limits
    ) -> tuple[list[RunReport], list[str]]:
        """Consecutive assert (or call) tests of one item, one candidate process per session.

        A session ends early when a test times out or the candidate's process is lost; the
        next session (a fresh process, after a full sweep) resumes with the following test.
        """
        results: list[RunReport] = []
        anomalies: list[str] = []
        while len(results) < len(tests):
            if self.budget.is_out():
                out: RunReport = {"kind": "skipped", "reason": SkipReason.OUT_OF_BUDGET}
                results += [out.copy() for _ in tests[len(results) :]]
                break
            rest = tests[len(results) :]
            cwd = self.supervisor.prepare_dir({f"{SOURCE_NAME}.py": code})
            session_limits: Limits = {
                **limits,
                "timeout_s": float(limits["timeout_s"]) * len(rest),
            }
            request = self.supervisor.child_request(
                "python-serve",
                cwd,
                session_limits,
                path=os.path.join(cwd, f"{SOURCE_NAME}.py"),
                describe=kind == "assert",
            )
            if kind == "assert":
                asserts = cast(list[AssertJobTest], rest)
                asserted, found = self._assert_session(request, asserts, limits)
                results += asserted
            else:
                called, found = self._call_session(request, cast(list[CallJobTest], rest), limits)
                results += called
            anomalies += found
            if not self.supervisor.zygote.is_alive:
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
        self, request: SpawnRequest, calls: list[CallJobTest], limits: Limits
    ) -> tuple[list[CallReport], list[str]]:
        """Send one call at a time; each reply (encoded value) goes back to the host untouched."""
        timeout_s = float(limits["timeout_s"])
        run = Run(self.supervisor, self.budget.deadline(timeout_s))
        clock = TestClock(run, timeout_s, self.budget.end)
        results: list[CallReport] = []
        ready: list[dict[str, Any]] = []
        try:
            child_fds, stderr, req_w, resp_r = self._session_pipes(run)
            responses = run.capture(resp_r)
            run.spawn(request, child_fds)
            lines = LineReader(responses)

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
                    replies = [reply_fields(ready[0]), reply_fields(message)]
                    results.append(call_report(replies, clock.lap()))
                    if len(results) == len(calls):
                        return True
                    send_next()
                return not responses.is_open or responses.is_over

            run.wait(is_done)
        finally:
            anomalies = run.finish()
        if ready and "ready" not in ready[0]:
            elapsed_s = clock.lap()
            first = [reply_fields(m) for m in ready[:1]]
            results = [call_report(first, elapsed_s) for _ in calls]
        elif len(results) < len(calls):
            report = call_report([reply_fields(m) for m in ready[:1]], clock.lap())
            report["timed_out"] = run.timed_out
            report["response_over"] = responses.is_over
            report["output_over"] = run.output_over
            results.append(report)
        tail = stderr.text()[-2000:]
        for result in results:
            result["stderr"] = tail
        return results, anomalies

    def _assert_session(
        self, request: SpawnRequest, tests: list[AssertJobTest], limits: Limits
    ) -> tuple[list[AssertReport], list[str]]:
        timeout_s = float(limits["timeout_s"])
        run = Run(self.supervisor, self.budget.deadline(timeout_s))
        clock = TestClock(run, timeout_s, self.budget.end)
        results: list[AssertReport] = []
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
            lines = LineReader(verdicts)

            def is_done() -> bool:
                for message in lines.take():
                    verdict = cast(HarnessVerdict, message)
                    results.append(assert_report(verdict, clock.lap()))
                    if message.get("lost") or message.get("load") or len(results) == len(tests):
                        return True
                return not verdicts.is_open

            run.wait(is_done)
        finally:
            anomalies = run.finish()
        if results and (results[0]["verdict"] or {}).get("load"):
            results = [results[0].copy() for _ in tests]  # the code does not load: same for all
        elif len(results) < len(tests) and not (
            results and (results[-1]["verdict"] or {}).get("lost")
        ):
            # the running test timed out, or its harness was killed
            report = assert_report(None, clock.lap())
            report["timed_out"], report["output_over"] = run.timed_out, run.output_over
            results.append(report)
        tail = stderr.text()[-2000:]
        for result in results:
            result["stderr"] = tail
        return results, anomalies


def call_report(replies: list[Reply], elapsed_s: float) -> CallReport:
    """A call test's report as an uneventful run ends (stderr: the session's tail, set later)."""
    return {
        "kind": "call",
        "replies": replies,
        "timed_out": False,
        "response_over": False,
        "output_over": False,
        "stderr": "",
        "elapsed_s": elapsed_s,
    }


def assert_report(verdict: HarnessVerdict | None, elapsed_s: float) -> AssertReport:
    """An assert test's report as an uneventful run ends (stderr: set later)."""
    return {
        "kind": "assert",
        "verdict": verdict,
        "timed_out": False,
        "output_over": False,
        "stderr": "",
        "elapsed_s": elapsed_s,
    }


# What a call session's reply line may carry to the host, all scalars (`value`/`args` are the
# codec's encoded text). A forged line from the candidate could hold any JSON tree; passed on, the
# host would parse it on its event loop as part of the job's answer, so anything else is dropped.
_REPLY_KEYS = frozenset(
    {"value", "args", "raised", "message", "memory", "unplain", "ready", "load", "detail"}
)
_SCALARS = (str, int, float, bool, type(None))


def reply_fields(message: dict[str, Any]) -> Reply:
    """The known keys of a reply line with scalar values (a nested `ready` becomes True)."""
    kept: dict[str, Any] = {}
    for key in _REPLY_KEYS.intersection(message):
        value = message[key]
        if key == "ready":
            kept[key] = True
        elif type(value) in _SCALARS:
            kept[key] = value
    return cast(Reply, kept)
