"""The code verifier's and the pool's fault paths without Docker (a fake backend): which faults
are retried, which retire a container, what the item gets. The real-engine versions are in
sandbox/host/test_docker.py and the hostile suites."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

import pytest

from rlvr.schemas.code import CodeItem
from rlvr.schemas.common import Status
from rlvr.schemas.run import RunCodeRequest
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.verifier import open_code_verifier
from rlvr.verifier.domains.run.runner import CodeRunner
from rlvr.verifier.sandbox.host.backend import SandboxLost
from rlvr.verifier.sandbox.host.pool import SandboxPool
from rlvr.verifier.sandbox.wire.protocol import Job, JobResult, RunReport, SkipReason
from tests.support import run_reports
from tests.support.sandbox_fakes import FakeBackend, FakeSandbox, artefact_tar, passing

ITEM = CodeItem.model_validate(
    {"id": "a", "code": "print('ok')", "tests": [{"kind": "stdio", "stdout": "ok"}] * 2}
)
C_ITEM = CodeItem.model_validate(
    {
        "id": "c",
        "language": "c",
        "code": "int main(){}",
        "tests": [{"kind": "stdio", "stdout": "ok"}],
    }
)


def settings(**overrides: Any) -> CodeSettings:
    return CodeSettings.model_validate({"pool_size": 2, "is_dedup_enabled": False, **overrides})


async def test_an_executor_fault_is_the_items_error_retires_one_container_and_is_not_retried() -> (
    None
):
    backend = FakeBackend(lambda job, sandbox: {"id": job.get("id"), "fault": "KeyError: 'x'"})
    async with open_code_verifier(settings(retries=2), backend) as verifier:
        [result] = await verifier.verify_batch([ITEM])
    assert result.status is Status.error and "executor fault" in result.detail
    assert len(backend.jobs) == 1
    assert [s.is_alive for s in backend.started].count(False) == 1


async def test_a_sandbox_lost_mid_job_is_retried_on_another_one() -> None:
    def lost_first(job: Job, sandbox: FakeSandbox) -> JobResult:
        if sandbox.name == "fake-0":
            raise SandboxLost("died mid-job (fake)")
        return passing(job, sandbox)

    backend = FakeBackend(lost_first)
    async with open_code_verifier(settings(retries=1), backend) as verifier:
        [result] = await verifier.verify_batch([ITEM])
    assert result.status is Status.passed
    assert [s.name for s in backend.started if s.jobs] == ["fake-0", "fake-1"]


async def test_a_sandbox_lost_on_every_attempt_is_the_verifiers_error() -> None:
    def always_lost(job: Job, sandbox: FakeSandbox) -> JobResult:
        raise SandboxLost("died mid-job (fake)")

    backend = FakeBackend(always_lost)
    async with open_code_verifier(settings(retries=1), backend) as verifier:
        [result] = await verifier.verify_batch([ITEM])
    assert result.status is Status.error and "sandbox error" in result.detail
    assert len(backend.jobs) == 2  # the first attempt and one retry


async def test_no_engine_is_every_items_error_at_once() -> None:
    backend = FakeBackend(fail_starts=True)
    async with open_code_verifier(settings(warm_timeout_s=1), backend) as verifier:
        results = await verifier.verify_batch([ITEM, ITEM])
        health = verifier.health()
    assert [r.status for r in results] == [Status.error, Status.error]
    assert not health.ok and "unreachable" in (health.detail or "")


async def test_a_container_that_forgot_an_artefact_gets_the_bytes_once_more() -> None:
    tar = base64.b64encode(artefact_tar({"main": b"bin"})).decode()
    forgets = {"yes": True}

    def script(job: Job, sandbox: FakeSandbox) -> JobResult:
        key = job.get("artefact_key", "")
        if job.get("return_artefact"):
            return {"compile": {"artefact": tar, "elapsed_s": 0.1}, "tests": [],
                    "artefact_keys": [key], "healthy": True}  # fmt: skip
        if "artefact" not in job and forgets.pop("yes", False):
            return {"tests": [], "missing_artefact": True, "artefact_keys": [], "healthy": True}
        return {**passing(job, sandbox), "artefact_keys": [key]}

    backend = FakeBackend(script)
    async with open_code_verifier(settings(pool_size=1), backend) as verifier:
        [first] = await verifier.verify_batch([C_ITEM])
        stats = verifier.health().stats["artefacts"]
    assert first.status is Status.passed
    kinds = ["compile" if j.get("return_artefact") else "bytes" if "artefact" in j else "key"
             for j in backend.jobs]  # fmt: skip
    assert kinds == ["compile", "key", "bytes"]
    assert stats == {"with_bytes": 1, "by_key": 0, "missing": 1}


async def lend(backend: FakeBackend, jobs: int, max_jobs_per_sandbox: int) -> None:
    """`jobs` jobs through a pool of one sandbox."""
    pool = SandboxPool(backend, size=1, max_jobs_per_sandbox=max_jobs_per_sandbox)
    await pool.start(warm_timeout_s=1)
    try:
        for _ in range(jobs):
            async with pool.acquire() as sandbox:
                await sandbox.run({"tests": []}, 1)  # type: ignore[typeddict-item, unused-ignore]
    finally:
        await pool.close()


async def test_the_pool_retires_an_unhealthy_container() -> None:
    backend = FakeBackend(lambda job, sandbox: {**passing(job, sandbox), "healthy": False})
    await lend(backend, jobs=2, max_jobs_per_sandbox=5)
    assert len(backend.started) >= 2 and backend.started[0] in backend.removed
    assert [s.jobs_done for s in backend.started[:2]] == [1, 1]


async def test_the_pool_retires_a_container_past_its_job_limit() -> None:
    backend = FakeBackend()
    await lend(backend, jobs=3, max_jobs_per_sandbox=2)
    assert [s.jobs_done for s in backend.started[:2]] == [2, 1]
    assert backend.started[0] in backend.removed


def malformed_for(item_id: str | None, report: Any) -> Callable[[Job, FakeSandbox], JobResult]:
    """`passing`, except that the job of `item_id` gets `report` for each of its tests."""

    def script(job: Job, sandbox: FakeSandbox) -> JobResult:
        result = passing(job, sandbox)
        if job.get("id") == item_id:
            result["tests"] = [report for _ in job["tests"]]
        return result

    return script


@pytest.mark.parametrize(
    "report",
    [
        {"exit_code": 0, "stdout": "ok\n"},  # untagged (the shape before the union)
        {**run_reports.stdio(stdout="ok\n"), "stdout": None},
        {**run_reports.stdio(stdout="ok\n"), "kind": "call"},
        {"kind": "skipped", "reason": "not run: an earlier test failed"},  # prose, not a code
        run_reports.call([{"ready": True}, {"value": "'ok'"}]),  # a call report for stdio
        "ok\n",
    ],
)
async def test_a_malformed_report_is_that_items_error_not_a_crash_of_the_batch(
    report: Any,
) -> None:
    backend = FakeBackend(malformed_for("bad", report))
    bad = ITEM.model_copy(update={"id": "bad"})
    async with open_code_verifier(settings(), backend) as verifier:
        good, broken = await verifier.verify_batch([ITEM, bad])
    assert good.status is Status.passed
    assert broken.status is Status.error and broken.reward is None
    assert broken.detail.startswith("executor answer malformed: "), broken.detail


async def test_a_malformed_report_for_a_run_is_a_sandbox_error() -> None:
    backend = FakeBackend(malformed_for(None, {"kind": "stdio", "exit_code": 0}))  # a run: no id
    request = RunCodeRequest.model_validate({"code": "print(1)", "language": "python"})
    async with open_code_verifier(settings(), backend) as verifier:
        runner = CodeRunner(verifier, "pod")
        [answer] = await runner.run_batch([request])
    assert answer.status == "SandboxError" and answer.run_result is None
    assert answer.message.startswith("executor answer malformed: "), answer.message


@pytest.mark.parametrize(
    ("second", "runs"),
    [
        (run_reports.stdio(stdout="ok\n"), 1),  # a lasting verdict: the next request copies it
        (run_reports.skipped(SkipReason.NOT_CLEANED), 2),  # the sandbox's trouble: runs again
        (run_reports.stdio(exit_code=None, timed_out=True), 2),
    ],
)
async def test_the_cache_keeps_a_verdict_only_when_the_reports_say_it_lasts(
    second: RunReport, runs: int
) -> None:
    def script(job: Job, sandbox: FakeSandbox) -> JobResult:
        return {**passing(job, sandbox), "tests": [run_reports.stdio(stdout="ok\n"), second]}

    backend = FakeBackend(script)
    async with open_code_verifier(settings(is_dedup_enabled=True), backend) as verifier:
        first = (await verifier.verify_batch([ITEM]))[0]
        later = (await verifier.verify_batch([ITEM]))[0]
    assert len(backend.jobs) == runs
    assert later.reused == (None if runs == 2 else "cache")
    assert later.status is first.status


def compiling(fault_on_compile: bool) -> Callable[[Job, FakeSandbox], JobResult]:
    """A C program: the compile job faults (or compiles), every run passes."""
    tar = base64.b64encode(artefact_tar({"main": b"bin"})).decode()

    def script(job: Job, sandbox: FakeSandbox) -> JobResult:
        if job.get("return_artefact"):
            if fault_on_compile:
                return {"id": job.get("id"), "fault": "OSError: no space (fake)"}
            key = job.get("artefact_key", "")
            return {"compile": {"artefact": tar, "elapsed_s": 0.1}, "tests": [],
                    "artefact_keys": [key], "healthy": True}  # fmt: skip
        return passing(job, sandbox)

    return script


async def test_an_executor_fault_while_compiling_is_the_items_error_and_is_not_cached() -> None:
    backend = FakeBackend(compiling(fault_on_compile=True))
    async with open_code_verifier(settings(retries=2), backend) as verifier:
        [first] = await verifier.verify_batch([C_ITEM])
        [second] = await verifier.verify_batch([C_ITEM])
    assert first.status is Status.error and "executor fault: OSError" in first.detail
    assert second.status is Status.error
    compiles = [job for job in backend.jobs if job.get("return_artefact")]
    assert len(compiles) == 2  # once per item (not retried, not cached), and no test job ran
    assert len(backend.jobs) == 2
    assert [s.is_alive for s in backend.started].count(False) == 2


async def test_a_sandbox_lost_while_compiling_is_retried_and_the_item_passes() -> None:
    compile_then_pass = compiling(fault_on_compile=False)

    def lost_first(job: Job, sandbox: FakeSandbox) -> JobResult:
        if sandbox.name == "fake-0":
            raise SandboxLost("died mid-compile (fake)")
        return compile_then_pass(job, sandbox)

    backend = FakeBackend(lost_first)
    async with open_code_verifier(settings(retries=1), backend) as verifier:
        [result] = await verifier.verify_batch([C_ITEM])
    assert result.status is Status.passed
    kinds = [(s.name, bool(job.get("return_artefact"))) for s in backend.started for job in s.jobs]
    assert kinds[0] == ("fake-0", True) and ("fake-1", True) in kinds
