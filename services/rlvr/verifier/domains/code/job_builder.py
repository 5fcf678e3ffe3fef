"""Turn a CodeItem into the executor's job: inputs and assert code only, never expected values.

Call tests send their arguments (plain data) and stdio tests their stdin; the expected return
values and outputs stay on the host, where `check.py` compares them with what came back. The
one exception is an item with a checker program: its expected outputs go in as the checker's
answer files, written by PID 1 only after the candidate's run is over and swept (no candidate
process exists any more to read them), and wiped after the checker.
"""

from __future__ import annotations

from rlvr.schemas.code import AssertTest, CallTest, CodeItem, InteractiveTest, StdioTest
from rlvr.verifier.domains.batching import item_timeout_s, within_cap
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.deadlines import JUDGE_TIMEOUT_S, compile_timeout_s
from rlvr.verifier.sandbox.wire.codec import encode_value
from rlvr.verifier.sandbox.wire.languages import ProgramSpec, program_spec
from rlvr.verifier.sandbox.wire.protocol import Job, JobTest, Limits

# A checker's or interactor's own memory (dataset code: generous, and not the candidate's).
JUDGE_MEMORY_MB = 512


def item_limits(item: CodeItem, settings: CodeSettings) -> Limits:
    return {
        "timeout_s": item_timeout_s(item.timeout_s, settings),
        "memory_mb": within_cap(item.memory_mb, settings.default_memory_mb, settings.max_memory_mb),
        "file_size_mb": settings.file_size_mb,
        "nproc": settings.max_processes,
    }


def job_test(
    test: AssertTest | CallTest | StdioTest | InteractiveTest, with_answer: bool = False
) -> JobTest:
    if isinstance(test, AssertTest):
        return {"kind": "assert", "code": test.code}
    if isinstance(test, CallTest):
        return {"kind": "call", "fn": test.fn, "args": encode_value([test.args, test.kwargs])}
    if isinstance(test, InteractiveTest):
        return {"kind": "interactive", "input": test.input}
    if with_answer:  # only for a checker program (see the module's docstring)
        return {"kind": "stdio", "stdin": test.stdin, "answer": test.stdout}
    return {"kind": "stdio", "stdin": test.stdin}


def item_program(item: CodeItem, code: str, settings: CodeSettings) -> ProgramSpec:
    """How the item's program is compiled and run (`languages.py`), with the server's flags."""
    flags = {**settings.compile_flags, "cpp": list(settings.cpp_flags)}
    memory_mb = int(item_limits(item, settings)["memory_mb"])
    return program_spec(item.language, code, memory_mb, settings.compile_memory_mb, flags)


def judge_limits(item: CodeItem, settings: CodeSettings) -> Limits:
    """The checker's or interactor's limits: its own time and memory, the item's file size."""
    return {
        **item_limits(item, settings),
        "timeout_s": JUDGE_TIMEOUT_S,
        "memory_mb": min(JUDGE_MEMORY_MB, settings.max_memory_mb),
    }


def build_job(item: CodeItem, code: str, settings: CodeSettings) -> Job:
    checker = item.checker if item.checker is not None and item.checker.kind == "program" else None
    job: Job = {
        "id": item.id,
        "language": item.language,
        "code": code,
        "limits": item_limits(item, settings),
        "tests": [job_test(test, with_answer=checker is not None) for test in item.tests],
        "stop_on_first_failure": item.stop_on_first_failure,
        "compile_timeout_s": compile_timeout_s(item, settings),
        "compile_memory_mb": settings.compile_memory_mb,
        "compile_flags": list(settings.cpp_flags),
        "program": item_program(item, code, settings).as_job(),
    }
    if checker is not None:
        job["checker"] = {"language": checker.language, "code": checker.code}
    if item.interactor is not None:
        job["interactor"] = {"language": item.interactor.language, "code": item.interactor.code}
    if checker is not None or item.interactor is not None:
        job["judge_limits"] = judge_limits(item, settings)
    if item.total_timeout_s is not None:
        job["total_timeout_s"] = item.total_timeout_s
    return job
