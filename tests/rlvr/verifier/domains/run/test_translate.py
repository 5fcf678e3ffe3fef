"""SandboxFusion's request -> our job, and a run report -> SandboxFusion's answer (pure, fast).

The live suite (`test_run_live.py`) shows the same against the real sandbox; here every shape
of report the executor sends is mapped without Docker.
"""

from __future__ import annotations

import base64
import json
import signal
from typing import Any, cast

import pytest

from rlvr.schemas.run import RunCodeRequest, RunCodeResponse, RunItem
from rlvr.verifier.domains.code.compiled import CompileOutcome
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.not_run import NOT_RUN
from rlvr.verifier.domains.run.translate import (
    Answer,
    BadFiles,
    build_run_job,
    compile_failed,
    job_files,
    our_language,
    run_answer,
    work_path,
)
from rlvr.verifier.sandbox.inside.jobs import JobRunner
from rlvr.verifier.sandbox.inside.supervisor import ProcessOutcome
from rlvr.verifier.sandbox.inside.zygote import ZygoteLost
from rlvr.verifier.sandbox.wire.protocol import (
    SkippedReport,
    SkipReason,
    StdioReport,
    decode_run_report,
)
from tests.support import run_reports
from tests.support.sandbox_fakes import FakeSupervisor

ANSWER = Answer("pod", 0.01)
# SandboxFusion's RunCodeResponse keys; ours adds extras a SandboxFusion client ignores.
SF_KEYS = {"status", "message", "compile_result", "run_result", "executor_pod_name", "files"}
RESULT_KEYS = {"status", "execution_time", "return_code", "stdout", "stderr"}


def _request(**fields: object) -> RunCodeRequest:
    return RunCodeRequest.model_validate({"code": "print(1)", "language": "python", **fields})


def _r(fields: Any) -> StdioReport | SkippedReport:
    """A stdio report with `fields` (the rest as an uneventful run's), as the runner gets it:
    through JSON and `decode_run_report`."""
    return cast(StdioReport, decode_run_report(json.loads(json.dumps(run_reports.stdio(**fields)))))


def _wire(response: RunCodeResponse) -> dict[str, Any]:
    return response.model_dump(mode="json")


@pytest.mark.parametrize(
    ("theirs", "ours"),
    [
        ("python", "python"),
        ("cpp", "cpp"),
        ("nodejs", "javascript"),
        ("go", "go"),
        ("java", "java"),
        ("rust", "rust"),
        ("c", "c"),
        ("php", None),
        ("go_test", None),
        ("pytest", None),
        ("PYTHON", None),
    ],
)
def test_sandboxfusion_language_names_map_to_ours_or_none(theirs: str, ours: str | None) -> None:
    assert our_language(theirs) == ours


def test_the_request_takes_what_verl_sends_and_ignores_unknown_fields() -> None:
    request = RunCodeRequest.model_validate(
        {
            "compile_timeout": 10,
            "run_timeout": 10,
            "code": "print(1)",
            "stdin": None,
            "memory_limit_MB": 1024,
            "language": "python",
            "files": {},
            "fetch_files": [],
            "some_future_field": True,
        }
    )
    assert request.stdin is None and request.memory_limit_MB == 1024


def test_the_job_is_the_code_domains_with_caps_applied() -> None:
    settings = CodeSettings()
    request = _request(run_timeout=1000, memory_limit_MB=100000, compile_timeout=999, stdin="5")
    _, job = build_run_job(request, "python", settings)
    assert job["limits"]["timeout_s"] == settings.max_timeout_s
    assert job["limits"]["memory_mb"] == settings.max_memory_mb
    assert job["compile_timeout_s"] == settings.compile_timeout_s
    assert job["tests"] == [{"kind": "stdio", "stdin": "5"}]  # nothing expected goes in
    assert "files" not in job and "fetch_files" not in job


