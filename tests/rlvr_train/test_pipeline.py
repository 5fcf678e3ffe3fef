"""The R1-style pipeline end to end on the tiny model and a live verifier, and its resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rlvr_train.cli import main
from rlvr_train.pipeline import STAGES, STATE_FILE, load_state
from tests.support.models import tiny_reward_model
from tests.support.trainer_runs import write_copy_task


@pytest.mark.slow
def test_pipeline_runs_every_stage_chained_and_resumes(tmp_path: Path, verifier_url: str) -> None:
    task = write_copy_task(tmp_path / "copy.jsonl", 64, seed=1, with_completion=True)
    rm = tiny_reward_model(tmp_path / "rm", [f"copy {d}" for d in range(10)])
    out = tmp_path / "pipe"
    flags = [
        "--model_name_or_path", "tiny", "--datasets", str(task), "--dataset_size", "64",
        "--system_prompt", "", "--verifier_url", verifier_url, "--output_dir", str(out),
        "--reward_funcs", "math", "--reward_model_name_or_path", str(rm),
        "--final_reward_funcs", "math", "reward_model", "--final_reward_weights", "1.0", "0.1",
        "--sft_max_steps", "40", "--sft_learning_rate", "1e-2", "--sft_batch_size", "16",
        "--rl_max_steps", "3", "--final_rl_max_steps", "3", "--rs_num_samples", "4",
        "--per_device_train_batch_size", "16", "--num_generations", "4",
        "--max_completion_length", "2", "--logging_steps", "1", "--report_to", "none",
        "--save_strategy", "no", "--disable_tqdm", "true", "--seed", "0",
    ]  # fmt: skip
    assert main(["pipeline", *flags]) == 0

    state = load_state(out)
    assert list(state) == list(STAGES)
    # Each stage's output is the next one's input, and each is a real artefact.
    assert Path(state["cold_start_sft"]).name == "1-cold_start_sft"
    kept = [json.loads(x) for x in Path(state["rejection"]).read_text().splitlines()]
    assert kept and all(r["completion"].strip() == r["answer"] for r in kept)
    summary = json.loads((Path(state["rejection"]).parent / "summary.json").read_text())
    assert summary["pass@4"] >= summary["pass@1"] > 0
    final_metrics = [
        json.loads(x) for x in (Path(state["final_rl"]) / "metrics.jsonl").read_text().splitlines()
    ]
    assert any("rewards/rm/mean" in row for row in final_metrics)
    assert (Path(state["final_rl"]) / "model.safetensors").is_file()

    # `eval` on held-out copies: the recipe's later stages beat the cold start.
    held_out = write_copy_task(tmp_path / "held_out.jsonl", 40, seed=2)
    scores = {}
    for stage in ("cold_start_sft", "final_rl"):
        eval_dir = tmp_path / f"eval-{stage}"
        eval_flags = [
            "--model_name_or_path", state[stage], "--datasets", str(held_out),
            "--eval_size", "40", "--system_prompt", "", "--max_new_tokens", "2",
            "--num_samples", "4", "--output_dir", str(eval_dir), "--verifier_url", verifier_url,
        ]  # fmt: skip
        assert main(["eval", *eval_flags]) == 0
        scores[stage] = json.loads((eval_dir / "eval.json").read_text())
    final, cold = scores["final_rl"], scores["cold_start_sft"]
    assert final["pass@4"] >= final["pass@1"] and final["prompts"] == 40
    assert final["pass@1"] > cold["pass@1"] + 0.1, scores  # seeded run: 0.044 -> 0.325

    # Resume: a finished run does nothing; a run with the last stage forgotten redoes only it.
    stamp = (Path(state["grpo"]) / "model.safetensors").stat().st_mtime_ns
    finished = json.loads((out / STATE_FILE).read_text())
    del finished["finished"]["final_rl"]
    (out / STATE_FILE).write_text(json.dumps(finished))
    assert main(["pipeline", *flags]) == 0
    assert list(load_state(out)) == list(STAGES)
    assert (Path(state["grpo"]) / "model.safetensors").stat().st_mtime_ns == stamp


@pytest.mark.slow
def test_rejection_that_keeps_nothing_stops_or_skips_by_the_rule(
    tmp_path: Path, verifier_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A random tiny model cannot write a 12-digit answer in 2 tokens: rejection sampling keeps
    nothing. `stop`: exit 2 with what to change, stage 3 not marked done; `skip`: the final RL
    starts from the GRPO model and the pipeline finishes."""
    import random

    from rlvr_train.data import write_jsonl
    from rlvr_train.models import build_tiny_model
    from rlvr_train.pipeline import _write_state

    rng = random.Random(0)
    rows = [
        {"id": f"hard-{i}", "prompt": f"say {n}", "domain": "math", "answer": n}
        for i, n in enumerate(str(rng.randrange(10**11, 10**12)) for _ in range(8))
    ]
    task = tmp_path / "hard.jsonl"
    write_jsonl(task, rows)
    model = build_tiny_model([r["prompt"] for r in rows], tmp_path / "model", seed=0)
    out = tmp_path / "pipe"
    # stages 1 and 2 done (by an earlier run): their model is the random tiny one
    _write_state(out, {"cold_start_sft": str(model), "grpo": str(model)})
    flags = [
        "pipeline", "--model_name_or_path", "tiny", "--datasets", str(task), "--dataset_size", "8",
        "--system_prompt", "", "--verifier_url", verifier_url, "--output_dir", str(out),
        "--reward_funcs", "math", "--final_reward_funcs", "math", "--rs_num_samples", "2",
        "--final_rl_max_steps", "1", "--per_device_train_batch_size", "4",
        "--num_generations", "2", "--max_completion_length", "2", "--report_to", "none",
        "--save_strategy", "no", "--disable_tqdm", "true",
    ]  # fmt: skip
    assert main([*flags, "--on_empty_rejection", "stop"]) == 2
    err = capsys.readouterr().err.strip()  # transformers' save progress bars, then our line
    assert "Traceback" not in err
    err = err.splitlines()[-1]
    assert (
        err.startswith("rlvr-train pipeline: ")
        and "stopped after stage 3" in err
        and "kept nothing: 0 of 16 completions" in err
    )
    assert "--rs_num_samples, now 2" in err
    assert list(load_state(out)) == ["cold_start_sft", "grpo"]

    assert main(flags) == 0  # default: skip
    printed = capsys.readouterr().out
    assert "Skipping rejection_sft (--on_empty_rejection skip)" in printed
    state = load_state(out)
    assert list(state) == list(STAGES)
    assert state["rejection_sft"] == str(model)
    assert (Path(state["final_rl"]) / "model.safetensors").is_file()
