"""What a job does with its tests, inside the container (stdlib only; in sandboxes).

A job (`protocol.Job`) is one item: compile once if the language needs it, then each test in a
fresh run (stdio, interactive), or consecutive tests in one serving candidate process (Python
call/assert sessions, `sessions.py`), stopping early where asked; the answer
(`protocol.JobResult`) is kept under what the host accepts. Processes, pipes and cleanup are
`supervisor.py`'s; the toolchain (how a program is compiled and started) `toolchain.py`'s; the
artefacts kept between jobs `artefacts.py`'s.
"""

from __future__ import annotations

import json
import time

from rlvr.verifier.sandbox.inside.artefacts import ArtefactStore
from rlvr.verifier.sandbox.inside.judges import Judge, judge_report, run_checker, run_interactive
from rlvr.verifier.sandbox.inside.sessions import Budget, PythonSessions
from rlvr.verifier.sandbox.inside.supervisor import (
    ContainerDirty,
    ProcessOutcome,
    Supervisor,
)
from rlvr.verifier.sandbox.inside.toolchain import (
    compile_program,
    needs_compile,
    program_request,
)
from rlvr.verifier.sandbox.inside.zygote import ZygoteLost
from rlvr.verifier.sandbox.wire.languages import program_spec
from rlvr.verifier.sandbox.wire.protocol import (
    CompileErrorReport,
    CompileReport,
    Job,
    JobResult,
    JobTest,
    JudgeReport,
    RunReport,
    SkippedReport,
    SkipReason,
    StdioReport,
    judge_outcome,
)

# What one job's answer may carry, JSON-encoded: each test's output is capped, but many tests of
# escaped control characters (6 bytes each) are not. The host parses the answer with one
# `json.loads` on its event loop (C code holding the GIL: a thread would not help), which takes
# about 0.1 s for 16 MiB of escapes on a loaded 2-core machine and 0.5 s for 64 MiB. Tests past
# the budget count as over the output limit.
_ANSWER_BUDGET_BYTES = 16 << 20


