"""The GRPO stage: TRL's private methods it wraps, resume from a checkpoint, LoRA."""

from __future__ import annotations

import inspect
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from trl import GRPOTrainer

from rlvr_train.cli import main
from rlvr_train.grpo import TimedGRPOTrainer
from rlvr_train.reporting import METRICS_FILE
from tests.support.trainer_runs import tiny_grpo


def test_the_private_trl_methods_we_wrap_keep_their_signatures() -> None:
    """pyproject.toml pins TRL below its next minor release because of these overrides; when
    the pin is raised, this says whether the wrapped signatures still hold."""
    assert list(inspect.signature(GRPOTrainer._generate).parameters) == ["self", "prompts"]
    assert list(inspect.signature(GRPOTrainer._calculate_rewards).parameters) == [
        "self",
        "inputs",
        "prompts",
        "completions",
        "completion_ids_list",
    ]
    assert "self._metrics = " in inspect.getsource(GRPOTrainer.__init__)
    assert TimedGRPOTrainer._generate is not GRPOTrainer._generate


def metric_rows(out: Path) -> list[dict[str, Any]]:
    rows = [json.loads(x) for x in (out / METRICS_FILE).read_text().splitlines()]
    return [r for r in rows if "reward" in r]


@pytest.mark.slow
def test_resume_continues_from_the_last_checkpoint_and_metrics_stay_one_run(
    copy_task: Path, tmp_path: Path, verifier_url: str
) -> None:
    out = tmp_path / "run"
    flags = tiny_grpo(
        copy_task, out, "--reward_funcs", "math", "--max_completion_length", "1",
        "--max_steps", "4", "--save_strategy", "steps", "--save_steps", "2",
        "--save_total_limit", "2", "--save_only_model", "false", url=verifier_url,
    )  # fmt: skip
    assert main(flags) == 0
    assert sorted(p.name for p in out.glob("checkpoint-*")) == ["checkpoint-2", "checkpoint-4"]
    # A run preempted after logging step 4 but before saving it: its rows are tagged.
    shutil.rmtree(out / "checkpoint-4")
    rows = [json.loads(x) for x in (out / METRICS_FILE).read_text().splitlines()]
    (out / METRICS_FILE).write_text("".join(json.dumps({**r, "old": 1}) + "\n" for r in rows))

    assert main([*flags, "--resume_from_checkpoint", "true"]) == 0
    resumed = metric_rows(out)
    assert [(r["step"], r.get("old")) for r in resumed] == [(1, 1), (2, 1), (3, None), (4, None)]
    state = json.loads((out / "checkpoint-4" / "trainer_state.json").read_text())
    assert state["global_step"] == 4

    # Without resume, the same folder starts over: no row of the earlier runs is left.
    (out / METRICS_FILE).write_text(
        "".join(json.dumps({**r, "old": 1}) + "\n" for r in metric_rows(out))
    )
    assert main([*flags, "--save_strategy", "no"]) == 0
    assert [(r["step"], r.get("old")) for r in metric_rows(out)] == [(s, None) for s in range(1, 5)]


@pytest.mark.slow
def test_lora_trains_only_its_target_modules_and_saves_a_merged_checkpoint(
    copy_task: Path, tmp_path: Path
) -> None:
    """`--use_peft` goes through TRL's `get_peft_config`; the saved policy is the base with
    the adapters merged: only the targeted projections changed, and no adapter files."""
    from safetensors.torch import load_file

    out = tmp_path / "lora"
    flags = tiny_grpo(
        copy_task, out, "--reward_funcs", "format", "--max_completion_length", "8",
        "--max_steps", "3", "--save_strategy", "no", "--learning_rate", "5e-2",
        "--use_peft", "--lora_r", "4", "--lora_alpha", "8", "--lora_dropout", "0",
        "--lora_target_modules", "q_proj", "v_proj",
    )  # fmt: skip
    assert main(flags) == 0
    assert not (out / "adapter_config.json").exists()
    base = load_file(str(out / "tiny-init" / "model.safetensors"))
    merged = load_file(str(out / "model.safetensors"))
    assert merged.keys() == base.keys()
    changed = {k for k in base if not base[k].equal(merged[k])}
    assert changed, "LoRA left every weight as it was"
    assert all(k.endswith(("q_proj.weight", "v_proj.weight")) for k in changed), changed


@pytest.mark.slow
def test_a_run_shows_one_line_per_step_samples_verdicts_and_keeps_one_model_only_checkpoint(
    copy_task: Path, tmp_path: Path, verifier_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Defaults: `logging_steps` fitted to a short run (every step of 4), our line once per
    step (not TRL's dict too), samples.jsonl with the verifier's verdicts, one model-only
    checkpoint; `--save_only_model false` keeps the optimizer for an exact resume."""
    from rlvr_train.samples import SAMPLES_FILE

    out = tmp_path / "run"
    flags = [
        f for f in tiny_grpo(
            copy_task, out, "--reward_funcs", "verify", "format", "--max_completion_length", "2",
            "--max_steps", "4", "--save_steps", "2", "--sample_every_steps", "2",
            "--disable_tqdm", "false", url=verifier_url,
        ) if f not in ("--logging_steps", "1")
    ]  # fmt: skip
    assert main(flags) == 0
    printed = capsys.readouterr()
    lines = (printed.out + printed.err).splitlines()
    assert [line.split(" |")[0] for line in lines if line.startswith("step ")] == [
        f"step {n}" for n in range(1, 5)
    ]
    assert not [line for line in lines if "{'loss'" in line or "'reward':" in line]
    assert any(line.startswith("done: 4 steps in") for line in lines)
    assert any(line.startswith("preflight: 64 rows") for line in lines)

    samples = [json.loads(x) for x in (out / SAMPLES_FILE).read_text().splitlines()]
    assert sorted({s["step"] for s in samples}) == [1, 3]  # the first, then 2 steps on
    assert len(samples) == 2 * 32
    first = samples[0]
    assert first["question"].startswith("copy ") and isinstance(first["completion"], str)
    assert set(first["rewards"]) == {"verify_reward", "answer_format_reward"}
    assert first["verify_reward/status"] in ("passed", "failed")
    assert {s["verify_reward/status"] for s in samples} <= {"passed", "failed"}

    assert sorted(p.name for p in out.glob("checkpoint-*")) == ["checkpoint-4"]
    model_only = sorted(p.name for p in (out / "checkpoint-4").iterdir())
    assert "model.safetensors" in model_only and "optimizer.pt" not in model_only
    full = tmp_path / "full"
    flags = [f if f != str(out) else str(full) for f in flags]
    assert main([*flags, "--save_only_model", "false", "--save_total_limit", "5"]) == 0
    assert sorted(p.name for p in full.glob("checkpoint-*")) == ["checkpoint-2", "checkpoint-4"]
    assert (full / "checkpoint-4" / "optimizer.pt").is_file()

    def size(folder: Path) -> int:
        return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())

    print(f"disk, tiny model, 4 steps: default {size(out)} B, full state {size(full)} B")
    assert size(out) < size(full)
