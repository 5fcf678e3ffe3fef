"""CodeRunner: SandboxFusion-style runs on the code domain's warm pool, behind its admission.

No pool, queue or limits of its own: a run is a `/code` job (one stdio test, nothing expected)
admitted by the code verifier's `Admission` (so `/run_code`, `/run` and `/code` share one bound
on work in flight) and executed by its `execute_program` (compile once per distinct program,
retried on another sandbox when one dies). Not reused between identical requests: a tool call
may be random (`random.random()`), and a judge's cache would answer it with a stale sample.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections.abc import Sequence

from rlvr.schemas.common import unicode_fields
from rlvr.schemas.run import RunCodeRequest, RunCodeResponse, Verdict
from rlvr.verifier.domains.code.verifier import CodeVerifier
from rlvr.verifier.domains.run.translate import (
    Answer,
    BadFiles,
    build_run_job,
    compile_failed,
    our_language,
    run_answer,
    sandbox_error,
    supported_languages,
)
from rlvr.verifier.sandbox.wire.protocol import StdioReport, decode_run_report

log = logging.getLogger(__name__)


class CodeRunner:
    def __init__(self, code: CodeVerifier, pod_name: str | None = None) -> None:
        self.code = code
        self.pod_name = pod_name or socket.gethostname()

    async def run_batch(self, requests: Sequence[RunCodeRequest]) -> list[RunCodeResponse]:
        """One answer per request, in order. Overloaded (the code queue is full) for the whole
        batch before anything runs; a fault of ours while running one is that one's
        `SandboxError`, never an exception for the batch."""
        async with self.code.admission.admit(len(requests)):
            return list(await asyncio.gather(*(self._run_one(r) for r in requests)))

    async def _run_one(self, request: RunCodeRequest) -> RunCodeResponse:
        started = time.perf_counter()
        item_id = getattr(request, "id", None)
        try:
            return await self._run(request, started, item_id)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("verifier fault on a run")
            answer = Answer(self.pod_name, _since(started), item_id)
            return sandbox_error(f"verifier fault: {type(exc).__name__}: {exc}"[:2000], answer)

    async def _run(
        self, request: RunCodeRequest, started: float, item_id: str | None
    ) -> RunCodeResponse:
        def answer() -> Answer:
            return Answer(self.pod_name, _since(started), item_id)

        language = our_language(request.language)
        if language is None:
            message = (
                f"unsupported language {request.language[:40]!r}: this sandbox runs "
                f"{supported_languages()}"
            )
            return sandbox_error(message, answer(), Verdict.unsupported_language)
        if self.code.pool is None:
            return sandbox_error("code sandbox disabled (VERIFIER_CODE__IS_ENABLED)", answer())
        try:
            unicode_fields({"code": request.code})
        except ValueError as exc:  # the candidate's text: its failure, not ours
            refused: StdioReport = {
                "kind": "stdio",
                "exit_code": 1,
                "signal": None,
                "timed_out": False,
                "stdout": "",
                "stdout_over": False,
                "stderr": str(exc),
                "elapsed_s": 0.0,
                "phases_ms": {},
            }
            return run_answer(refused, None, answer())
        try:
            _, job = build_run_job(request, language, self.code.settings)
        except BadFiles as exc:
            return sandbox_error(str(exc), answer(), Verdict.bad_files)
        outcome, raw, last_error = await self.code.execute_program(job)
        if outcome is not None and outcome.fault:
            return sandbox_error(f"sandbox error: {outcome.detail}", answer())
        if outcome is not None and outcome.artefact_b64 is None:
            return compile_failed(outcome, answer())
        if raw is None:
            return sandbox_error(f"sandbox error: {last_error}", answer())
        if "fault" in raw:
            log.error("executor fault on a run: %s", raw["fault"])
            return sandbox_error(f"executor fault: {raw['fault']}", answer())
        tests = raw.get("tests")
        if type(tests) is not list or len(tests) != 1:
            return sandbox_error("executor answer malformed: expected one run report", answer())
        try:
            report = decode_run_report(tests[0])
        except ValueError as exc:
            return sandbox_error(f"executor answer malformed: {exc}", answer())
        if report["kind"] != "stdio" and report["kind"] != "skipped":
            why = f"a {report['kind']} run report for a run"
            return sandbox_error(f"executor answer malformed: {why}", answer())
        return run_answer(report, outcome, answer())


def _since(started: float) -> float:
    return round(time.perf_counter() - started, 6)