class JobRunner:
    """Runs jobs on PID 1's processes (`Supervisor`)."""

    def __init__(self, supervisor: Supervisor, artefacts: ArtefactStore | None = None) -> None:
        self.supervisor = supervisor
        self.budget = Budget()
        self.sessions = PythonSessions(supervisor, self.budget)
        self.artefacts = artefacts if artefacts is not None else ArtefactStore()

    def run_job(self, job: Job) -> JobResult:
        try:
            with self.supervisor.job_space():  # fresh namespaces, where the container has them
                result = self._run_job(job)
            if job.get("artefact_key") is not None:  # what it keeps is PID 1's decision alone
                result["artefact_keys"] = self.artefacts.keys()
            return result
        finally:
            self.artefacts.end_job()

    def _run_job(self, job: Job) -> JobResult:
        limits = job["limits"]
        language = job["language"]
        code = job["code"].encode()
        anomalies: list[str] = []
        results: list[RunReport] = []
        artefact: dict[str, bytes] | None = None
        self.budget.end = None
        try:  # (a compile-only job has no tests to judge)
            judge, judge_failure, found = (
                self.prepare_judge(job) if job["tests"] else (None, None, [])
            )
        except ContainerDirty as exc:
            judge, judge_failure, found = None, {"detail": str(exc)}, ["tmpfs not clean"]
        anomalies += found
        if judge_failure is not None:
            why = str(judge_failure.get("detail", "compilation failed"))
            note = judge_report(None, None, False, f"did not compile: {why}", 0.0)
            return {
                "id": job.get("id"),
                "judge_compile": judge_failure,
                "tests": [_skipped(SkipReason.JUDGE_NOT_COMPILED, note) for _ in job["tests"]],
                "anomalies": sorted(set(anomalies + self.supervisor.changed_attributes())),
            }
        if needs_compile(job):
            key = job.get("artefact_key")
            if key is not None and "artefact" not in job and not job.get("return_artefact"):
                artefact = self.artefacts.take(key)
                if artefact is None:  # evicted, or a new container: the host sends the bytes
                    return {"id": job.get("id"), "tests": [], "missing_artefact": True}
                report: CompileReport = {"elapsed_s": 0.0}
                found = []
            else:
                try:
                    artefact, report, found = compile_program(self.supervisor, code, job)
                except ContainerDirty as exc:
                    artefact, report, found = None, {"detail": str(exc)}, ["tmpfs not clean"]
                if key is not None and artefact is not None:
                    self.artefacts.keep(key, artefact)
            anomalies += found
            if artefact is None or not job["tests"]:  # a compile error, or a compile-only job
                verdict: CompileErrorReport = {
                    "kind": "compile_error",
                    "detail": report.get("detail", "compilation failed"),
                    "timed_out": bool(report.get("timed_out")),
                    "elapsed_s": 0.0,
                }
                return {
                    "id": job.get("id"),
                    "compile": report,
                    "tests": [verdict for _ in job["tests"]],
                    "anomalies": sorted(set(anomalies + self.supervisor.changed_attributes())),
                }
        if job.get("total_timeout_s"):  # counted from here: compilation is not the tests'
            self.budget.end = time.monotonic() + float(job["total_timeout_s"])
        stop_early = bool(job.get("stop_on_first_failure"))
        tests = job["tests"]
        budget = _ANSWER_BUDGET_BYTES
        skip: SkipReason | None = None  # once set, no test left runs, for this reason
        while len(results) < len(tests) and skip is None:
            if self.budget.is_out():
                skip = SkipReason.OUT_OF_BUDGET
                break
            test = tests[len(results)]
            try:
                if language == "python" and test["kind"] in ("assert", "call") and not stop_early:
                    end = len(results)
                    while end < len(tests) and tests[end]["kind"] == test["kind"]:
                        end += 1
                    got, found = self.sessions.run(
                        test["kind"], tests[len(results) : end], code, limits
                    )
                else:
                    got, found = self.run_test(test, job, artefact, judge)
            except ZygoteLost:
                anomalies.append("zygote lost")
                skip = SkipReason.SPAWNER_LOST
                break
            except ContainerDirty:
                anomalies.append("tmpfs not clean")
                skip = SkipReason.NOT_CLEANED
                break
            anomalies += found
            for result in got:
                budget = self.charge_answer(result, budget)
                if result["kind"] == "skipped" or result["kind"] == "compile_error":
                    continue
                if result["timed_out"] and self.budget.is_out():
                    result["out_of_budget"] = True
            results += got
            if not self.supervisor.zygote.is_alive:
                skip = SkipReason.SPAWNER_LOST
            elif any(_judge_failed(r) for r in got):
                skip = SkipReason.JUDGE_FAILED
            elif not self.supervisor.is_clean:
                skip = SkipReason.NOT_CLEANED
            elif stop_early and any(is_definite_failure(r) for r in got):
                skip = SkipReason.AFTER_FAILURE
        # (a session that ended with the spawner's loss did not reach the rest: not run)
        results += [_skipped(skip or SkipReason.SPAWNER_LOST) for _ in tests[len(results) :]]
        # once per job: it only protects later jobs
        anomalies += self.supervisor.changed_attributes()
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
        files, report, anomalies = compile_program(self.supervisor, source, judge_job)
        if files is None or "main" not in files:
            return None, report, anomalies
        return Judge(program["language"], source, files["main"]), None, anomalies

    @staticmethod
    def charge_answer(result: RunReport, budget: int) -> int:
        """Keep the job's answer under what the host accepts: once the budget is spent, a
        test's captured output or return value is dropped and counted as over the limit (the
        candidate's failure, never a lost sandbox). Returns the budget left."""
        size = len(json.dumps(result))
        if size <= budget:
            return budget - size
        if result["kind"] == "stdio":
            result["stdout"], result["stdout_over"] = "", True
        elif result["kind"] == "call":
            result["replies"], result["response_over"] = result["replies"][:1], True
        return budget - min(size, len(json.dumps(result)))

    def run_test(
        self, test: JobTest, job: Job, artefact: dict[str, bytes] | None, judge: Judge | None
    ) -> tuple[list[RunReport], list[str]]:
        """One test in fresh processes: stdio (then its checker program, if any), interactive,
        or a session of one assert/call test."""
        code, limits = job["code"].encode(), job["limits"]
        if test["kind"] == "assert" or test["kind"] == "call":
            return self.sessions.run(test["kind"], [test], code, limits)
        deadline = self.budget.deadline(float(limits["timeout_s"]))
        judge_limits = job.get("judge_limits", limits)
        if test["kind"] == "interactive":
            if judge is None or "interactor" not in job:
                raise ValueError("an interactive test needs the item's interactor")
            request = program_request(self.supervisor, job, code, artefact)
            interactive_input = test["input"].encode()
            interaction, anomalies = run_interactive(
                self.supervisor, judge, judge_limits, request, interactive_input, deadline
            )
            return [interaction], anomalies
        stdin = test["stdin"].encode()
        program_fd = (
            None if self.supervisor.launcher is None else self.artefacts.program_fd(job, artefact)
        )
        request = program_request(self.supervisor, job, code, artefact, program_fd is not None)
        self.supervisor.fetch_paths = list(job.get("fetch_files", []))  # read by the sweep
        try:
            outcome = self.supervisor.run_process(request, stdin, deadline, program_fd)
        finally:
            fetched = self.supervisor.fetched
            self.supervisor.fetch_paths, self.supervisor.fetched = [], {}
        report, anomalies = process_report(outcome), outcome["anomalies"]
        if "fetch_files" in job:
            report["files"] = fetched
        if judge is not None and "checker" in job and _exited_cleanly(report):
            # The candidate's run is over and swept: no process of it is left to touch the
            # checker or the files it reads.
            answer = test.get("answer", "").encode()
            verdict, found = run_checker(
                self.supervisor, judge, judge_limits, stdin, outcome["stdout_bytes"], answer
            )
            anomalies += found
            if judge_outcome(verdict) == "fault" and outcome["stdout_bytes"] != answer:
                # Whose fault: the same checker on the same test with the expected answer in
                # place of the output. Accepted: the candidate's bytes made it fail (a text
                # read of output that is not UTF-8, a parse of junk) and the answer is wrong.
                control, found = run_checker(
                    self.supervisor, judge, judge_limits, stdin, answer, answer
                )
                anomalies += found
                if judge_outcome(control) == "accepted":
                    verdict = {**verdict, "output_at_fault": True}
            report["judge"], report["stdout"] = verdict, ""
        return [report], anomalies


