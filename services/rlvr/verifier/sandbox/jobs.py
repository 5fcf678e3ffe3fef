"""What a job does with its tests, inside the container (stdlib only; in sandboxes).

A job (`protocol.Job`) is one item: compile once if the language needs it, then each test in a
fresh run (stdio), or consecutive tests in one serving candidate process (Python call/assert
sessions), stopping early where asked; the answer (`protocol.JobResult`) is kept under what the
host accepts. Processes, pipes and cleanup are `plumbing.py`'s; the language toolchains (how a
program is compiled and started) are the two functions `compile_program` and `program_request`.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import time
from collections import OrderedDict
from typing import Any, cast

from rlvr.verifier.sandbox.asserts import harness_main
from rlvr.verifier.sandbox.judges import Judge, judge_report, run_checker, run_interactive
from rlvr.verifier.sandbox.languages import program_spec
from rlvr.verifier.sandbox.plumbing import (
    Capture,
    ContainerDirty,
    LineReader,
    ProcessHost,
    ProcessOutcome,
    Run,
    TestClock,
    ZygoteLost,
)
from rlvr.verifier.sandbox.procs import sealed_memfd, write_all
from rlvr.verifier.sandbox.programs import (
    ArtefactError,
    compile_limits,
    native_binary,
    run_argv,
    shape_request,
    unpack_artefact,
)
from rlvr.verifier.sandbox.protocol import (
    AssertJobTest,
    CallJobTest,
    CompileReport,
    HarnessVerdict,
    Job,
    JobResult,
    JobTest,
    Limits,
    Reply,
    RunReport,
    judge_outcome,
)
from rlvr.verifier.sandbox.runner import SOURCE_NAME

# What one job's answer may carry, JSON-encoded: each test's output is capped, but many tests of
# escaped control characters (6 bytes each) are not. The host parses the answer with one
# `json.loads` on its event loop (C code holding the GIL: a thread would not help), which takes
# about 0.1 s for 16 MiB of escapes on a loaded 2-core machine and 0.5 s for 64 MiB. Tests past
# the budget count as over the output limit.
_ANSWER_BUDGET_BYTES = 16 << 20
# The largest compiled artefact (its tar) kept in PID 1's memory and carried to the host (as
# base64 in one frame, parsed on its event loop): real programs are far below (Go ~1.3 MB);
# a program that embeds tens of MB of data is a compile error ("too large").
_ARTEFACT_LIMIT = 16 << 20
# Artefacts kept between jobs in PID 1 (counted in the container's memory).
_KEPT_ARTEFACTS = 16
_KEPT_BYTES = 48 << 20
# A job's binary in its memfd: execute-only, so the kernel makes every run of it non-dumpable:
# its /proc/self files are root's, and it cannot lower the OOM score its start set (nor read
# its own binary through /proc/self/exe, which it has no use for).
_PROGRAM_MODE = 0o100


class JobRunner:
    """Runs jobs on PID 1's processes (`ProcessHost`)."""

    def __init__(self, host: ProcessHost) -> None:
        self.host = host
        self.budget_end: float | None = None  # the job's total_timeout_s, as a monotonic time
        # Artefacts the host sent before, by compile key, so a later item of the same program
        # is sent without its bytes (`artefact_key` only). PID 1's memory: no candidate writes
        # it; bounded (it counts in the container's cgroup).
        self.artefacts: OrderedDict[str, dict[str, bytes]] = OrderedDict()
        # The running job's binary as a sealed memfd (see `program_fd`).
        self.job_program_fd: int | None = None
        # The kept artefacts' binaries as sealed memfds, made on first use (same keys).
        self.memfds: dict[str, int] = {}

    def deadline(self, timeout_s: float) -> float:
        """A run's wall deadline: its own timeout, cut by what is left of the job's budget."""
        end = time.monotonic() + timeout_s
        return end if self.budget_end is None else min(end, self.budget_end)

    def is_out_of_budget(self) -> bool:
        return self.budget_end is not None and time.monotonic() >= self.budget_end

    def run_session(
        self, kind: str, tests: list[JobTest], code: bytes, limits: Limits
    ) -> tuple[list[RunReport], list[str]]:
        """Consecutive assert (or call) tests of one item, one candidate process per session.

        A session ends early when a test times out or the candidate's process is lost; the
        next session (a fresh process, after a full sweep) resumes with the following test.
        """
        results: list[RunReport] = []
        anomalies: list[str] = []
        while len(results) < len(tests):
            if self.is_out_of_budget():
                results += [_out_of_budget() for _ in tests[len(results) :]]
                break
            rest = tests[len(results) :]
            cwd = self.host.prepare_dir({f"{SOURCE_NAME}.py": code})
            session_limits: Limits = {
                **limits,
                "timeout_s": float(limits["timeout_s"]) * len(rest),
            }
            request = self.host.child_request(
                "python-serve",
                cwd,
                session_limits,
                path=os.path.join(cwd, f"{SOURCE_NAME}.py"),
                describe=kind == "assert",
            )
            if kind == "assert":
                asserts = cast(list[AssertJobTest], rest)
                got, found = self._assert_session(request, asserts, limits)
            else:
                got, found = self._call_session(request, cast(list[CallJobTest], rest), limits)
            results += got
            anomalies += found
            if not self.host.zygote.is_alive:
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
        self, request: dict[str, Any], calls: list[CallJobTest], limits: Limits
    ) -> tuple[list[RunReport], list[str]]:
        """Send one call at a time; each reply (encoded value) goes back to the host untouched."""
        timeout_s = float(limits["timeout_s"])
        run = Run(self.host, self.deadline(timeout_s))
        clock = TestClock(run, timeout_s, self.budget_end)
        results: list[RunReport] = []
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
        self, request: dict[str, Any], tests: list[AssertJobTest], limits: Limits
    ) -> tuple[list[RunReport], list[str]]:
        timeout_s = float(limits["timeout_s"])
        run = Run(self.host, self.deadline(timeout_s))
        clock = TestClock(run, timeout_s, self.budget_end)
        results: list[RunReport] = []
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
                    results.append({"verdict": verdict, "elapsed_s": clock.lap()})
                    if message.get("lost") or message.get("load") or len(results) == len(tests):
                        return True
                return not verdicts.is_open

            run.wait(is_done)
        finally:
            anomalies = run.finish()
        if results and (results[0].get("verdict") or {}).get("load"):
            results = [results[0].copy() for _ in tests]  # the code does not load: same for all
        elif len(results) < len(tests) and not (
            results and (results[-1].get("verdict") or {}).get("lost")
        ):
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

    def run_job(self, job: Job) -> JobResult:
        try:
            return self._run_job(job)
        finally:
            if self.job_program_fd is not None and self.job_program_fd not in self.memfds.values():
                os.close(self.job_program_fd)  # a program without a key: made for this job
            self.job_program_fd = None

    def program_fd(self, job: Job, artefact: dict[str, bytes] | None) -> int | None:
        """The job's compiled binary in a sealed memfd: each run execs it from there through
        the launcher instead of getting its own copy in the work dir (for a Go or Rust binary,
        MBs written and wiped per test). Made once per kept artefact (else once per job) and
        sealed, so its bytes cannot change; its mode is set again before each run. None where
        runs get a copy: no launcher in the image, several files (Java), an interpreted
        language."""
        if self.job_program_fd is None:
            self.job_program_fd = self._memfd_for(job, artefact)
        if self.job_program_fd is not None:
            reset_metadata(self.job_program_fd)
        return self.job_program_fd

    def _memfd_for(self, job: Job, artefact: dict[str, bytes] | None) -> int | None:
        if artefact is None or self.host.launcher is None:
            return None
        key = job.get("artefact_key")
        if key is not None and key in self.memfds and self.artefacts.get(key) is artefact:
            return self.memfds[key]
        binary = native_binary(job["program"], artefact)
        if binary is None:
            return None
        fd = sealed_memfd("program", binary, _PROGRAM_MODE)
        if key is not None and self.artefacts.get(key) is artefact:
            self._forget_memfd(key)
            self.memfds[key] = fd
        return fd

    def _forget_memfd(self, key: str) -> None:
        fd = self.memfds.pop(key, None)
        if fd is not None:
            os.close(fd)

    def _run_job(self, job: Job) -> JobResult:
        limits = job["limits"]
        language = job["language"]
        code = job["code"].encode()
        anomalies: list[str] = []
        results: list[RunReport] = []
        artefact: dict[str, bytes] | None = None
        self.budget_end = None
        try:  # (a compile-only job has no tests to judge)
            judge, judge_failure, found = (
                self.prepare_judge(job) if job["tests"] else (None, None, [])
            )
        except ContainerDirty as exc:
            judge, judge_failure, found = None, {"detail": str(exc)}, ["tmpfs not clean"]
        anomalies += found
        if judge_failure is not None:
            reason = "not run: the problem's checker or interactor did not compile"
            why = str(judge_failure.get("detail", "compilation failed"))
            note = judge_report(None, None, False, f"did not compile: {why}", 0.0)
            return {
                "id": job.get("id"),
                "judge_compile": judge_failure,
                "tests": [{"skipped": True, "reason": reason, "judge": note} for _ in job["tests"]],
                "anomalies": sorted(set(anomalies + self.host.changed_attributes())),
            }
        if needs_compile(job):
            key = job.get("artefact_key")
            if key is not None and "artefact" not in job:
                artefact = self.artefacts.get(key)
                if artefact is None:  # evicted, or a new container: the host sends the bytes
                    return {"id": job.get("id"), "tests": [], "missing_artefact": True}
                self.artefacts.move_to_end(key)
                report: CompileReport = {"elapsed_s": 0.0}
                found = []
            else:
                try:
                    artefact, report, found = compile_program(self.host, code, job)
                except ContainerDirty as exc:
                    artefact, report, found = None, {"detail": str(exc)}, ["tmpfs not clean"]
                if key is not None and artefact is not None:
                    self.keep_artefact(key, artefact)
            anomalies += found
            if artefact is None or not job["tests"]:  # a compile error, or a compile-only job
                detail = report.get("detail", "compilation failed")
                verdict: RunReport = {
                    "status": "compile_error",
                    "detail": detail,
                    "elapsed_s": 0.0,
                }
                return {
                    "id": job.get("id"),
                    "compile": report,
                    "tests": [verdict for _ in job["tests"]],
                    "anomalies": sorted(set(anomalies + self.host.changed_attributes())),
                }
        if job.get("total_timeout_s"):  # counted from here: compilation is not the tests'
            self.budget_end = time.monotonic() + float(job["total_timeout_s"])
        stop_early = bool(job.get("stop_on_first_failure"))
        tests = job["tests"]
        budget = _ANSWER_BUDGET_BYTES
        while len(results) < len(tests):
            if stop_early and results and results[-1].get("stop"):
                results.append({"skipped": True})
                continue
            if self.is_out_of_budget():
                results += [_out_of_budget() for _ in tests[len(results) :]]
                break
            test = tests[len(results)]
            try:
                if language == "python" and test["kind"] in ("assert", "call") and not stop_early:
                    end = len(results)
                    while end < len(tests) and tests[end]["kind"] == test["kind"]:
                        end += 1
                    got, found = self.run_session(
                        test["kind"], tests[len(results) : end], code, limits
                    )
                else:
                    got, found = self.run_test(test, job, artefact, judge)
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
                if result.get("timed_out") and self.is_out_of_budget():
                    result["out_of_budget"] = True
            results += got
            if not self.host.zygote.is_alive:
                break
            if any(judge_outcome(r["judge"]) == "fault" for r in got if "judge" in r):
                reason = "not run: the problem's checker or interactor failed on an earlier test"
                while len(results) < len(tests):
                    results.append({"skipped": True, "reason": reason})
            if not self.host.is_clean and len(results) < len(tests):
                reason = "not run: the sandbox could not be cleaned after this program"
                while len(results) < len(tests):
                    results.append({"skipped": True, "reason": reason})
        while len(results) < len(job["tests"]):
            reason = "not run: the sandbox's process spawner was killed or stopped by this program"
            results.append({"skipped": True, "reason": reason})
        anomalies += self.host.changed_attributes()  # once per job: it only protects later jobs
        return {"id": job.get("id"), "tests": results, "anomalies": sorted(set(anomalies))}

    def prepare_judge(self, job: Job) -> tuple[Judge | None, CompileReport | None, list[str]]:
        """The item's checker program or interactor, compiled once per job where it needs it:
        (judge, None, anomalies), or (None, the compiler's report, anomalies) when it does not
        compile (the problem's fault: `error` on the host)."""
        program = job.get("checker") or job.get("interactor")
        if program is None:
            return None, None, []
        source = program["code"].encode()
        if program["language"] != "cpp":
            return Judge(program["language"], source), None, []
        # compiled like a candidate's C++ (the same table), never from the host's cache
        spec = program_spec(
            "cpp",
            program["code"],
            int(job.get("judge_limits", job["limits"])["memory_mb"]),
            int(job["compile_memory_mb"]),
            {"cpp": list(job["compile_flags"])},
        )
        judge_job: Job = {**job, "language": "cpp", "program": spec.as_job()}
        judge_job.pop("artefact", None)
        judge_job.pop("return_artefact", None)
        files, report, anomalies = compile_program(self.host, source, judge_job)
        if files is None or "main" not in files:
            return None, report, anomalies
        return Judge(program["language"], source, files["main"]), None, anomalies

    def keep_artefact(self, key: str, files: dict[str, bytes]) -> None:
        """Remember an artefact for later items of the same program (bounded, oldest out;
        its memfd, if one was made, goes with it)."""
        self._forget_memfd(key)
        self.artefacts[key] = files
        while len(self.artefacts) > 1 and (
            len(self.artefacts) > _KEPT_ARTEFACTS
            or sum(len(d) for f in self.artefacts.values() for d in f.values()) > _KEPT_BYTES
        ):
            evicted, _ = self.artefacts.popitem(last=False)
            self._forget_memfd(evicted)

    @staticmethod
    def charge_answer(result: RunReport, budget: int) -> int:
        """Keep the job's answer under what the host accepts: once the budget is spent, a
        test's captured output or return value is dropped and counted as over the limit (the
        candidate's failure, never a lost sandbox). Returns the budget left."""
        size = len(json.dumps(result))
        if size <= budget:
            return budget - size
        if "stdout" in result:
            result["stdout"], result["stdout_over"] = "", True
        if "replies" in result:
            result["replies"], result["response_over"] = result["replies"][:1], True
        return budget - min(size, len(json.dumps(result)))

    def run_test(
        self, test: JobTest, job: Job, artefact: dict[str, bytes] | None, judge: Judge | None
    ) -> tuple[list[RunReport], list[str]]:
        """One test in fresh processes: stdio (then its checker program, if any), interactive,
        or a session of one assert/call test."""
        code, limits = job["code"].encode(), job["limits"]
        if test["kind"] == "assert" or test["kind"] == "call":
            return self.run_session(test["kind"], [test], code, limits)
        deadline = self.deadline(float(limits["timeout_s"]))
        judge_limits = job.get("judge_limits", limits)
        if test["kind"] == "interactive":
            if judge is None or "interactor" not in job:
                raise ValueError("an interactive test needs the item's interactor")
            request = program_request(self.host, job, code, artefact)
            interactive_input = test["input"].encode()
            report, anomalies = run_interactive(
                self.host, judge, judge_limits, request, interactive_input, deadline
            )
            return [report], anomalies
        stdin = test["stdin"].encode()
        program_fd = self.program_fd(job, artefact)
        request = program_request(self.host, job, code, artefact, program_fd is not None)
        self.host.fetch_paths = list(job.get("fetch_files", []))  # read by the run's sweep
        try:
            outcome = self.host.run_process(request, stdin, deadline, program_fd)
        finally:
            fetched, self.host.fetch_paths, self.host.fetched = self.host.fetched, [], {}
        report, anomalies = process_report(outcome), outcome["anomalies"]
        if "fetch_files" in job:
            report["files"] = fetched
        if judge is not None and "checker" in job and _exited_cleanly(report):
            # The candidate's run is over and swept: no process of it is left to touch the
            # checker or the files it reads.
            answer = test.get("answer", "").encode()
            verdict, found = run_checker(
                self.host, judge, judge_limits, stdin, outcome["stdout_bytes"], answer
            )
            anomalies += found
            if judge_outcome(verdict) == "fault" and outcome["stdout_bytes"] != answer:
                # Whose fault: the same checker on the same test with the expected answer in
                # place of the output. Accepted: the candidate's bytes made it fail (a text
                # read of output that is not UTF-8, a parse of junk) and the answer is wrong.
                control, found = run_checker(self.host, judge, judge_limits, stdin, answer, answer)
                anomalies += found
                if judge_outcome(control) == "accepted":
                    verdict = {**verdict, "output_at_fault": True}
            report["judge"], report["stdout"] = verdict, ""
        return [report], anomalies


