"""The one-line summary, metrics JSONL and curves PNG."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from trainer.reporting import (
    CURVES_FILE,
    METRICS_FILE,
    ReportCallback,
    plot_curves,
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
    assert plot_curves([{"step": 1, "loss": 0.3}], tmp_path / "x.png") is None