def test_a_memory_limit_of_minus_one_means_the_servers_default() -> None:
    settings = CodeSettings()
    _, job = build_run_job(_request(memory_limit_MB=-1), "python", settings)
    assert job["limits"]["memory_mb"] == settings.default_memory_mb


def test_files_are_checked_base64_and_fetch_paths_deduplicated() -> None:
    content = base64.b64encode(b"1 2\n").decode()
    request = _request(files={"data/in.txt": content}, fetch_files=["out.txt", "out.txt"])
    _, job = build_run_job(request, "python", CodeSettings())
    assert job["files"] == {"data/in.txt": content}
    assert job["fetch_files"] == ["out.txt"]


@pytest.mark.parametrize(
    "path",
    ["/etc/passwd", "../x", "a/../../x", "a//b", "./a", "a/.", "", "a\\b", "a\x00b", "x" * 300],
)
def test_a_path_outside_or_unplain_is_refused(path: str) -> None:
    with pytest.raises(BadFiles):
        work_path(path)
    with pytest.raises(BadFiles):
        job_files(_request(fetch_files=[path]))


def test_bad_base64_and_a_file_that_is_also_a_directory_are_refused() -> None:
    with pytest.raises(BadFiles, match="base64"):
        job_files(_request(files={"a.txt": "not base64!"}))
    with pytest.raises(BadFiles, match="both a file and a directory"):
        job_files(_request(files={"a": "", "a/b": ""}))


def test_a_clean_exit_is_success_with_strings() -> None:
    report = {"exit_code": 0, "signal": None, "timed_out": False, "stdout": "1\n", "stderr": ""}
    wire = _wire(run_answer(_r({**report, "elapsed_s": 0.02}), None, ANSWER))
    assert set(wire) >= SF_KEYS and set(wire["run_result"]) == RESULT_KEYS
    assert wire["status"] == "Success" and wire["compile_result"] is None
    assert wire["run_result"] == {
        "status": "Finished",
        "execution_time": 0.02,
        "return_code": 0,
        "stdout": "1\n",
        "stderr": "",
    }
    assert wire["verdict"] == "ok" and wire["memory_exceeded"] is False


def test_a_non_zero_exit_is_failed_finished_with_its_code() -> None:
    report = {"exit_code": 1, "signal": None, "stdout": "", "stderr": "Traceback ...\nValueError"}
    response = run_answer(_r({**report, "elapsed_s": 0.01}), None, ANSWER)
    assert response.status == "Failed" and response.verdict == "runtime_error"
    assert response.run_result is not None
    assert response.run_result.status == "Finished" and response.run_result.return_code == 1
    assert response.run_result.stderr.endswith("ValueError")


def test_a_time_out_has_a_null_return_code() -> None:
    report = {"exit_code": None, "signal": None, "timed_out": True, "stdout": "partial"}
    response = run_answer(_r({**report, "elapsed_s": 1.0}), None, ANSWER)
    assert response.status == "Failed" and response.verdict == "timed_out"
    assert response.run_result is not None
    assert response.run_result.status == "TimeLimitExceeded"
    assert response.run_result.return_code is None
    assert response.run_result.stdout == "partial" and response.run_result.stderr == ""


def test_a_cpu_limit_signal_is_a_time_out_too() -> None:
    report = {"exit_code": None, "signal": int(signal.SIGXCPU), "stdout": "", "stderr": ""}
    response = run_answer(_r(report), None, ANSWER)
    assert response.run_result is not None
    assert response.run_result.status == "TimeLimitExceeded"
    assert response.run_result.return_code is None


@pytest.mark.parametrize(
    "report",
    [
        {"exit_code": 3, "signal": None, "stderr": "Traceback\nMemoryError"},  # the runner's exit
        {"exit_code": None, "signal": int(signal.SIGKILL), "stderr": ""},
        {"exit_code": 134, "signal": None, "stderr": "terminate: std::bad_alloc"},
    ],
)
def test_memory_is_a_flag_beside_a_finished_failure(report: dict[str, object]) -> None:
    response = run_answer(_r({**report, "stdout": ""}), None, ANSWER)
    assert response.status == "Failed" and response.memory_exceeded is True
    assert response.verdict == "memory_exceeded"
    assert response.run_result is not None and response.run_result.status == "Finished"
    assert response.run_result.return_code != 0


