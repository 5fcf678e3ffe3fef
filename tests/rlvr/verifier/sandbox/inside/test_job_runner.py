"""The job runner's decisions without Docker (a fake of PID 1's processes): what runs after a
failure, a lost spawner, a dirty container, an artefact kept or missing. The same paths run on
real containers in test_what_runs.py and the hostile suites."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rlvr.schemas.code import CodeItem
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.job_builder import build_job
from rlvr.verifier.sandbox.inside.artefacts import ArtefactStore
from rlvr.verifier.sandbox.inside.jobs import JobRunner
from rlvr.verifier.sandbox.inside.supervisor import ProcessOutcome
from rlvr.verifier.sandbox.wire.protocol import Job, SkipReason, decode_run_report
from tests.support.sandbox_fakes import FakeSupervisor, outcome


def job(inputs: list[str], *, stop: bool = True, language: str = "python") -> Job:
    code = "int main(){}" if language == "c" else "print(1)"
    tests = [{"kind": "stdio", "stdin": word, "stdout": "1"} for word in inputs]
    item = CodeItem.model_validate(
        {"code": code, "language": language, "tests": tests, "stop_on_first_failure": stop}
    )
    return build_job(item, code, CodeSettings())


def by_word(stdin: bytes, supervisor: FakeSupervisor) -> ProcessOutcome:
    word = stdin.decode()
    if word == "crash":
        return outcome(1)
    if word == "kill-zygote":
        supervisor.zygote.is_alive = False
        return outcome(0, b"1\n")
    if word == "dirty":
        supervisor.is_clean = False
        return outcome(0, b"1\n")
    return outcome(0, b"0\n" if word == "wrong" else b"1\n")


def run(the_job: Job) -> tuple[list[Any], FakeSupervisor, dict[str, Any]]:
    supervisor = FakeSupervisor(by_word)
    result: Any = JobRunner(supervisor).run_job(the_job)  # type: ignore[arg-type, unused-ignore]
    return result["tests"], supervisor, result


@pytest.mark.parametrize("failing", range(6))
def test_after_a_crash_nothing_more_runs(failing: int) -> None:
    inputs = ["1"] * 6
    inputs[failing] = "crash"
    reports, supervisor, _ = run(job(inputs))
    assert len(supervisor.runs) == failing + 1
    assert [r.get("reason") for r in reports[failing + 1 :]] == [SkipReason.AFTER_FAILURE] * (
        5 - failing
    )


def test_a_wrong_answer_does_not_stop_the_container_it_cannot_see_it() -> None:
    _, supervisor, _ = run(job(["wrong", "1", "1"]))
    assert len(supervisor.runs) == 3


def test_without_the_switch_a_crash_does_not_stop_the_item() -> None:
    _, supervisor, _ = run(job(["crash", "crash", "1"], stop=False))
    assert len(supervisor.runs) == 3


def test_a_lost_spawner_leaves_the_rest_not_run_with_its_reason() -> None:
    reports, supervisor, _ = run(job(["1", "kill-zygote", "1", "1"]))
    assert len(supervisor.runs) == 2
    assert [r.get("reason") for r in reports[2:]] == [SkipReason.SPAWNER_LOST] * 2


def test_a_container_that_could_not_be_cleaned_runs_nothing_more() -> None:
    reports, supervisor, _ = run(job(["dirty", "1", "1"], stop=False))
    assert len(supervisor.runs) == 1
    assert [r.get("reason") for r in reports[1:]] == [SkipReason.NOT_CLEANED] * 2


def test_a_compiled_program_is_kept_under_its_key_and_reported() -> None:
    supervisor = FakeSupervisor(by_word)
    runner = JobRunner(supervisor)  # type: ignore[arg-type, unused-ignore]
    compile_job: Any = {**job(["1"], language="c"), "tests": [], "return_artefact": True}
    compile_job["artefact_key"] = "k1"
    built: Any = runner.run_job(compile_job)
    assert built["artefact_keys"] == ["k1"] and "artefact" in built["compile"]
    light: Any = {**job(["1", "1"], language="c"), "artefact_key": "k1"}
    again: Any = runner.run_job(light)
    assert supervisor.compiles == 1 and len(supervisor.runs) == 2
    assert "missing_artefact" not in again and again["artefact_keys"] == ["k1"]
    unknown: Any = runner.run_job({**light, "artefact_key": "k2"})  # type: ignore[typeddict-item, unused-ignore]
    assert unknown["missing_artefact"] is True and unknown["artefact_keys"] == ["k1"]


@pytest.mark.parametrize(
    ("inputs", "stop", "kinds"),
    [
        (["1", "wrong", "crash", "1"], False, ["stdio"] * 4),
        (["1", "crash", "1"], True, ["stdio", "stdio", "skipped"]),
        (["kill-zygote", "1"], False, ["stdio", "skipped"]),
        (["dirty", "1"], False, ["stdio", "skipped"]),
    ],
)
def test_every_report_is_tagged_and_reads_back_as_the_host_reads_it(
    inputs: list[str], stop: bool, kinds: list[str]
) -> None:
    reports, _, _ = run(job(inputs, stop=stop))
    decoded = [decode_run_report(json.loads(json.dumps(report))) for report in reports]
    assert [report["kind"] for report in decoded] == kinds


def test_pid_1_keeps_no_more_artefacts_than_it_is_told() -> None:
    supervisor = FakeSupervisor(by_word)
    runner = JobRunner(supervisor, ArtefactStore(max_count=1))  # type: ignore[arg-type, unused-ignore]
    for key in ("k1", "k2"):
        compile_job: Any = {**job(["1"], language="c"), "tests": [], "return_artefact": True}
        assert runner.run_job({**compile_job, "artefact_key": key})["artefact_keys"] == [key]
    light: Any = {**job(["1"], language="c"), "artefact_key": "k1"}
    assert runner.run_job(light)["missing_artefact"] is True  # k1 made room for k2
    none_kept = JobRunner(supervisor, ArtefactStore(max_count=0))  # type: ignore[arg-type, unused-ignore]
    compile_job = {**job(["1"], language="c"), "tests": [], "return_artefact": True}
    assert none_kept.run_job({**compile_job, "artefact_key": "k3"})["artefact_keys"] == []
