"""What a user sees of a run: a one-line summary per logging step, metrics JSONL, a curves PNG.

TRL's progress bar stays; its print of the raw log dict at each step is replaced by our line
(`QuietProgressCallback`), so each logging step shows once.

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
from transformers.trainer_callback import PrinterCallback, ProgressCallback

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


# Panels of curves.png: title -> the metric keys drawn in it (a prefix ending in `/` takes every
# key under it that ends with `/mean`: one line per reward function).
PANELS: dict[str, tuple[str, ...]] = {
    "reward": ("reward", "accuracy", "rewards/"),
    "verdict shares": (),  # filled from the `<reward>/<status>` counts, see `verdict_shares`
    "KL to the reference": ("kl",),
    "loss": ("loss",),
    "completion length (tokens)": (
        "completions/mean_length", "completions/min_length", "completions/max_length",
    ),
    "step time (s)": (STEP_KEY, GENERATION_KEY, REWARDS_KEY),
    "share of the step waiting for rewards (%)": ("rewards_share",),
}  # fmt: skip


def verdict_shares(row: Mapping[str, Any]) -> dict[str, float]:
    """Each verdict's share of the verifier's answers in one logged row."""
    counts = status_counts(row)
    total = sum(counts.values())
    return {status: count / total for status, count in counts.items()} if total else {}


def derived(row: Mapping[str, Any]) -> dict[str, Any]:
    """A row with the plotted values that are not logged as such (shares)."""
    out = dict(row)
    out |= {f"share/{k}": v for k, v in verdict_shares(row).items()}
    if row.get(STEP_KEY) and isinstance(row.get(REWARDS_KEY), int | float):
        out["rewards_share"] = 100 * row[REWARDS_KEY] / row[STEP_KEY]
    return out


Points = list[tuple[int, float]]


def panel_series(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Points]]:
    """title -> key -> (step, value) points, for the panels that have any points."""
    rows = [derived(row) for row in rows if "reward" in row or "loss" in row]
    panels: dict[str, dict[str, Points]] = {}
    for title, wanted in PANELS.items():
        keys: list[str] = []
        for key in wanted if title != "verdict shares" else ("share/",):
            if key.endswith("/"):
                found = {k for row in rows for k in row if k.startswith(key)}
                keys += sorted(k for k in found if key == "share/" or k.endswith("/mean"))
            else:
                keys.append(key)
        series = {
            key: [
                (int(row["step"]), float(row[key]))
                for row in rows
                if isinstance(row.get(key), int | float) and not math.isnan(float(row[key]))
            ]
            for key in keys
        }
        series = {key: points for key, points in series.items() if points}
        if title == "verdict shares":  # a verdict that never occurs would hide the others
            series = {k: points for k, points in series.items() if any(v for _, v in points)}
        if series:
            panels[title] = series
    return panels


def plot_curves(rows: Sequence[Mapping[str, Any]], path: Path) -> Path | None:
    """One panel per quantity (reward per function, verdict shares, KL, loss, completion length,
    step time, share of the step spent on rewards) against the step, with markers so a short
    run's few points show (skipped, with a message, where matplotlib is not installed)."""
    try:
        import matplotlib
    except ImportError:
        print("curves not plotted: matplotlib is not installed (metrics.jsonl has the data)")
        return None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    panels = panel_series(rows)
    if not panels:
        return None
    columns = 2 if len(panels) > 1 else 1
    lines = math.ceil(len(panels) / columns)
    fig, axes = plt.subplots(lines, columns, figsize=(6 * columns, 3.2 * lines), squeeze=False)
    for ax, (title, series) in zip(axes.flat, panels.items(), strict=False):
        for key, points in series.items():
            steps, values = zip(*points, strict=True)
            label = key.removeprefix("share/").removeprefix("rewards/").removesuffix("/mean")
            label = label.removeprefix("completions/").removeprefix("timing/")
            ax.plot(steps, values, marker="o", markersize=4, label=label,
                    linewidth=2 if key in ("reward", STEP_KEY) else 1.2)  # fmt: skip
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("step", fontsize=8)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # steps, not 1.5
        if title == "verdict shares":
            ax.set_ylim(-0.03, 1.03)
        elif title.startswith("share of the step"):
            ax.set_ylim(0, max(5.0, 1.2 * max(v for _, v in series["rewards_share"])))
        ax.grid(alpha=0.3)
        ax.tick_params(labelsize=8)
        if len(series) > 1:
            ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
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


class QuietProgressCallback(ProgressCallback):
    """TRL's progress bar without its print of every log dict (our summary line replaces it)."""

    def on_log(self, args: Any, state: Any, control: Any, logs: Any = None, **kwargs: Any) -> None:
        return None


def quiet_trainer_logs(trainer: Any) -> None:
    """Swap the trainer's log printers for the quiet progress bar (`disable_tqdm`: no bar)."""
    for callback in (ProgressCallback, PrinterCallback):
        trainer.remove_callback(callback)
    if not trainer.args.disable_tqdm:
        trainer.add_callback(QuietProgressCallback)


def finished_line(step: int, logs: Mapping[str, Any]) -> str:
    """`done: 4 steps in 31.2 s (7.80 s/step), train loss 0.012`."""
    runtime = float(logs.get("train_runtime", 0.0))
    line = f"done: {step} steps in {runtime:.1f} s"
    if step:
        line += f" ({runtime / step:.2f} s/step)"
    if isinstance(logs.get("train_loss"), int | float):
        line += f", train loss {logs['train_loss']:.4g}"
    return line


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
        elif "train_runtime" in logs:
            self.printer(finished_line(state.global_step, logs))
        elif "loss" in logs:  # SFT
            self.printer(f"step {state.global_step} | loss {_fmt(logs.get('loss'))}")

    def on_train_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        if state.is_world_process_zero and self.rows:
            plot_curves(self.rows, self.output_dir / CURVES_FILE)