def test_a_signal_is_a_negative_return_code() -> None:
    report = {"exit_code": None, "signal": int(signal.SIGSEGV), "stdout": "", "stderr": ""}
    response = run_answer(_r(report), None, ANSWER)
    assert response.run_result is not None
    assert response.run_result.return_code == -int(signal.SIGSEGV)
    assert response.verdict == "runtime_error"


def test_output_over_the_limit_is_an_error_with_its_flag() -> None:
    report = {"exit_code": None, "signal": None, "stdout": "y" * 10, "stdout_over": True}
    response = run_answer(_r(report), None, ANSWER)
    assert response.status == "Failed" and response.output_limit_exceeded is True
    assert response.run_result is not None and response.run_result.status == "Error"


def _lose_the_zygote(stdin: bytes, supervisor: FakeSupervisor) -> ProcessOutcome:
    raise ZygoteLost("the zygote stopped answering (fake)")


@pytest.mark.parametrize(
    ("is_clean", "reason", "why"),
    [
        (False, SkipReason.NOT_CLEANED, "could not be cleaned"),
        (True, SkipReason.SPAWNER_LOST, "process spawner was killed or stopped"),
    ],
)
def test_a_run_the_sandbox_could_not_start_is_a_sandbox_error_that_says_why(
    is_clean: bool, reason: SkipReason, why: str
) -> None:
    """The report as PID 1's job runner builds it (a skip code, no prose), through JSON and the
    runner's decoding: the message words the code (it once read a field never sent, and said
    "not run" whatever the reason)."""
    _, job = build_run_job(_request(), "python", CodeSettings())
    supervisor = FakeSupervisor(_lose_the_zygote)
    supervisor.is_clean = is_clean  # dirty: the work dir cannot be prepared
    result = JobRunner(supervisor).run_job(job)  # type: ignore[arg-type, unused-ignore]
    [sent] = json.loads(json.dumps(result))["tests"]
    assert sent == {"kind": "skipped", "reason": reason.value}
    report = decode_run_report(sent)
    assert report["kind"] == "skipped"
    response = run_answer(report, None, ANSWER)
    assert response.status == "SandboxError" and response.run_result is None
    assert response.message == f"sandbox error: {NOT_RUN[reason][1]}"
    assert why in response.message and response.verdict == "sandbox_error"


def test_fetched_files_come_back() -> None:
    files = {"out.txt": base64.b64encode(b"3").decode()}
    report = {"exit_code": 0, "signal": None, "stdout": "", "stderr": "", "files": files}
    assert run_answer(_r(report), None, ANSWER).files == files


def test_compile_results_say_finished_code_or_time_limit() -> None:
    built = CompileOutcome("QUJD", elapsed_s=1.5)
    report = {"exit_code": 0, "signal": None, "stdout": "ok", "stderr": ""}
    response = run_answer(_r(report), built, ANSWER)
    assert response.compile_result is not None and response.compile_result.return_code == 0
    broken = compile_failed(CompileOutcome(None, detail="error: expected ';'"), ANSWER)
    assert broken.status == "Failed" and broken.run_result is None
    assert broken.compile_result is not None
    assert broken.compile_result.status == "Finished" and broken.compile_result.return_code == 1
    assert "expected ';'" in broken.compile_result.stderr
    slow = compile_failed(CompileOutcome(None, detail="x", is_timed_out=True), ANSWER)
    assert slow.compile_result is not None
    assert slow.compile_result.status == "TimeLimitExceeded"
    assert slow.compile_result.return_code is None and slow.verdict == "compile_timed_out"


def test_a_run_item_echoes_its_id() -> None:
    item = RunItem.model_validate({"id": "7", "code": "", "language": "python"})
    assert item.id == "7"
