"""`rlvr.adapters.trl.tool_output`: what the model sees of a run (pure; the live path is in
tests/rlvr/verifier/domains/run/test_run_live.py)."""

from __future__ import annotations

from typing import Any

from rlvr.adapters.trl import tool_output
from rlvr.client._base import run_item
from rlvr.schemas.run import RunCodeResponse


def _answer(**fields: Any) -> RunCodeResponse:
    run = fields.pop("run", None)
    base: dict[str, Any] = {"status": "Success", "verdict": "ok"}
    if run is not None:
        base["run_result"] = {"status": "Finished", "return_code": 0, **run}
    return RunCodeResponse.model_validate({**base, **fields})


def test_stdout_then_stderr_without_trailing_newlines() -> None:
    answer = _answer(run={"stdout": "45\n", "stderr": "warning\n"})
    assert tool_output(answer) == "45\nwarning"


def test_a_time_out_says_so_after_what_was_printed() -> None:
    answer = _answer(
        status="Failed",
        verdict="timed_out",
        run={"status": "TimeLimitExceeded", "return_code": None, "stdout": "partial\n"},
    )
    assert (
        tool_output(answer) == "partial\nError: the code ran past its time limit and was stopped."
    )


def test_memory_output_and_silent_exit_codes_are_named() -> None:
    memory = _answer(status="Failed", verdict="memory_exceeded", memory_exceeded=True, run={})
    assert tool_output(memory) == "Error: the code ran out of memory."
    silent = _answer(status="Failed", verdict="runtime_error", run={"return_code": 2})
    assert tool_output(silent) == "Error: exit code 2."


def test_a_sandbox_error_is_text_for_the_model() -> None:
    answer = _answer(status="SandboxError", verdict="sandbox_error", message="pool down")
    assert tool_output(answer) == "Error: the sandbox could not run this code: pool down"


def test_a_long_text_keeps_both_ends_within_the_limit() -> None:
    text = "START" + "x" * 10_000 + "END"
    shown = tool_output(_answer(run={"stdout": text}), max_chars=200)
    assert len(shown) <= 200
    assert shown.startswith("START") and shown.endswith("END") and "characters cut" in shown


def test_the_clients_run_item_uses_sandboxfusions_names() -> None:
    item = run_item("print(1)", "cpp", None, 5.0, 7.0, 256, {"a": "eA=="}, ["b"])
    assert item == {
        "code": "print(1)",
        "language": "cpp",
        "run_timeout": 5.0,
        "compile_timeout": 7.0,
        "stdin": None,
        "files": {"a": "eA=="},
        "fetch_files": ["b"],
        "memory_limit_MB": 256,
    }
