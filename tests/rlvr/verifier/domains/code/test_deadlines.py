"""The host's deadlines for a code item, from their one module (`domains/code/deadlines.py`): the
compiler's (a `/code` item's budget, a `/run_code` request's own), and how long the host waits
for a job's answer."""

from __future__ import annotations

import pytest

from rlvr.schemas.code import CodeItem
from rlvr.schemas.run import RunCodeRequest
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.deadlines import (
    COMPILE_FLOOR_S,
    RUN_OVERHEAD_S,
    compile_timeout_s,
    job_deadline_s,
    requested_compile_timeout_s,
)
from rlvr.verifier.domains.code.job_builder import build_job
from rlvr.verifier.domains.run.translate import build_run_job
from rlvr.verifier.sandbox.wire.protocol import Job

SETTINGS = CodeSettings.model_validate({"compile_timeout_s": 30, "max_timeout_s": 20})


def c_item(tests: int, timeout_s: float) -> CodeItem:
    test = {"kind": "stdio", "stdin": "", "stdout": ""}
    return CodeItem.model_validate(
        {"code": "int main(){}", "language": "c", "tests": [test] * tests, "timeout_s": timeout_s}
    )


@pytest.mark.parametrize(
    ("tests", "timeout_s", "expected_s"),
    [(1, 1, COMPILE_FLOOR_S), (4, 5, 20.0), (10, 5, 30.0), (3, 100, 30.0)],
)
def test_the_compiler_gets_the_items_run_budget_between_the_floor_and_the_cap(
    tests: int, timeout_s: float, expected_s: float
) -> None:
    assert compile_timeout_s(c_item(tests, timeout_s), SETTINGS) == expected_s


@pytest.mark.parametrize(("requested_s", "expected_s"), [(3, 3.0), (30, 30.0), (999, 30.0)])
def test_a_run_code_request_names_its_compile_deadline_up_to_the_cap(
    requested_s: float, expected_s: float
) -> None:
    assert requested_compile_timeout_s(requested_s, SETTINGS) == expected_s
    request = RunCodeRequest.model_validate(
        {"code": "int main(){}", "language": "c", "compile_timeout": requested_s}
    )
    _, job = build_run_job(request, "c", SETTINGS)
    assert job["compile_timeout_s"] == expected_s


def test_the_host_waits_for_each_test_its_time_and_a_runs_overhead() -> None:
    one, five = (build_job(c_item(n, 2), "int main(){}", SETTINGS) for n in (1, 5))
    assert job_deadline_s(five) - job_deadline_s(one) == pytest.approx(4 * (2 + RUN_OVERHEAD_S))
    cached: Job = {**one, "artefact": "eA=="}  # no compile in the job: not waited for
    compile_s = one["compile_timeout_s"]
    assert job_deadline_s(one) - job_deadline_s(cached) == pytest.approx(compile_s)