def reset_metadata(fd: int) -> None:
    """Every run of a kept binary starts with the same metadata: a run may have changed its
    mode (chmod /proc/self/exe) or its times (utimensat), which the next job of the program
    would read; its extended attributes are refused by the filter, and removed here too if
    any are found. (Its ctime is the time of this reset, which says nothing of a run.)"""
    os.fchmod(fd, _PROGRAM_MODE)
    os.utime(fd, ns=(0, 0))
    try:
        names = os.listxattr(fd)
    except OSError:  # no extended attributes on this kernel's memfds: nothing to remove
        names = []
    for name in names:
        os.removexattr(fd, name)


def _exited_cleanly(report: RunReport) -> bool:
    """Whether the candidate's run ended by itself with status 0 and its output complete."""
    if report.get("timed_out") or report.get("stdout_over") or report.get("output_over"):
        return False
    return report.get("exit_code") == 0


def _out_of_budget() -> RunReport:
    return {"skipped": True, "out_of_budget": True, "reason": "not run: total_timeout_s ran out"}


# ---------------------------------------------------------------- languages
# The seam for toolchains: how a language's program is compiled (once per job) and started
# (once per run). Everything else in a job is language-independent.


def needs_compile(job: Job) -> bool:
    program = job.get("program")  # hand-made jobs (tests, old hosts) may carry none: python
    return bool(program and program["compile_argv"])


