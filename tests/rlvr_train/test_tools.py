"""`rlvr-train grpo --tools python`: a real TRL `GRPOTrainer` with
`environment_factory=PythonSandbox` runs its tool loop, and every call the policy makes is
answered by a Python session; the reward is `/math` on the final answer.

The policy is a `tiny` tool-calling model (ChatML with TRL's Qwen2.5 template) given a few
seconds of supervised steps on one tool call, `<tool_call>{"name": "python", "arguments":
{"code": "print(6 * 7)"}}</tool_call>`, after the copy task's prompts rendered with the `python`
tool (`tests.support.models.tool_calling_tiny_model`): a random model never writes a well-formed
call. GRPO then samples at a low temperature, so most rollouts write that call, and the session
must answer `42`.

Two runs: sessions from the FAKE of `tests.support.session_fake` (runs without the session
server; `/math` is the real service), and everything from one real service with the Docker
sandbox (`test_..._live_service`; needs the session endpoints of issue 23 on the server).
"""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

import pytest

from rlvr_train.cli import main
from rlvr_train.reporting import METRICS_FILE
from rlvr_train.samples import SAMPLES_FILE, tool_exchanges
from rlvr_train.tools import can_parse_tool_calls, check_tools, with_tool_template
from tests.support.models import TOOL_CALL_CODE, tool_calling_tiny_model
from tests.support.server import service_fixture
from tests.support.session_fake import fake_session_service
from tests.support.trainer_runs import write_copy_task

sandbox_url = service_fixture(
    {"VERIFIER_CODE__POOL_SIZE": "1", "VERIFIER_MATH__WORKERS": "1"}, needs_docker=True
)


@pytest.fixture(scope="module")
def tool_task(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_copy_task(tmp_path_factory.mktemp("task") / "copy.jsonl", 40, seed=0)


@pytest.fixture(scope="module")
def tool_model(tool_task: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    prompts = [json.loads(line)["prompt"] for line in tool_task.read_text().splitlines()]
    return tool_calling_tiny_model(tmp_path_factory.mktemp("model") / "tiny-tools", prompts)


def tool_run(model: Path, task: Path, out: Path, math_url: str, tools_url: str) -> list[str]:
    return [
        "grpo", "--model_name_or_path", str(model), "--datasets", str(task),
        "--dataset_size", "8", "--system_prompt", "", "--max_prompt_length", "null",
        "--reward_funcs", "math", "--verifier_url", math_url,
        "--tools", "python", "--tools_url", tools_url, "--max_tool_calling_iterations", "1",
        "--output_dir", str(out), "--max_steps", "1", "--per_device_train_batch_size", "4",
        "--num_generations", "4", "--max_completion_length", "160", "--temperature", "0.2",
        "--logging_steps", "1", "--sample_every_steps", "1", "--report_to", "none",
        "--disable_tqdm", "true", "--seed", "0", "--save_strategy", "no",
    ]  # fmt: skip


def calls_and_answers(out: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (out / SAMPLES_FILE).read_text().splitlines()]
    return [call for row in rows for call in row.get("tools", [])]


def tool_metrics(out: Path) -> dict[str, float]:
    rows = [json.loads(x) for x in (out / METRICS_FILE).read_text().splitlines()]
    logged = [r for r in rows if "tools/call_frequency" in r]
    assert logged, f"no tool metrics logged: {rows}"
    return {k: v for k, v in logged[-1].items() if k.startswith("tools/")}


def assert_calls_were_made_and_answered(out: Path) -> None:
    calls = calls_and_answers(out)
    assert calls, "the policy made no tool call"
    written = [c for c in calls if c["arguments"] == {"code": TOOL_CALL_CODE}]
    assert len(written) >= len(calls) // 2
    assert all(c["name"] == "python" for c in calls)
    assert all(c["answer"] == "42" for c in written), calls  # run by a session, answered
    metrics = tool_metrics(out)
    print(f"tool calls in samples: {len(calls)}, answered 42: {len(written)}; {metrics}")
    assert metrics["tools/call_frequency"] > 0 and metrics["tools/failure_frequency"] == 0.0


@pytest.mark.slow
def test_grpo_tool_calls_are_made_and_answered_by_python_sessions_FAKE(
    tool_model: Path, tool_task: Path, tmp_path: Path, verifier_url: str
) -> None:
    with fake_session_service() as (sessions_url, state):
        out = tmp_path / "run"
        assert main(tool_run(tool_model, tool_task, out, verifier_url, sessions_url)) == 0
        assert_calls_were_made_and_answered(out)
        assert state.opened >= 2  # the preflight's, then one per rollout that called
        gc.collect()  # the trainer and its environments are gone: so are their sessions
        assert state.sessions == {} and state.closed == state.opened


@pytest.mark.slow
@pytest.mark.docker
def test_grpo_tool_calls_are_made_and_answered_on_the_live_service(
    tool_model: Path, tool_task: Path, tmp_path: Path, sandbox_url: str
) -> None:
    out = tmp_path / "run"
    assert main(tool_run(tool_model, tool_task, out, sandbox_url, sandbox_url)) == 0
    assert_calls_were_made_and_answered(out)


def test_tools_flag_takes_only_known_tools_and_an_unreachable_service_is_one_line(
    tool_task: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check_tools(["python", "python"]) == ["python"]
    flags = ["grpo", "--model_name_or_path", "tiny", "--datasets", str(tool_task),
             "--reward_funcs", "format", "--output_dir", str(tmp_path / "o")]  # fmt: skip
    assert main([*flags, "--tools", "bash"]) == 2
    assert "unknown tool(s) ['bash']" in capsys.readouterr().err
    assert main([*flags, "--tools", "python", "--tools_url", "http://127.0.0.1:9"]) == 2
    assert "cannot open a Python session" in capsys.readouterr().err


def test_a_template_trl_cannot_parse_tool_calls_from_is_replaced_by_qwen2_5() -> None:
    from trl.chat_template_utils import qwen2_5_chat_template

    from rlvr_train.models import CHAT_TEMPLATE, train_tiny_tokenizer

    plain = train_tiny_tokenizer(["copy 7"], vocab_size=64)
    assert plain.chat_template == CHAT_TEMPLATE and not can_parse_tool_calls(plain)
    replaced, changed = with_tool_template(plain)
    assert changed and replaced.chat_template == qwen2_5_chat_template
    assert can_parse_tool_calls(replaced)
    kept, changed = with_tool_template(train_tiny_tokenizer(["x"], 64, tool_calling=True))
    assert not changed
    assert kept.eos_token == "<|im_end|>"


def test_tool_exchanges_pair_each_call_with_the_answer_shown() -> None:
    completion = [
        {"role": "assistant", "content": "", "tool_calls": [
            {"type": "function", "function": {"name": "python", "arguments": {"code": "1+1"}}}]},
        {"role": "tool", "name": "python", "content": "2"},
        {"role": "assistant", "content": "\\boxed{2}"},
    ]  # fmt: skip
    assert tool_exchanges(completion) == [
        {"name": "python", "arguments": {"code": "1+1"}, "answer": "2"}
    ]
    assert tool_exchanges("plain text") == []
