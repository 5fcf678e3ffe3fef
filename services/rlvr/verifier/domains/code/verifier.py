"""CodeVerifier: items -> jobs on the warm sandbox pool -> per-test verdicts and rewards.

The one place where the verifier's own faults (sandbox unreachable, died mid-job) become `error`
results; everything the candidate does is a verdict produced by `check.py`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from rlvr.schemas.code import (
    CodeItem,
    CodeResult,
    TestStatus,
    TestVerdict,
    unicode_text,
)
from rlvr.schemas.common import DomainHealth, Status
from rlvr.verifier.domains.batching import Admission, item_result
from rlvr.verifier.domains.code.check import JudgeFault, decode_reports, grade_reports
from rlvr.verifier.domains.code.compiled import CompileCache, CompileOutcome, compile_key
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.deadlines import acquire_timeout_s, job_deadline_s
from rlvr.verifier.domains.code.dedup import Batch, VerdictReuse
from rlvr.verifier.domains.code.extract import extract_code
from rlvr.verifier.domains.code.job_builder import build_job
from rlvr.verifier.domains.code.scoring import scored_outcome
from rlvr.verifier.sandbox.host.backend import SandboxBackend, SandboxError, SandboxLost
from rlvr.verifier.sandbox.host.pool import SandboxPool
from rlvr.verifier.sandbox.wire.protocol import CompileErrorReport, Job, JobResult, RunReport

log = logging.getLogger(__name__)
T = TypeVar("T")


def error_result(item: CodeItem, detail: str, elapsed_s: float) -> CodeResult:
    # The detail may quote an exception or a sandbox's stderr tail: the factory clips it.
    return item_result(CodeResult, item.id, Status.error, detail, elapsed_s)


def no_code_result(item: CodeItem, detail: str = "") -> CodeResult:
    detail = detail or f"no fenced {item.language} code block in the response"
    tests = [
        TestVerdict(status=TestStatus.failed, elapsed_s=0.0, detail=detail) for _ in item.tests
    ]
    return item_result(CodeResult, item.id, Status.failed, detail, 0.0, tests=tests)


class CodeVerifier:
    def __init__(self, settings: CodeSettings, pool: SandboxPool | None) -> None:
        self.settings = settings
        self.pool = pool
        self.admission = Admission(
            "code", settings.max_queue_items, "max_queue_items", retry_after_s=2
        )
        self.reuse = VerdictReuse(settings)
        self.compiles = CompileCache(settings.compile_cache_mb << 20)
        # per sandbox (by name), the compile keys its PID 1 said it holds after its last job
        self._artefacts_held: OrderedDict[str, frozenset[str]] = OrderedDict()
        # how compiled programs reached containers: with their bytes, by key alone, and the
        # keys a container no longer held (a round trip)
        self.artefact_stats = {"with_bytes": 0, "by_key": 0, "missing": 0}
        # The host's per-item text work (extraction, job building, grading) runs here, off the
        # event loop, in threads of its own: it neither waits behind nor starves the default
        # executor's Docker calls (container start/remove), and its queue is the code items'.
        self._work = ThreadPoolExecutor(
            max_workers=max(2, os.cpu_count() or 2), thread_name_prefix="code-host"
        )

    async def _off_loop(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._work, fn, *args)

    def close(self) -> None:
        self._work.shutdown(wait=False, cancel_futures=True)

    def health(self) -> DomainHealth:
        if self.pool is None:
            return DomainHealth(
                ok=False,
                offered=False,
                detail="code verifier disabled (VERIFIER_CODE__IS_ENABLED)",
            )
        stats = {
            **self.pool.stats(),
            **self.admission.stats(),
            **self.reuse.stats(),
            "compile_cache": self.compiles.stats(),
            "artefacts": dict(self.artefact_stats),
        }
        if self.pool.is_failing:
            return DomainHealth(
                ok=False, detail=f"sandbox unavailable: {self.pool.last_error}", stats=stats
            )
        if stats["live"] == 0:
            return DomainHealth(ok=False, detail="no sandbox started yet", stats=stats)
        return DomainHealth(ok=True, stats=stats)

    async def verify_batch(self, items: Sequence[CodeItem]) -> list[CodeResult]:
        async with self.admission.admit(len(items)):  # Overloaded -> 503 for the whole batch
            batch: Batch = {}  # identical items of this request run once (dedup.py)
            return list(await asyncio.gather(*(self._verify_item(item, batch) for item in items)))

    async def _verify_item(self, item: CodeItem, batch: Batch) -> CodeResult:
        """One item's result, whatever happens: a fault of the verifier's while grading this item
        is this item's `error`, never an exception that fails the whole batch (HTTP 500)."""
        started = time.perf_counter()
        try:
            return await self._run_item(item, started, batch)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("verifier fault on item %s", item.id)
            elapsed_s = round(time.perf_counter() - started, 6)
            return error_result(item, f"verifier fault: {type(exc).__name__}: {exc}", elapsed_s)

    async def execute_program(
        self, job: Job
    ) -> tuple[CompileOutcome | None, JobResult | None, str]:
        """(the compile's outcome, or None for an interpreted language; the executor's answer,
        or None; the last sandbox error). A compiled language is compiled once per distinct
        program (the host's cache, single flight) and run from its artefact; a program that
        does not compile is not run (answer None, no error)."""
        if not job["program"]["compile_argv"]:
            return None, *await self._run_raw(job)
        key = compile_key(job, self.settings.sandbox.image)
        outcome = await self.compiles.outcome(key, lambda: self._compile(job, key))
        if outcome.fault:
            return outcome, None, outcome.detail
        if outcome.artefact_b64 is None:
            return outcome, None, ""
        job["artefact"], job["artefact_key"] = outcome.artefact_b64, key
        return outcome, *await self._run_raw(job)

    async def _execute(self, job: Job) -> tuple[JobResult | None, str]:
        """The executor's answer for `job`, or (None, the last sandbox error); a compile error
        answers every test without a run."""
        outcome, raw, last_error = await self.execute_program(job)
        if outcome is None or outcome.fault or outcome.artefact_b64 is not None:
            return raw, last_error
        verdict: CompileErrorReport = {
            "kind": "compile_error",
            "detail": outcome.detail,
            "timed_out": outcome.is_timed_out,
            "elapsed_s": 0.0,
        }
        return {"tests": [verdict for _ in job["tests"]]}, ""

    async def _run_raw(self, job: Job) -> tuple[JobResult | None, str]:
        """(the executor's answer or None, the last sandbox error): retried on another sandbox
        when one died mid-job."""
        assert self.pool is not None
        last_error = ""
        for _attempt in range(1 + self.settings.retries):
            try:
                async with self.pool.acquire() as sandbox:
                    return await self._run_on(sandbox, job), ""
            except SandboxLost as exc:
                last_error = str(exc)
                log.warning("sandbox lost during item %s: %s", job.get("id"), exc)
            except SandboxError as exc:
                return None, str(exc)
        return None, last_error

    async def _run_on(self, sandbox: Any, job: Job) -> JobResult:
        """Run `job` on `sandbox`; an artefact that sandbox holds already goes as its key only
        (a 2 MB Go binary is not sent again with every item of the same program)."""
        key = job.get("artefact_key")
        if key is None:
            return await sandbox.run(job, job_deadline_s(job))
        if "artefact" in job and key in self._artefacts_held.get(sandbox.name, ()):
            light: Job = {**job}
            light.pop("artefact", None)
            result: JobResult = await sandbox.run(light, job_deadline_s(light))
            if not result.get("missing_artefact"):
                self.artefact_stats["by_key"] += 1
                self._note_held(sandbox.name, result)
                return result
            self.artefact_stats["missing"] += 1
        if "artefact" in job:
            self.artefact_stats["with_bytes"] += 1
        result = await sandbox.run(job, job_deadline_s(job))
        self._note_held(sandbox.name, result)
        return result

    def _note_held(self, name: str, result: JobResult) -> None:
        keys = result.get("artefact_keys")
        self._artefacts_held.pop(name, None)
        if type(keys) is list and all(type(k) is str for k in keys):
            self._artefacts_held[name] = frozenset(keys)
        while len(self._artefacts_held) > 256:  # forget retired containers
            self._artefacts_held.popitem(last=False)

    async def _compile(self, job: Job, key: str) -> CompileOutcome:
        """A compile-only job: the artefact comes back to the host (and into the cache), and
        stays in the compiling container under its key (its next item goes by key alone)."""
        compile_job: Job = {**job, "tests": [], "return_artefact": True, "artefact_key": key}
        raw, last_error = await self._run_raw(compile_job)
        if raw is None or "fault" in raw:
            detail = last_error if raw is None else f"executor fault: {raw['fault']}"
            return CompileOutcome(None, detail=detail, is_cacheable=False, fault=True)
        report = raw.get("compile") or {}
        elapsed_s = float(report.get("elapsed_s") or 0.0)
        artefact = report.get("artefact")
        if type(artefact) is str:
            return CompileOutcome(artefact, elapsed_s=elapsed_s)
        detail = str(report.get("detail") or "compilation failed")
        # a timeout may be the machine's load, and a dirty sandbox is not the program's doing
        is_timed_out = bool(report.get("timed_out"))
        is_cacheable = not is_timed_out and not raw.get("anomalies")
        return CompileOutcome(
            None,
            detail=detail,
            elapsed_s=elapsed_s,
            is_cacheable=is_cacheable,
            is_timed_out=is_timed_out,
        )

    async def _run_item(self, item: CodeItem, started: float, batch: Batch) -> CodeResult:
        # Extraction and grading are per-item text work: off the event loop (bounded, linear).
        code = (
            item.code
            if item.code is not None
            else await self._off_loop(extract_code, item.response or "", item.language)
        )
        if code is None:
            return no_code_result(item)
        try:
            unicode_text(code, "the program")
        except ValueError as exc:  # the candidate's text: a failure, never an executor fault
            return no_code_result(item, str(exc))
        if self.pool is None:
            return error_result(item, "code verifier disabled", 0.0)
        # one hop off the loop for both: the job (it encodes the args) and its reuse key
        job, key = await self._off_loop(self._job_and_key, item, code)
        async with self.reuse.claim(key, item, batch) as claim:
            if claim.copied is not None:
                return claim.copied
            result, reports = await self._run_job(item, job, started)
            claim.publish(result, reports)
            return result

    def _job_and_key(self, item: CodeItem, code: str) -> tuple[Job, bytes | None]:
        job = build_job(item, code, self.settings)
        return job, self.reuse.key(item, code, job)

    async def _run_job(
        self, item: CodeItem, job: Job, started: float
    ) -> tuple[CodeResult, list[RunReport]]:
        """Run the job (compiled once per distinct program) and judge its answer: the item's
        own result, and the executor's reports it was judged from (none for an `error`)."""
        raw, last_error = await self._execute(job)
        if raw is None:
            elapsed_s = round(time.perf_counter() - started, 6)
            return error_result(item, f"sandbox error: {last_error}", elapsed_s), []
        if "fault" in raw:
            log.error("executor fault on item %s: %s", item.id, raw["fault"])
            elapsed_s = round(time.perf_counter() - started, 6)
            return error_result(item, f"executor fault: {raw['fault']}", elapsed_s), []
        try:
            # Grading is charged to the item: its time counts in elapsed_s, and grading that
            # overran the job's own deadline would be a verifier fault (`error`).
            reports, verdicts = await asyncio.wait_for(
                self._off_loop(_grade, item, raw.get("tests", [])), job_deadline_s(job)
            )
        except JudgeFault as exc:  # the problem's checker/interactor failed: not the candidate
            elapsed_s = round(time.perf_counter() - started, 6)
            return error_result(item, str(exc), elapsed_s), []
        except ValueError as exc:
            elapsed_s = round(time.perf_counter() - started, 6)
            return error_result(item, f"executor answer malformed: {exc}", elapsed_s), []
        elapsed_s = round(time.perf_counter() - started, 6)
        status, reward, detail = scored_outcome(item, verdicts)
        result = item_result(
            CodeResult, item.id, status, detail, elapsed_s, score=reward, tests=verdicts
        )
        return result, reports


