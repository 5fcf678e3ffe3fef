"""The preflight and user errors, through the real CLI: one line, exit 2, no model loaded.

Against a real service (tests/support/server.py) and with none listening; the data checks
need no service at all.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rlvr_train.cli import main
from rlvr_train.preflight import domains_needed, missing_columns, run_preflight
from tests.support.server import REPO_ROOT, running_service

DOWN = "http://127.0.0.1:9"  # nothing listens on the discard port


def grpo(task: Path | str, out: Path, url: str, *extra: str) -> list[str]:
    return [
        "grpo", "--model_name_or_path", "tiny", "--datasets", str(task), "--dataset_size", "16",
        "--verifier_url", url, "--output_dir", str(out), "--max_steps", "1", *extra,
    ]  # fmt: skip


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    return err


def test_verifier_down_fails_before_any_model_is_built(
    copy_task: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main(grpo(copy_task, out, DOWN, "--reward_funcs", "math")) == 2
    err = one_line_error(capsys)
    assert err.startswith("rlvr-train grpo: verifier not reachable at http://127.0.0.1:9")
    assert "rlvr-verifier serve" in err
    assert not (out / "tiny-init").exists()  # the model was never built


def test_a_domain_the_data_needs_but_the_service_does_not_run(
    tmp_path: Path, verifier_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The session's service runs with the code pool off: HumanEval rows need it."""
    assert main(grpo("humaneval", tmp_path / "run", verifier_url)) == 2
    err = one_line_error(capsys)
    assert "domain `code` is not ready: code verifier disabled" in err


def test_math_data_passes_against_the_real_service(copy_task: Path, verifier_url: str) -> None:
    rows = [{**json.loads(line), "id": "x"} for line in copy_task.read_text().splitlines()[:4]]
    line = run_preflight(["verify", "format"], rows, verifier_url)
    assert (
        line == f"preflight: 4 rows, rewards verify, format; verifier {verifier_url} ready for math"
    )


def test_the_api_key_is_checked(
    copy_task: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    env = {"VERIFIER_API_KEY": "right", "VERIFIER_CODE__IS_ENABLED": "false"}
    monkeypatch.delenv("VERIFIER_API_KEY", raising=False)
    with running_service(env) as url:
        assert main(grpo(copy_task, tmp_path / "a", url, "--reward_funcs", "math")) == 2
        assert "needs an API key: set $VERIFIER_API_KEY" in one_line_error(capsys)
        monkeypatch.setenv("VERIFIER_API_KEY", "wrong")
        assert main(grpo(copy_task, tmp_path / "b", url, "--reward_funcs", "math")) == 2
        assert "rejected the API key" in one_line_error(capsys)
        monkeypatch.setenv("VERIFIER_API_KEY", "right")
        rows = [json.loads(line) for line in copy_task.read_text().splitlines()[:2]]
        assert run_preflight(["math"], rows, url).endswith("ready for math")


def test_missing_columns_name_the_reward_the_column_and_list_what_was_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`math` on HumanEval rows: no `answer` column; the data check needs no service."""
    assert main(grpo("humaneval", tmp_path / "run", DOWN, "--reward_funcs", "math")) == 2
    err = one_line_error(capsys)
    assert "reward `math` needs column `answer`: 16 of 16 rows lack it" in err
    assert "columns found: id, prompt, domain, tests" in err


def test_which_domains_and_columns_each_reward_needs() -> None:
    rows = [
        {"id": "m", "domain": "math", "answer": "1"},
        {"id": "c", "domain": "code", "tests": None},
    ]
    assert domains_needed(["verify", "format"], rows) == {"math", "code"}
    assert domains_needed(["format", "think_format"], rows) == set()
    assert domains_needed(["math"], rows) == {"math"}
    assert missing_columns(["verify"], rows) == [
        "reward `verify` needs column `tests`: 1 of 2 rows lack it (first: c)"
    ]
    assert missing_columns(["format"], rows) == []


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(REPO_ROOT / "services"), str(REPO_ROOT / "trainer"), str(REPO_ROOT)]
    )}  # fmt: skip
    return subprocess.run(
        [sys.executable, "-m", "rlvr_train.cli", *args],
        capture_output=True, text=True, env=env, timeout=300, cwd=REPO_ROOT,
    )  # fmt: skip


def test_config_mistakes_in_our_words_without_a_traceback(tmp_path: Path) -> None:
    config = tmp_path / "grpo.yaml"
    config.write_text("beta: 0.1\nnum_generation: 4\n")
    done = run_cli("grpo", "--config", str(config))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    line = done.stderr.strip()
    assert line.startswith(
        f"rlvr-train grpo: unknown key `num_generation` in {config}; did you mean num_generations,"
    )
    assert line.endswith("(`rlvr-train grpo --help` lists them)") and "\n" not in line
    done = run_cli("grpo", "--datasets", "gym:basic_arithmetc", "--verifier_url", DOWN)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "unknown reasoning-gym generator `gym:basic_arithmetc`; did you mean" in done.stderr
    assert "gym:basic_arithmetic" in done.stderr


def test_help_is_short_and_eval_takes_no_training_flags(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["grpo", "--help"]) == 0
    text = capsys.readouterr().out
    assert len(text.splitlines()) < 150 and "--num_generations" in text and "--help-all" in text
    assert main(["eval", "--help"]) == 0
    text = capsys.readouterr().out
    assert "--num_samples" in text and "lora" not in text and "reward_weights" not in text
    for flag in ("--use_peft", "--lora_r", "--reward_weights", "--reward_funcs"):
        assert main(["eval", flag, "1"]) == 2
        assert f"unknown flag {flag}" in one_line_error(capsys)
