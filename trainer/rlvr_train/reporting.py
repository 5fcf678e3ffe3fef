"""What a user sees of a run: a one-line summary per logging step, metrics JSONL, a curves PNG.

`metrics.jsonl` holds one run's rows: a fresh run in a used output_dir starts it anew; a run
resumed from a checkpoint keeps the rows up to the checkpoint's step and drops the later ones,
which the resumed run logs again. Only the main process writes.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

from rlvr.schemas.common import Status

METRICS_FILE = "metrics.jsonl"
CURVES_FILE = "curves.png"
GENERATION_KEY = "timing/generation_s"
REWARDS_KEY = "timing/rewards_s"
STEP_KEY = "timing/step_s"


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


STATUSES = tuple(status.value for status in Status)  # the adapter logs `<reward>/<status>`


def status_counts(logs: Mapping[str, Any]) -> dict[str, float]:
    """Verdicts per reward call the adapter logged (`<reward>/<status>`), summed over rewards."""
    counts: dict[str, float] = {}
    for key, value in logs.items():
        prefix, _, status = key.rpartition("/")
        if prefix and status in STATUSES and isinstance(value, int | float):
            counts[status] = counts.get(status, 0.0) + value
    return counts


def summary_line(step: int, logs: Mapping[str, Any]) -> str:
    """`step 20 | reward 0.41 | accuracy 0.30 | passed .. | gen 1.20s verify 0.10s (8% of step)`."""
    parts = [f"step {step}", f"reward {_fmt(logs.get('reward'))}"]
    if "accuracy" in logs:
        parts.append(f"accuracy {_fmt(logs.get('accuracy'))}")
    statuses = status_counts(logs)
    if statuses:
        parts.append(" ".join(f"{name} {_fmt(value, 2)}" for name, value in statuses.items()))
    generation, rewards = logs.get(GENERATION_KEY), logs.get(REWARDS_KEY)
    step_s = logs.get(STEP_KEY)
    if generation is not None or rewards is not None:
        timing = f"gen {_fmt(generation, 2)}s verify {_fmt(rewards, 2)}s"
        if step_s and rewards is not None:
            timing += f" ({100 * rewards / step_s:.0f}% of {step_s:.2f}s step)"
        parts.append(timing)
    return " | ".join(parts)


def plot_curves(rows: Sequence[Mapping[str, Any]], path: Path) -> Path | None:
    """Reward and accuracy (and each reward function's mean) against the step, as a PNG
    (skipped, with a message, where matplotlib is not installed)."""
    try:
        import matplotlib
    except ImportError:
        print("curves not plotted: matplotlib is not installed (metrics.jsonl has the data)")
        return None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    per_function = {
        k for row in rows for k in row if k.startswith("rewards/") and k.endswith("/mean")
    }
    keys = ["reward", "accuracy", *sorted(per_function)]
    series = {
        key: [(row["step"], row[key]) for row in rows if isinstance(row.get(key), int | float)]
        for key in keys
    }
    series = {key: points for key, points in series.items() if points}
    if not series:
        return None
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for key, points in series.items():
        steps, values = zip(*points, strict=True)
        ax.plot(steps, values, label=key, linewidth=2 if key in ("reward", "accuracy") else 1)
    ax.set_xlabel("step")
    ax.set_ylabel("value")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a metrics file ([] when there is none)."""
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def rows_before(rows: Sequence[Mapping[str, Any]], step: int) -> list[dict[str, Any]]:
    """The rows a run starting at `step` keeps: none for a fresh run (step 0), else those
    logged up to the checkpoint's step."""
    return [dict(row) for row in rows if step > 0 and int(row.get("step", 0)) <= step]


def write_rows(path: Path, rows: Sequence[Mapping[str, Any]]) -> None:
    """Replace the file's rows at once (a crash leaves the old file or the new one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(json.dumps(row, default=str) + "\n" for row in rows))
    tmp.replace(path)


def print_line(line: str) -> None:
    """Print above TRL's progress bar rather than through it."""
    from tqdm.auto import tqdm

    tqdm.write(line)


class ReportCallback(TrainerCallback):
    """Prints a summary line at each log, appends it to metrics.jsonl, plots curves at the end."""

    def __init__(self, output_dir: str | Path, printer: Any = print_line) -> None:
        self.output_dir = Path(output_dir)
        self.rows: list[dict[str, Any]] = []
        self.printer = printer
        self._step_started = 0.0
        self._step_times: list[float] = []

    def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        """Start this run's metrics: from scratch, or from a resumed checkpoint's step."""
        if not state.is_world_process_zero:
            return
        path = self.output_dir / METRICS_FILE
        self.rows = rows_before(read_rows(path), state.global_step)
        write_rows(path, self.rows)

    def on_step_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        self._step_started = time.perf_counter()

    def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        self._step_times.append(time.perf_counter() - self._step_started)

    def on_log(
        self, args: Any, state: Any, control: Any, logs: dict[str, Any] | None = None, **_: Any
    ) -> None:
        if not state.is_world_process_zero or not logs:
            return
        row = {"step": state.global_step, **logs}
        if self._step_times:
            row[STEP_KEY] = sum(self._step_times) / len(self._step_times)
            self._step_times.clear()
        self.rows.append(row)
        self.output_dir.mkdir(parents=True, exist_ok=True)
        with (self.output_dir / METRICS_FILE).open("a") as handle:
            handle.write(json.dumps(row, default=str) + "\n")
        if "reward" in logs:
            self.printer(summary_line(state.global_step, row))

    def on_train_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        if state.is_world_process_zero and self.rows:
            plot_curves(self.rows, self.output_dir / CURVES_FILE)