def _grade(item: CodeItem, raw_tests: object) -> tuple[list[RunReport], list[TestVerdict]]:
    """The executor's reports, decoded, and the verdicts graded from them (off the loop)."""
    reports = decode_reports(item, raw_tests)
    return reports, grade_reports(item, reports)


def make_backend(settings: CodeSettings) -> SandboxBackend:
    from rlvr.verifier.sandbox.host.docker import DockerBackend

    return DockerBackend(settings.sandbox)


@asynccontextmanager
async def open_code_verifier(
    settings: CodeSettings, backend: SandboxBackend | None = None
) -> AsyncIterator[CodeVerifier]:
    """Start the warm pool (unless disabled); on exit remove every container it started.

    Startup never fails because Docker is down: /health reports it and items get `error`.
    """
    if not settings.is_enabled:
        verifier = CodeVerifier(settings, None)
        try:
            yield verifier
        finally:
            verifier.close()
        return
    try:
        backend = backend or make_backend(settings)
    except SandboxError as exc:
        log.error("code sandbox backend unusable: %s", exc)
        pool = SandboxPool(_DeadBackend(str(exc)), settings.pool_size, 1)
    else:
        pool = SandboxPool(
            backend,
            size=settings.pool_size,
            max_jobs_per_sandbox=settings.max_jobs_per_sandbox,
            acquire_timeout_s=acquire_timeout_s(settings),
        )
    await pool.start(settings.warm_timeout_s)
    log.info("code sandbox pool: %s", pool.stats())
    verifier = CodeVerifier(settings, pool)
    try:
        yield verifier
    finally:
        verifier.close()
        await pool.close()


class _DeadBackend:
    """A backend that cannot exist (bad configuration): every start fails with the reason."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    async def start(self) -> Any:
        raise SandboxError(self.reason)

    async def remove(self, sandbox: Any) -> None:
        return None

    async def cleanup_stale(self) -> int:
        return 0

    async def close(self) -> None:
        return None
