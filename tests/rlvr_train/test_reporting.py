"""The one-line summary, metrics JSONL and curves PNG."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from rlvr_train.reporting import (
    CURVES_FILE,
    METRICS_FILE,
    ReportCallback,
    plot_curves,
    rows_before,
    status_counts,
    summary_line,
)


def test_summary_line_has_reward_accuracy_statuses_and_timing_share() -> None:
    logs = {
        "reward": 0.5,
        "accuracy": 0.25,
        "verify_reward/passed": 8.0,
        "verify_reward/failed": 24.0,
        "verify_reward/error": 0.0,
        "rewards/verify_reward/mean": 0.25,
        "timing/generation_s": 1.5,
        "timing/rewards_s": 0.5,
        "timing/step_s": 2.5,
    }
    line = summary_line(10, logs)
    assert line.startswith("step 10 | reward 0.500 | accuracy 0.250")
    assert "passed 8.00 failed 24.00 error 0.00" in line
    assert "gen 1.50s verify 0.50s (20% of 2.50s step)" in line


def test_status_counts_sum_over_reward_functions_and_ignore_means() -> None:
    logs = {"math_reward/passed": 2.0, "verify_reward/passed": 3.0, "rewards/x/mean": 1.0}
    assert status_counts(logs) == {"passed": 5.0}


def test_callback_writes_jsonl_prints_and_plots(tmp_path: Path) -> None:
    printed: list[str] = []
    callback = ReportCallback(tmp_path, printer=printed.append)
    state = SimpleNamespace(is_world_process_zero=True, global_step=0)
    for step in (1, 2, 3):
        state.global_step = step
        callback.on_step_begin(None, state, None)
        callback.on_step_end(None, state, None)
        callback.on_log(None, state, None, logs={"reward": step / 10, "accuracy": step / 20})
    callback.on_train_end(None, state, None)
    rows = [json.loads(x) for x in (tmp_path / METRICS_FILE).read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2, 3] and rows[2]["reward"] == 0.3
    assert "timing/step_s" in rows[0]
    assert printed[0].startswith("step 1 | reward 0.100")
    assert (tmp_path / CURVES_FILE).read_bytes()[:4] == b"\x89PNG"


def test_no_curves_without_values(tmp_path: Path) -> None:
    assert plot_curves([{"step": 1, "train_runtime": 3.0}], tmp_path / "x.png") is None
    assert plot_curves([], tmp_path / "x.png") is None


GRPO_ROW = {
    "reward": 0.4, "accuracy": 0.25, "rewards/verify_reward/mean": 0.25,
    "rewards/answer_format_reward/mean": 0.6, "verify_reward/passed": 2.0,
    "verify_reward/failed": 6.0, "verify_reward/error": 0.0, "kl": 0.01, "loss": 0.02,
    "completions/mean_length": 30.0, "timing/step_s": 2.0, "timing/rewards_s": 0.5,
    "timing/generation_s": 1.2,
}  # fmt: skip


def test_curves_have_a_panel_per_quantity_with_each_reward_and_verdict_share() -> None:
    from rlvr_train.reporting import panel_series

    rows = [{"step": s, **GRPO_ROW} for s in (1, 2)]
    panels = panel_series(rows)
    assert set(panels) == {
        "reward", "verdict shares", "KL to the reference", "loss",
        "completion length (tokens)", "step time (s)", "share of the step waiting for rewards (%)",
    }  # fmt: skip
    assert set(panels["reward"]) == {
        "reward",
        "accuracy",
        "rewards/verify_reward/mean",
        "rewards/answer_format_reward/mean",
    }
    assert panels["verdict shares"]["share/passed"] == [(1, 0.25), (2, 0.25)]
    assert panels["share of the step waiting for rewards (%)"]["rewards_share"][0] == (1, 25.0)


def test_one_logged_step_still_draws_points(tmp_path: Path) -> None:
    """A two-step run logs one or two rows: markers make them visible (a line of one point
    draws nothing)."""
    path = plot_curves([{"step": 1, **GRPO_ROW}], tmp_path / CURVES_FILE)
    assert path is not None and path.read_bytes()[:4] == b"\x89PNG"


def run_steps(out: Path, start: int, stop: int, value: float, world_zero: bool = True) -> None:
    """A run of the callback from `start` (0: fresh; else a resumed checkpoint's step)."""
    callback = ReportCallback(out, printer=lambda _: None)
    state = SimpleNamespace(is_world_process_zero=world_zero, global_step=start)
    callback.on_train_begin(None, state, None)
    for step in range(start + 1, stop + 1):
        state.global_step = step
        callback.on_log(None, state, None, logs={"reward": value})
    callback.on_train_end(None, state, None)


def steps_and_rewards(out: Path) -> list[tuple[int, float]]:
    rows = [json.loads(x) for x in (out / METRICS_FILE).read_text().splitlines()]
    return [(r["step"], r["reward"]) for r in rows]


def test_a_rerun_in_the_same_folder_starts_its_own_metrics(tmp_path: Path) -> None:
    run_steps(tmp_path, 0, 3, 0.1)
    run_steps(tmp_path, 0, 2, 0.9)
    assert steps_and_rewards(tmp_path) == [(1, 0.9), (2, 0.9)]


def test_a_resumed_run_keeps_rows_up_to_its_checkpoint_and_redoes_the_rest(
    tmp_path: Path,
) -> None:
    run_steps(tmp_path, 0, 5, 0.1)  # crashed after logging step 5; checkpoint at step 2
    run_steps(tmp_path, 2, 6, 0.9)
    assert steps_and_rewards(tmp_path) == [(1, 0.1), (2, 0.1), *((s, 0.9) for s in range(3, 7))]
    assert rows_before([{"step": 1}, {"step": 3}], 2) == [{"step": 1}]
    assert rows_before([{"step": 1}], 0) == []


def test_only_the_main_process_writes_metrics(tmp_path: Path) -> None:
    run_steps(tmp_path, 0, 3, 0.1, world_zero=False)
    assert not (tmp_path / METRICS_FILE).exists() and not (tmp_path / CURVES_FILE).exists()
