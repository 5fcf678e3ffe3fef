"""Turn a CodeItem into the executor's job: inputs and assert code only, never expected values.

Call tests send their arguments (plain data) and stdio tests their stdin; the expected return
values and outputs stay on the host, where `check.py` compares them with what came back.
"""

from __future__ import annotations

from rlvr.schemas.code import AssertTest, CallTest, CodeItem, StdioTest
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.sandbox.codec import encode_value
from rlvr.verifier.sandbox.languages import ProgramSpec, program_spec
from rlvr.verifier.sandbox.protocol import Job, JobTest, Limits

# The least compile time any item gets: `#include <bits/stdc++.h>` at -O2 takes ~3 s on a loaded
# 2-core machine, so honest programs never come near it.
COMPILE_FLOOR_S = 10.0


def item_limits(item: CodeItem, settings: CodeSettings) -> Limits:
    timeout_s = min(item.timeout_s or settings.default_timeout_s, settings.max_timeout_s)
    memory_mb = min(item.memory_mb or settings.default_memory_mb, settings.max_memory_mb)
    return {
        "timeout_s": timeout_s,
        "memory_mb": memory_mb,
        "file_size_mb": settings.file_size_mb,
        "nproc": settings.max_processes,
    }


def compile_timeout_s(item: CodeItem, settings: CodeSettings) -> float:
    """g++'s deadline: the item's own run budget (per-test timeout x tests), at least the floor,
    at most `compile_timeout_s`. A `constexpr` or template busy-loop then holds a container no
    longer than the program itself could have run."""
    budget_s = float(item_limits(item, settings)["timeout_s"]) * max(1, len(item.tests))
    return min(settings.compile_timeout_s, max(COMPILE_FLOOR_S, budget_s))


def job_test(test: AssertTest | CallTest | StdioTest) -> JobTest:
    if isinstance(test, AssertTest):
        return {"kind": "assert", "code": test.code}
    if isinstance(test, CallTest):
        return {"kind": "call", "fn": test.fn, "args": encode_value([test.args, test.kwargs])}
    return {"kind": "stdio", "stdin": test.stdin}


def item_program(item: CodeItem, code: str, settings: CodeSettings) -> ProgramSpec:
    """How the item's program is compiled and run (`languages.py`), with the server's flags."""
    flags = {**settings.compile_flags, "cpp": list(settings.cpp_flags)}
    memory_mb = int(item_limits(item, settings)["memory_mb"])
    return program_spec(item.language, code, memory_mb, settings.compile_memory_mb, flags)


def build_job(item: CodeItem, code: str, settings: CodeSettings) -> Job:
    return {
        "id": item.id,
        "language": item.language,
        "code": code,
        "limits": item_limits(item, settings),
        "tests": [job_test(test) for test in item.tests],
        "stop_on_first_failure": item.stop_on_first_failure,
        "compile_timeout_s": compile_timeout_s(item, settings),
        "compile_memory_mb": settings.compile_memory_mb,
        "compile_flags": list(settings.cpp_flags),
        "program": item_program(item, code, settings).as_job(),
    }


def job_deadline_s(job: Job) -> float:
    """How long the host waits for the executor's answer before declaring the sandbox lost."""
    per_test = float(job["limits"]["timeout_s"]) + 3.0
    program = job.get("program") or {}
    needs_compile = bool(program.get("compile_argv")) and "artefact" not in job
    compile_s = float(job["compile_timeout_s"]) if needs_compile else 0.0
    return 10.0 + compile_s + per_test * len(job["tests"])