def compile_program(
    host: ProcessHost, source: bytes, job: Job
) -> tuple[dict[str, bytes] | None, CompileReport, list[str]]:
    """(artefact files or None, report, anomalies). The artefact comes from the host's cache
    when the job carries one; else the job's compile command runs once, in a run of its own,
    and its stdout (the artefact tar: the sweep wipes the dir) is carried back."""
    if "artefact" in job:
        blob = base64.b64decode(job["artefact"])
        try:
            return unpack_artefact(blob, _ARTEFACT_LIMIT), {"elapsed_s": 0.0}, []
        except ArtefactError as exc:  # the host's copy of a tar we unpacked before: a fault
            raise RuntimeError(f"cached artefact unusable: {exc}") from exc
    program = job["program"]
    limits = compile_limits(job)
    cwd = host.prepare_dir({program["source_name"]: source})
    request = host.child_request("exec", cwd, limits, argv=program["compile_argv"])
    request = shape_request(
        request,
        program["compile_env"],
        program["compile_memory_rlimit"],
        int(limits["memory_mb"]),
        0,
        int(limits["nproc"]),
    )
    deadline = time.monotonic() + float(job["compile_timeout_s"])
    saved_limit = host.output_limit
    host.output_limit = int(job.get("binary_limit_bytes", _ARTEFACT_LIMIT))
    try:
        outcome = host.run_process(request, b"", deadline)
    finally:
        host.output_limit = saved_limit
    elapsed = round(outcome["elapsed_s"], 4)
    anomalies = outcome["anomalies"]
    if outcome["timed_out"]:
        return None, {"detail": "compilation timed out", "timed_out": True}, anomalies
    if outcome["stdout_over"]:
        return None, {"detail": "the compiled program is too large"}, anomalies
    if outcome["exit_code"] != 0:
        detail = outcome["stderr"][-1500:] or "compilation failed"
        return None, {"detail": detail, "elapsed_s": elapsed}, anomalies
    try:
        files = unpack_artefact(outcome["stdout_bytes"], _ARTEFACT_LIMIT)
    except ArtefactError as exc:
        return None, {"detail": str(exc), "elapsed_s": elapsed}, anomalies
    report: CompileReport = {"elapsed_s": elapsed}
    if job.get("return_artefact"):
        report["artefact"] = base64.b64encode(outcome["stdout_bytes"]).decode()
    return files, report, anomalies


