"""Complete jobs (`wire/protocol.py::Job`) for tests that talk to a sandbox directly, as the host's
job builder writes them: PID 1 decodes every job (`decode_job`) and answers a partial one with a
`fault`."""

from __future__ import annotations

from rlvr.schemas.code import CodeItem
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.job_builder import build_job
from rlvr.verifier.sandbox.wire.codec import encode_value
from rlvr.verifier.sandbox.wire.protocol import Job, JobTest, Limits


def python_job(code: str, tests: list[JobTest], limits: Limits | None = None) -> Job:
    """A Python job of `tests` (the builder's program spec and defaults), id "t"."""
    item = CodeItem.model_validate({"code": code, "tests": [{"kind": "stdio", "stdout": ""}]})
    job = build_job(item, code, CodeSettings())
    job["id"], job["tests"] = "t", tests
    if limits is not None:
        job["limits"] = limits
    return job


def call_job(code: str, fn: str, limits: Limits | None = None) -> Job:
    """One call test of `fn()` (no arguments) in Python `code`."""
    return python_job(code, [{"kind": "call", "fn": fn, "args": encode_value([[], {}])}], limits)
