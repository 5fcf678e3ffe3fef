"""LeanVerifier: pre-check, then reference + submission + trusted check on a warm REPL, per item.

Every REPL runs in a locked-down container (`container.py`) unless the settings ask for the
UNSAFE development mode. Without a toolchain (no Lean image, no Docker engine, or with
`unsafe_process` no `repl` binary) the verifier still starts: `/health` says why it is not ok and
every item that passed the pre-check gets an `error` verdict (reward null) with that detail,
without waiting. Items are judged concurrently, as many at once as the pool has REPLs.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import re
import shutil
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from rlvr.schemas.common import DomainHealth, Status
from rlvr.schemas.lean import LeanItem, LeanMessageOut, LeanResult
from rlvr.verifier.domains.batching import Admission, item_result, item_timeout_s
from rlvr.verifier.domains.lean.check import (
    SUBMISSION_LINE_OFFSET,
    CheckNames,
    Judgement,
    check_command,
    judge_check,
    judge_reference,
    judge_submission,
    open_scopes,
    reference_command,
    reference_name,
    shift_lines,
    submission_command,
)
from rlvr.verifier.domains.lean.config import LeanSettings
from rlvr.verifier.domains.lean.container import LeanContainers
from rlvr.verifier.domains.lean.pool import HeaderFailed, ReplPool, WarmRepl
from rlvr.verifier.domains.lean.precheck import precheck
from rlvr.verifier.domains.lean.protocol import LeanMessage, Reply
from rlvr.verifier.domains.lean.repl import ReplCrashed, ReplTimeout
from rlvr.verifier.domains.lean.source import (
    Statement,
    StatementError,
    last_lean_block,
    parse_statement,
    proof_code,
)

log = logging.getLogger(__name__)

_MAX_REFERENCES_PER_REPL = 256
_OPENS_NAMESPACE = re.compile(r"(?<![\w'.])namespace(?![\w'!?])")
# What a result carries back of Lean's messages (a proof can make Lean print megabytes).
_MAX_MESSAGES = 50
_MAX_MESSAGE_CHARS = 4000


def find_toolchain(settings: LeanSettings) -> str | None:
    """None when the REPL can be started, else a sentence saying what is missing."""
    argv = settings.command()
    if not argv:
        return "VERIFIER_LEAN__REPL_COMMAND is empty"
    program = argv[0]
    if shutil.which(program) is None and not (
        Path(program).is_file() and Path(program).stat().st_mode & 0o111
    ):
        return (
            f"no Lean toolchain: `{program}` not found (install with docker/lean/install_lean.sh, "
            "or set VERIFIER_LEAN__REPL_PATH / VERIFIER_LEAN__REPL_COMMAND)"
        )
    project = settings.project_dir
    if project and not settings.repl_command and not Path(project).is_dir():
        return f"VERIFIER_LEAN__PROJECT_DIR {settings.project_dir} is not a directory"
    return None


class ProofCrashed(Exception):
    """The REPL died while elaborating the submission or its check (not the header or the
    reference statement, which are the caller's)."""


async def _run_proof(warm: WarmRepl, cmd: str, env: int | None, timeout_s: float) -> Reply:
    try:
        return await warm.run(cmd, env, timeout_s)
    except ReplCrashed as exc:
        raise ProofCrashed(str(exc)) from exc


@dataclass(frozen=True)
class Job:
    """An item that passed the pre-check: what to send to Lean."""

    index: int
    item: LeanItem
    header: str
    statement: Statement
    code: str
    timeout_s: float


def _result(
    item: LeanItem,
    status: Status,
    detail: str,
    started: float,
    messages: Sequence[LeanMessage] = (),
    axioms: Sequence[str] = (),
) -> LeanResult:
    return item_result(
        LeanResult,
        item.id,
        status,
        detail,
        time.perf_counter() - started,
        messages=[
            LeanMessageOut(
                severity=m.severity, line=m.line, column=m.column, text=m.text[:_MAX_MESSAGE_CHARS]
            )
            for m in messages[:_MAX_MESSAGES]
        ],
        axioms=list(axioms),
    )


# Threads of the pre-check (pure Python, so more would only contend for the GIL).
PRECHECK_THREADS = 2


class LeanVerifier:
    def __init__(
        self, settings: LeanSettings, pool: ReplPool | None, unavailable: str | None = None
    ) -> None:
        self.settings = settings
        self.pool = pool
        self.proof_crashes = 0  # REPLs killed by a submission (each crash, retried or not)
        self.admission = Admission("lean", settings.max_queue, "max_queue", settings.retry_after_s)
        self._precheck_threads: concurrent.futures.ThreadPoolExecutor | None = None
        if not settings.is_enabled:
            unavailable = "disabled by settings (VERIFIER_LEAN__IS_ENABLED=false)"
        elif unavailable is None and not settings.is_sandboxed:
            unavailable = find_toolchain(settings)
        self.unavailable = unavailable

    # -- preparation (no Lean) -------------------------------------------------------------
    def _prepare(self, index: int, item: LeanItem, started: float) -> Job | LeanResult:
        header = item.header if item.header is not None else self.settings.default_header
        refusal = precheck(header, allow_imports=True)
        if refusal:
            return _result(item, Status.error, f"header {refusal.detail}", started)
        if _OPENS_NAMESPACE.search(header):
            detail = "the header must not open a `namespace`: the statement's name is a root name"
            return _result(item, Status.error, detail, started)
        try:
            statement = parse_statement(item.statement)
        except StatementError as exc:
            return _result(item, Status.error, str(exc), started)
        refusal = precheck(item.statement)
        if refusal:
            return _result(item, Status.error, f"statement {refusal.detail}", started)
        if item.proof is not None:
            proof = item.proof
        else:
            block = last_lean_block(item.response or "")
            if block is None:
                return _result(item, Status.failed, "no ```lean block in the response", started)
            proof = block
        if not proof.strip():
            return _result(item, Status.failed, "the proof is empty", started)
        refusal = precheck(proof)
        if refusal:
            return _result(item, Status.failed, refusal.detail, started)
        timeout_s = item_timeout_s(item.timeout_s, self.settings)
        return Job(index, item, header, statement, proof_code(statement, proof), timeout_s)

    # -- the Lean part ---------------------------------------------------------------------
    async def _reference(
        self, warm: WarmRepl, statement: Statement, deadline: float
    ) -> tuple[str, int, tuple[LeanMessage, ...]] | str:
        """The reference axiom in this REPL (name, env, its reply's messages), or why not."""
        key = f"{statement.name}\n{statement.signature}"  # the name probe is part of it
        cached = warm.references.get(key)
        if cached is not None:
            warm.references.move_to_end(key)
            return cached
        name = reference_name(statement)
        reply = await warm.run(
            reference_command(statement, name), warm.header_env, deadline - time.monotonic()
        )
        problem = judge_reference(reply.since(warm.header_messages), statement)
        if problem is not None or reply.env is None:
            return problem or "the REPL gave no env for the statement"
        warm.references[key] = (name, reply.env, reply.messages)
        while len(warm.references) > _MAX_REFERENCES_PER_REPL:
            warm.references.popitem(last=False)
        return name, reply.env, reply.messages

    async def _check(self, warm: WarmRepl, job: Job, started: float) -> LeanResult:
        deadline = time.monotonic() + job.timeout_s
        reference = await self._reference(warm, job.statement, deadline)
        if isinstance(reference, str):
            return _result(job.item, Status.error, reference, started)
        ref_name, ref_env, ref_messages = reference
        names = CheckNames.fresh(job.statement.name, ref_name)
        warm.repl.proofs += 1
        raw = await _run_proof(
            warm, submission_command(job.code, names), ref_env, deadline - time.monotonic()
        )
        reply = raw.since(ref_messages)
        messages = shift_lines(reply.messages, SUBMISSION_LINE_OFFSET)
        verdict: Judgement | None = judge_submission(reply)
        if verdict is None:
            if reply.env is None:
                return _result(job.item, Status.error, "the REPL gave no env", started, messages)
            check_reply = await _run_proof(
                warm,
                check_command(names, open_scopes(job.code)),
                reply.env,
                deadline - time.monotonic(),
            )
            verdict = judge_check(check_reply.since(raw.messages), names)
        status = Status.passed if verdict.is_passed else Status.failed
        return _result(job.item, status, verdict.detail, started, messages, verdict.axioms)

    async def _attempt(self, job: Job, started: float) -> LeanResult:
        assert self.pool is not None
        async with self.pool.acquire(job.header) as warm:
            return await self._check(warm, job, started)

    async def _run(self, job: Job, started: float) -> LeanResult:
        assert self.pool is not None
        try:
            try:
                return await self._attempt(job, started)
            except ProofCrashed as first:
                self.proof_crashes += 1
                # Once may be bad luck (the OOM killer, a signal); twice, on another REPL, is
                # the proof's doing: the candidate's fault, reward 0, like a sandbox memory kill.
                log.warning("item %s crashed the Lean REPL (%s); retrying once", job.index, first)
                try:
                    return await self._attempt(job, started)
                except ProofCrashed as second:
                    self.proof_crashes += 1
                    detail = f"the proof crashed the Lean REPL twice, on two REPLs: {second}"
                    return _result(job.item, Status.failed, detail, started)
        except ReplTimeout:
            return _result(
                job.item,
                Status.timed_out,
                f"no verdict within {job.timeout_s:g} s; the REPL was killed",
                started,
            )
        except HeaderFailed as exc:
            return _result(job.item, Status.error, str(exc), started)
        except ReplCrashed as exc:
            return _result(job.item, Status.error, f"the Lean REPL failed: {exc}", started)
        except Exception:  # our own bug: one item's error, logged, never the whole batch
            log.exception("lean verification failed for item %s", job.index)
            return _result(job.item, Status.error, "internal error; see server logs", started)

    async def _prepare_all(
        self, items: Sequence[LeanItem], started: float
    ) -> list[Job | LeanResult]:
        """Each item's pre-check, on the verifier's own threads (not the default pool that math
        and Docker calls share), one task per item: a batch whose client left is cancelled
        there, and what no thread has started is dropped."""
        if self._precheck_threads is None:
            self._precheck_threads = concurrent.futures.ThreadPoolExecutor(
                max_workers=PRECHECK_THREADS, thread_name_prefix="lean-precheck"
            )
        loop = asyncio.get_running_loop()
        return list(
            await asyncio.gather(
                *(
                    loop.run_in_executor(self._precheck_threads, self._prepare, i, item, started)
                    for i, item in enumerate(items)
                )
            )
        )

    def close(self) -> None:
        """Stop the pre-check threads (what is queued there is dropped)."""
        if self._precheck_threads is not None:
            self._precheck_threads.shutdown(wait=False, cancel_futures=True)

    async def verify_batch(self, items: Sequence[LeanItem]) -> list[LeanResult]:
        started = time.perf_counter()
        if self.unavailable or self.pool is None:  # before any work: nothing here can run
            detail = self.unavailable or "the Lean pool is not running"
            return [_result(item, Status.error, detail, started) for item in items]
        # The pre-check is pure CPU (linear; about a second for a megabyte): off the event loop.
        prepared = await self._prepare_all(items, started)
        jobs = [p for p in prepared if isinstance(p, Job)]
        if jobs:
            # Overloaded -> 503 for the whole batch; the places come back however the batch ends
            async with self.admission.admit(len(jobs)):
                done = await asyncio.gather(*(self._run(job, time.perf_counter()) for job in jobs))
            for job, result in zip(jobs, done, strict=True):
                prepared[job.index] = result
        return [p for p in prepared if isinstance(p, LeanResult)]

    def health(self) -> DomainHealth:
        stats: dict[str, object] = {
            "isolation": self.settings.isolation,
            "lean_toolchain": self.settings.lean_toolchain,
            "repl_rev": self.settings.repl_rev,
            "mathlib_rev": self.settings.mathlib_rev,
            "proof_crashes": self.proof_crashes,
            **self.admission.stats(),
        }
        if self.pool is not None:
            stats.update(self.pool.stats())
        if self.unavailable:  # decided at startup, for the life of the process: not offered
            return DomainHealth(ok=False, offered=False, detail=self.unavailable, stats=stats)
        if self.pool is not None and self.pool.last_start_error:
            detail = f"the last REPL start failed: {self.pool.last_start_error}"
            return DomainHealth(ok=False, detail=detail, stats=stats)
        return DomainHealth(ok=True, stats=stats)


@asynccontextmanager
async def open_lean_verifier(settings: LeanSettings) -> AsyncIterator[LeanVerifier]:
    probe = LeanVerifier(settings, None)
    if probe.unavailable:
        log.warning("Lean verifier unavailable: %s", probe.unavailable)
        yield probe
        return
    containers: LeanContainers | None = None
    if settings.is_sandboxed:
        try:
            containers = LeanContainers(settings)
        except (OSError, ReplCrashed) as exc:  # a bad docker_host or preamble path
            why = f"Lean sandbox unavailable: {exc}"
            log.warning("Lean verifier unavailable: %s", why)
            yield LeanVerifier(settings, None, why)
            return
        unavailable = await containers.unavailable()
        if unavailable:
            await containers.close()
            log.warning("Lean verifier unavailable: %s", unavailable)
            yield LeanVerifier(settings, None, unavailable)
            return
        removed = await containers.cleanup_stale()
        if removed:
            log.info("removed %d Lean containers left by a dead service", removed)
        pool = ReplPool(settings, containers)
    else:
        log.warning(
            "Lean REPLs run as UNSAFE local processes (VERIFIER_LEAN__ISOLATION=unsafe_process): "
            "code run by a proof can reach this service's files, network and Docker socket"
        )
        pool = ReplPool(settings)
    verifier = LeanVerifier(settings, pool)
    prewarm = asyncio.create_task(pool.prewarm(settings.default_header))
    try:
        yield verifier
    finally:
        verifier.close()
        prewarm.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await prewarm
        await pool.close()
        if containers is not None:
            await containers.close()
