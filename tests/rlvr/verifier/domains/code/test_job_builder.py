"""The job sent into a sandbox carries inputs only: expected values never enter a container."""

from __future__ import annotations

import json

from rlvr.schemas.code import CodeItem
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.job_builder import build_job, item_limits

SENTINEL = "expected-9f2c41"


def test_expected_values_and_outputs_are_not_in_the_job() -> None:
    item = CodeItem.model_validate(
        {
            "code": "def f(x): return x",
            "tests": [
                {"kind": "call", "fn": "f", "args": [1], "expected": SENTINEL},
                {"kind": "stdio", "stdin": "in", "stdout": SENTINEL + "-out"},
            ],
        }
    )
    job = build_job(item, item.code or "", CodeSettings())
    assert SENTINEL not in json.dumps(job)
    assert [t["kind"] for t in job["tests"]] == ["call", "stdio"]


def test_item_limits_are_capped_by_the_server() -> None:
    settings = CodeSettings(max_timeout_s=10, max_memory_mb=600)
    item = CodeItem.model_validate(
        {
            "code": "x",
            "tests": [{"kind": "assert", "code": "pass"}],
            "timeout_s": 99,
            "memory_mb": 9999,
        }
    )
    limits = item_limits(item, settings)
    assert limits["timeout_s"] == 10 and limits["memory_mb"] == 600