def program_request(
    host: ProcessHost,
    job: Job,
    code: bytes,
    artefact: dict[str, bytes] | None,
    in_memfd: bool = False,
) -> dict[str, Any]:
    """The zygote's request that starts one run of the program in a fresh work dir: Python in
    the warm interpreter; anything else by its run argv, over its artefact (compiled) or its
    source (interpreted), with the language's environment and memory rlimit."""
    limits = job["limits"]
    program = job["program"]
    if job["language"] == "python":
        own = {f"{SOURCE_NAME}.py": code}
        cwd = host.prepare_dir({**work_files(job, own), **own})
        path = os.path.join(cwd, f"{SOURCE_NAME}.py")
        return host.child_request("python-main", cwd, limits, path=path)
    if in_memfd:  # exec'd from the job's memfd: the run gets an empty work dir (and its files)
        cwd = host.prepare_dir(work_files(job, {}))
    else:
        own = artefact if artefact is not None else {program["source_name"]: code}
        cwd = host.prepare_dir({**work_files(job, own), **own})
    request = host.child_request("exec", cwd, limits, argv=run_argv(program, cwd))
    return shape_request(
        request,
        program["run_env"],
        program["memory_rlimit"],
        int(limits["memory_mb"]),
        int(program["memory_slack_mb"]),
        int(program["min_processes"]),
    )


