"""Run reports as PID 1 builds them (`sandbox.wire.protocol`), complete, for tests of the host's
readers: each helper fills every required field of its kind with what an uneventful run sends,
and `fields` override or add (a test states only what it is about)."""

from __future__ import annotations

from typing import Any, cast

from rlvr.verifier.sandbox.inside.sessions import call_report
from rlvr.verifier.sandbox.wire.protocol import (
    AssertReport,
    CallReport,
    CompileErrorReport,
    InteractiveReport,
    Reply,
    SkippedReport,
    SkipReason,
    StdioReport,
)


def stdio(**fields: Any) -> StdioReport:
    report = {
        "kind": "stdio",
        "exit_code": 0,
        "signal": None,
        "timed_out": False,
        "stdout": "",
        "stdout_over": False,
        "stderr": "",
        "elapsed_s": 0.0,
        "phases_ms": {},
    }
    return cast(StdioReport, {**report, **fields})


def interactive(**fields: Any) -> InteractiveReport:
    report = {
        "kind": "interactive",
        "exit_code": 0,
        "signal": None,
        "timed_out": False,
        "output_over": False,
        "stderr": "",
        "elapsed_s": 0.0,
    }
    return cast(InteractiveReport, {**report, **fields})


def call(replies: list[dict[str, Any]], **fields: Any) -> CallReport:
    """As the container builds it (`sessions.call_report`), with `fields` over it."""
    report = call_report(cast(list[Reply], replies), 0.0)
    return cast(CallReport, {**report, **fields})


def asserted(verdict: dict[str, Any] | None, **fields: Any) -> AssertReport:
    report = {
        "kind": "assert",
        "verdict": verdict,
        "timed_out": False,
        "output_over": False,
        "stderr": "",
        "elapsed_s": 0.0,
    }
    return cast(AssertReport, {**report, **fields})


def skipped(reason: SkipReason | str, **fields: Any) -> SkippedReport:
    return cast(SkippedReport, {"kind": "skipped", "reason": reason, **fields})


def compile_error(detail: str = "error: expected ';'", **fields: Any) -> CompileErrorReport:
    report = {"kind": "compile_error", "detail": detail, "timed_out": False, "elapsed_s": 0.0}
    return cast(CompileErrorReport, {**report, **fields})