def _exited_cleanly(report: StdioReport) -> bool:
    """Whether the candidate's run ended by itself with status 0 and its output complete."""
    if report["timed_out"] or report["stdout_over"]:
        return False
    return report["exit_code"] == 0


def _judge_failed(report: RunReport) -> bool:
    """Whether the item's checker or interactor failed itself on this test (not a skip: a judge
    that did not compile is reported before any test)."""
    if report["kind"] != "stdio" and report["kind"] != "interactive":
        return False
    return "judge" in report and judge_outcome(report["judge"]) == "fault"


def _skipped(reason: SkipReason, judge: JudgeReport | None = None) -> SkippedReport:
    report: SkippedReport = {"kind": "skipped", "reason": reason}
    if judge is not None:
        report["judge"] = judge
    return report


def process_report(outcome: ProcessOutcome) -> StdioReport:
    """A process run as the host sees it (the captured stdout as text)."""
    return {
        "kind": "stdio",
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
    if result["kind"] == "skipped" or result["kind"] == "compile_error":
        return True
    if result["timed_out"]:
        return True
    if result["kind"] == "call":
        replies = result["replies"]
        is_over = result["response_over"] or result["output_over"]
        return is_over or len(replies) < 2 or "value" not in replies[-1]
    if result["kind"] == "assert":
        verdict = result["verdict"]
        return result["output_over"] or verdict is None or verdict.get("status") != "passed"
    if "judge" in result and judge_outcome(result["judge"]) != "accepted":
        return True
    over = result["stdout_over"] if result["kind"] == "stdio" else result["output_over"]
    return over or result["exit_code"] != 0