def work_files(job: Job, own: dict[str, bytes]) -> dict[str, bytes]:
    """The job's `files` ({relative path: base64}) as bytes, beside the program's `own` files:
    one whose first component is an own file's is dropped (the program's files win), and so is
    a path that is absolute or holds an empty, `.` or `..` component (the host refused those)."""
    taken = {name.split("/")[0] for name in own}
    files: dict[str, bytes] = {}
    for path, content in job.get("files", {}).items():
        parts = path.split("/")
        if path.startswith("/") or any(part in ("", ".", "..") for part in parts):
            continue
        if parts[0] not in taken:
            files[path] = base64.b64decode(content)
    return files


def process_report(outcome: ProcessOutcome) -> RunReport:
    """A process run as the host sees it (the captured stdout as text)."""
    return {
        "exit_code": outcome["exit_code"],
        "signal": outcome["signal"],
        "timed_out": outcome["timed_out"],
        "stdout": outcome["stdout_bytes"].decode("utf-8", "replace"),
        "stdout_over": outcome["stdout_over"],
        "stderr": outcome["stderr"],
        "elapsed_s": outcome["elapsed_s"],
        "phases_ms": outcome["phases_ms"],
    }


def is_definite_failure(result: RunReport) -> bool:
    """A failure visible inside the container (wrong outputs are only known to the host)."""
    if "judge" in result and judge_outcome(result["judge"]) != "accepted":
        return True
    if any(result.get(k) for k in ("timed_out", "response_over", "stdout_over", "output_over")):
        return True
    if "verdict" in result:
        return (result["verdict"] or {}).get("status") != "passed"
    if "replies" in result:
        replies = result["replies"]
        return len(replies) < 2 or "value" not in replies[-1]
    return result.get("exit_code") != 0


# What a call session's reply line may carry to the host, all scalars (`value`/`args` are the
# codec's encoded text). A forged line from the candidate could hold any JSON tree; passed on, the
# host would parse it on its event loop as part of the job's answer, so anything else is dropped.
_REPLY_KEYS = frozenset(
    {"value", "args", "raised", "message", "memory", "unplain", "ready", "load", "detail"}
)
_SCALARS = (str, int, float, bool, type(None))


def _reply_fields(message: dict[str, Any]) -> Reply:
    """The known keys of a reply line with scalar values (a nested `ready` becomes True)."""
    kept: dict[str, Any] = {}
    for key in _REPLY_KEYS.intersection(message):
        value = message[key]
        if key == "ready":
            kept[key] = True
        elif type(value) in _SCALARS:
            kept[key] = value
    return cast(Reply, kept)
