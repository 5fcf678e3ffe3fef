"""`accelerate launch` with two CPU processes: one gloo group, one writer, a trained policy.

A real launch of `rlvr_train.cli grpo` (the tiny model, a live verifier): both processes report
themselves as members of a group of two; the files that only the main process writes appear
once (one summary line and one metrics row per step, one built `tiny-init`); the batch TRL
gathers is both processes' (twice one process's tokens).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rlvr_train.reporting import METRICS_FILE
from tests.support.packages import require_packages
from tests.support.server import REPO_ROOT, free_port
from tests.support.trainer_runs import tiny_grpo

require_packages("trl", "accelerate")  # the launched runs import them


def launch(processes: int, flags: list[str], log: Path) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable, "-m", "accelerate.commands.launch",
        # accelerate's torchrun launcher; `--cpu` would start one process (without MPI)
        *(["--multi_gpu"] if processes > 1 else []),
        "--num_processes", str(processes), "--num_machines", "1", "--mixed_precision", "no",
        "--dynamo_backend", "no", "--main_process_port", str(free_port()),
        "-m", "rlvr_train.cli", *flags,
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "CUDA_VISIBLE_DEVICES": ""}
    done = subprocess.run(
        command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=540
    )
    log.write_text(done.stdout + done.stderr)
    return done


def tokens_of_first_step(out: Path) -> int:
    rows = [json.loads(x) for x in (out / METRICS_FILE).read_text().splitlines()]
    return int(next(r for r in rows if "num_tokens" in r)["num_tokens"])


@pytest.mark.slow
def test_two_cpu_processes_train_together_and_the_main_one_writes(
    copy_task: Path, tmp_path: Path, verifier_url: str
) -> None:
    def flags(out: Path) -> list[str]:
        return tiny_grpo(
            copy_task, out, "--reward_funcs", "math", "--max_completion_length", "2",
            "--per_device_train_batch_size", "8", "--max_steps", "3", "--save_strategy", "no",
            url=verifier_url,
        )  # fmt: skip

    out = tmp_path / "two"
    done = launch(2, flags(out), tmp_path / "two.log")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-4000:]
    assert "grpo: process 0 of 2 on cpu" in output and "grpo: process 1 of 2 on cpu" in output

    summary = [line for line in done.stdout.splitlines() if line.startswith("step ")]
    assert [line.split(" | ")[0] for line in summary] == ["step 1", "step 2", "step 3"]
    rows = [json.loads(x) for x in (out / METRICS_FILE).read_text().splitlines()]
    assert [r["step"] for r in rows if "reward" in r] == [1, 2, 3]
    assert all(r["math_reward/error"] == 0 for r in rows if "math_reward/error" in r)
    assert (out / "model.safetensors").is_file() and (out / "tokenizer.json").is_file()
    assert (out / "tiny-init" / "model.safetensors").is_file()

    # One process alone sees half the batch: TRL's gathered token count is half as large.
    single = tmp_path / "one"
    alone = launch(1, flags(single), tmp_path / "one.log")
    assert alone.returncode == 0, (alone.stdout + alone.stderr)[-4000:]
    assert "grpo: process 0 of 1 on cpu" in alone.stdout
    assert tokens_of_first_step(out) == 2 * tokens_of_first_step(single)


@pytest.mark.slow
def test_eval_under_two_processes_samples_once_on_the_main_process(
    copy_task: Path, tmp_path: Path, verifier_url: str
) -> None:
    """No training arguments here: the processes still form one CPU group, the main one
    samples and writes eval.json, and the other waits for it instead of sampling too."""
    out = tmp_path / "eval"
    flags = [
        "eval", "--model_name_or_path", "tiny", "--datasets", str(copy_task),
        "--dataset_size", "16", "--eval_size", "8", "--system_prompt", "",
        "--max_new_tokens", "2", "--num_samples", "2", "--output_dir", str(out),
        "--verifier_url", verifier_url,
    ]  # fmt: skip
    done = launch(2, flags, tmp_path / "eval.log")
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    printed = [line for line in done.stdout.splitlines() if line.startswith("greedy_accuracy")]
    assert len(printed) == 1, done.stdout
    summary = json.loads((out / "eval.json").read_text())
    assert summary["prompts"] == 8 and summary["samples"] == 16
