"""What PID 1 runs of an item's tests, counted on a real container: `stop_on_first_failure` stops
after the first failure PID 1 can see (docs/code.md, "stop_on_first_failure"), and a wrong answer,
which only the host can see, leaves the later tests run but counted as failed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from rlvr.schemas.code import CodeItem, TestStatus
from rlvr.verifier.domains.code.check import grade_tests
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.job_builder import build_job
from rlvr.verifier.sandbox.host.docker import DockerBackend, DockerSandbox
from rlvr.verifier.sandbox.wire.protocol import RunReport, SkipReason
from tests.support.docker_engine import sandbox_settings

pytestmark = [pytest.mark.docker]

# exits 1 on the input "crash", prints the wrong number on "wrong", else doubles its input
PROGRAM = """
import sys
word = sys.stdin.read().strip()
if word == "crash":
    sys.exit(1)
print(0 if word == "wrong" else 2 * int(word))
"""


@pytest.fixture
async def sandbox(docker_engine: None) -> AsyncIterator[DockerSandbox]:
    backend = DockerBackend(sandbox_settings())
    started = await backend.start()
    try:
        yield started
    finally:
        await backend.close()


def item(inputs: list[str], stop: bool = True) -> CodeItem:
    tests = [{"kind": "stdio", "stdin": word, "stdout": "2"} for word in inputs]
    return CodeItem.model_validate({"code": PROGRAM, "tests": tests, "stop_on_first_failure": stop})


async def reports(sandbox: DockerSandbox, case: CodeItem) -> list[RunReport]:
    job: Any = build_job(case, PROGRAM, CodeSettings())
    result = await sandbox.run(job, timeout_s=120)
    assert "fault" not in result
    return result["tests"]


def ran(raws: list[RunReport]) -> int:
    return sum(raw["kind"] != "skipped" for raw in raws)


@pytest.mark.parametrize("failing", [0, 2, 5])
async def test_a_crash_stops_the_item_and_nothing_after_it_runs(
    sandbox: DockerSandbox, failing: int
) -> None:
    inputs = ["1"] * 6
    inputs[failing] = "crash"
    raws = await reports(sandbox, item(inputs))
    assert ran(raws) == failing + 1
    assert [raw.get("reason") for raw in raws[failing + 1 :]] == [SkipReason.AFTER_FAILURE] * (
        5 - failing
    )
    statuses = [v.status for v in grade_tests(item(inputs), raws)]
    assert statuses[:failing] == [TestStatus.passed] * failing
    assert statuses[failing] is TestStatus.runtime_error
    assert statuses[failing + 1 :] == [TestStatus.failed] * (5 - failing)


async def test_without_the_switch_every_test_runs(sandbox: DockerSandbox) -> None:
    inputs = ["crash", "1", "crash", "1", "1", "1"]
    raws = await reports(sandbox, item(inputs, stop=False))
    assert ran(raws) == 6
    assert [v.status for v in grade_tests(item(inputs, stop=False), raws)] == [
        TestStatus.runtime_error,
        TestStatus.passed,
        TestStatus.runtime_error,
        TestStatus.passed,
        TestStatus.passed,
        TestStatus.passed,
    ]


async def test_a_wrong_answer_is_seen_by_the_host_only_and_the_rest_count_as_failed(
    sandbox: DockerSandbox,
) -> None:
    inputs = ["wrong", "1", "1", "1", "1", "1"]
    raws = await reports(sandbox, item(inputs))
    assert ran(raws) == 6  # expected outputs never enter the container: it cannot know
    verdicts = grade_tests(item(inputs), raws)
    assert [v.status for v in verdicts] == [TestStatus.failed] * 6
    assert all("not run" in v.detail for v in verdicts[1:])


async def test_a_failed_assert_stops_an_assert_item(sandbox: DockerSandbox) -> None:
    code = "def f(x):\n    return 2 * x\n"
    tests = [{"kind": "assert", "code": "assert f(1) == 2"}] * 6
    tests[1] = {"kind": "assert", "code": "assert f(1) == 3"}
    case = CodeItem.model_validate({"code": code, "tests": tests, "stop_on_first_failure": True})
    job: Any = build_job(case, code, CodeSettings())
    raws = (await sandbox.run(job, timeout_s=120))["tests"]
    assert ran(raws) == 2
    assert [v.status for v in grade_tests(case, raws)] == [
        TestStatus.passed,
        TestStatus.failed,
    ] + [TestStatus.failed] * 4
