"""`decode_job`: PID 1 reads a job only as the `Job` its types declare (every field, each test's
shape by its kind); every job the host builds decodes, and anything else is a ValueError naming
the field, which PID 1 answers as a `fault` without running anything (`executor.answer`)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from rlvr.schemas.code import CodeItem
from rlvr.schemas.run import RunCodeRequest
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.job_builder import build_job
from rlvr.verifier.domains.run.translate import build_run_job
from rlvr.verifier.sandbox.inside.executor import answer
from rlvr.verifier.sandbox.inside.jobs import JobRunner
from rlvr.verifier.sandbox.wire.protocol import Job, _acceptor, _type_wrong, decode_job
from tests.support.sandbox_fakes import FakeSupervisor, outcome

STDIO = {"kind": "stdio", "stdin": "1", "stdout": "1"}
ITEMS: dict[str, dict[str, Any]] = {
    "python stdio": {"code": "print(1)", "tests": [STDIO, STDIO]},
    "python call": {
        "code": "def f(x):\n    return x\n",
        "tests": [{"kind": "call", "fn": "f", "args": [1], "expected": 1}],
    },
    "python assert": {
        "code": "def f():\n    return 1\n",
        "tests": [{"kind": "assert", "code": "assert f() == 1"}],
    },
    "c, budget": {"code": "int main(){}", "language": "c", "tests": [STDIO], "total_timeout_s": 3},
    "checker": {
        "code": "print(1)",
        "tests": [STDIO],
        "checker": {"kind": "program", "language": "python", "code": "import sys\nsys.exit(0)\n"},
    },
    "interactor": {
        "code": "print(1)",
        "tests": [{"kind": "interactive", "input": "5"}],
        "interactor": {"language": "cpp", "code": "int main(){}"},
    },
}  # fmt: skip


def built(name: str) -> Job:
    item = CodeItem.model_validate(ITEMS[name])
    return build_job(item, item.code or "", CodeSettings())


def as_sent(job: Job) -> Any:
    return json.loads(json.dumps(job))  # as PID 1 receives it: plain JSON


@pytest.mark.parametrize("name", list(ITEMS))
def test_every_job_the_host_builds_decodes_unchanged(name: str) -> None:
    job = built(name)
    assert decode_job(as_sent(job)) == as_sent(job)


def test_a_run_code_job_with_work_files_decodes() -> None:
    files = {"files": {"a.txt": "aGk="}, "fetch_files": ["a.txt"]}
    request = RunCodeRequest.model_validate({"code": "print(1)", "language": "python", **files})
    _, job = build_run_job(request, "python", CodeSettings())
    assert decode_job(as_sent(job))["files"] == {"a.txt": "aGk="}


@pytest.mark.parametrize(
    "extra",
    [
        {"artefact": "dGFy", "artefact_key": "k"},  # a run of a cached artefact
        {"tests": [], "return_artefact": True, "artefact_key": "k"},  # a compile-only job
        {"artefact_key": "k"},  # the key alone, to a container that holds it
    ],
)
def test_the_compile_paths_jobs_decode(extra: dict[str, Any]) -> None:
    job = {**as_sent(built("c, budget")), **extra}
    assert decode_job(job) == job


def changed(path: str, value: Any) -> Any:
    """The python stdio job with the field at `path` (dotted; `tests.0.stdin`) set to `value`,
    or removed where `value` is `...`."""
    job = as_sent(built("python stdio"))
    *parents, last = path.split(".")
    place = job
    for part in parents:
        place = place[int(part)] if part.isdigit() else place[part]
    if value is ...:
        del place[int(last) if last.isdigit() else last]
    else:
        place[int(last) if last.isdigit() else last] = value
    return job


@pytest.mark.parametrize(
    ("path", "value", "named"),
    [
        ("program", ..., "lacks program"),
        ("stop_on_first_failure", 1, "job.stop_on_first_failure is not bool"),
        ("limits.timeout_s", "5", "job.limits.timeout_s is not float"),
        ("limits.memory_mb", 256.5, "job.limits.memory_mb is not int"),
        ("limits.memory_mb", True, "job.limits.memory_mb is not int"),
        ("limits.nproc", ..., "job.limits lacks nproc"),
        ("tests.1.stdin", None, "job.tests[1].stdin is not str"),
        ("tests.0.kind", "shell", "job.tests[0] has no known kind"),
        ("tests.0.expected", "1", "job.tests[0] has an unknown field 'expected'"),
        ("tests", {"kind": "stdio"}, "job.tests is not a list"),
        ("program.compile_env", {"CC": 1}, "job.program.compile_env['CC'] is not str"),
        ("program.compile_argv", "gcc", "job.program.compile_argv is not"),
        ("files", ["a.txt"], "job.files is not an object"),
        ("id", 7, "job.id is not"),
        ("binary_limit_bytes", 5, "job has an unknown field 'binary_limit_bytes'"),
    ],
)
def test_a_malformed_job_is_a_value_error_naming_the_field(
    path: str, value: Any, named: str
) -> None:
    with pytest.raises(ValueError, match="a malformed job") as raised:
        decode_job(changed(path, value))
    assert named in str(raised.value)


def test_a_job_that_is_not_an_object_is_a_value_error() -> None:
    sent: object
    for sent in ([], "job", None, 3):
        with pytest.raises(ValueError, match="job is not an object"):
            decode_job(sent)


def runner() -> tuple[JobRunner, FakeSupervisor]:
    supervisor = FakeSupervisor(lambda stdin, _: outcome(0, b"1\n"))
    return JobRunner(supervisor), supervisor  # type: ignore[arg-type, unused-ignore]


def test_pid_1_answers_a_malformed_job_with_a_fault_and_runs_nothing() -> None:
    job_runner, supervisor = runner()
    sent = changed("limits.timeout_s", "5")
    result = answer(job_runner, sent)
    assert result["id"] == sent["id"]
    assert result["fault"].startswith("ValueError: a malformed job: job.limits.timeout_s")
    assert "tests" not in result and supervisor.runs == []
    assert result["healthy"] is True  # the container did nothing wrong: the host retires it anyway


def test_pid_1_answers_a_well_formed_job_with_its_reports() -> None:
    job_runner, supervisor = runner()
    result = answer(job_runner, as_sent(built("python stdio")))
    assert "fault" not in result and [r["kind"] for r in result["tests"]] == ["stdio", "stdio"]
    assert supervisor.runs == [b"1", b"1"] and result["healthy"] is True


def test_decoding_leaves_the_job_as_it_was() -> None:
    job = as_sent(built("checker"))
    before = copy.deepcopy(job)
    decode_job(job)
    assert job == before


# -- the compiled check (`_acceptor`) says yes exactly where the naming one (`_type_wrong`) does

ODD_VALUES: list[Any] = [None, 0, 1, -1, 2.5, True, False, "", "x", "stdio", [], [1], {}, {"a": 1}]


def mutations(job: Any, rng: random.Random, count: int) -> list[Any]:
    """`count` copies of `job`, each with one place changed: a value replaced by an odd one,
    a key removed, an unknown key added, a list emptied or grown, a kind renamed."""
    places: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in node:
                places.append((node, key))
                walk(node[key])
        elif isinstance(node, list):
            for index in range(len(node)):
                places.append((node, index))
                walk(node[index])

    out = []
    for _ in range(count):
        copied = copy.deepcopy(job)
        places.clear()
        walk(copied)
        parent, key = rng.choice(places)
        action = rng.randrange(5)
        if action == 0:
            parent[key] = rng.choice(ODD_VALUES)
        elif action == 1 and isinstance(parent, dict):
            del parent[key]
        elif action == 2 and isinstance(parent, dict):
            parent[rng.choice(["extra", "Kind", "kind", "tests", "id"])] = rng.choice(ODD_VALUES)
        elif action == 3 and isinstance(parent[key], list):
            parent[key] = parent[key] * 2 if rng.random() < 0.5 else []
        else:
            parent[key] = copy.deepcopy(rng.choice([v for _, v in places[:8]] or [None]))
        out.append(copied)
    return out


@pytest.mark.parametrize("name", list(ITEMS))
def test_the_compiled_check_agrees_with_the_naming_one(name: str) -> None:
    rng = random.Random(name)
    job = as_sent(built(name))
    accepted = 0
    for mutated in [job, *mutations(job, rng, 400)]:
        fast = _acceptor(Job)(mutated)
        assert fast == (_type_wrong(mutated, Job, "job") is None), mutated
        accepted += fast
    assert 1 < accepted < 400  # both sides of the line were crossed
