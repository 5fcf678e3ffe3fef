"""pass@k and the evaluation summary."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rlvr_train.sampling import pass_at_k, summarise


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (4, 0, 1, 0.0),
        (4, 4, 1, 1.0),
        (4, 1, 1, 0.25),
        (4, 1, 4, 1.0),
        (4, 2, 2, 1 - 1 / 6),
        (10, 3, 5, 1 - 21 / 252),
    ],
)
def test_pass_at_k_is_the_unbiased_estimator(n: int, c: int, k: int, expected: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(expected)


def test_pass_at_k_needs_enough_samples() -> None:
    with pytest.raises(ValueError):
        pass_at_k(2, 1, 3)


def test_summary_drops_unscored_samples_from_accuracy() -> None:
    summary = summarise([[1.0, 0.0], [None, 0.0]], ks=[1, 2])
    assert summary["accuracy"] == pytest.approx(1 / 3)
    assert summary["unscored"] == 0.25
    assert summary["pass@2"] == 0.5 and summary["pass@1"] == 0.25


def test_eval_writes_per_domain_numbers_verdicts_and_the_completions(
    copy_task: Path, tmp_path: Path, verifier_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`rlvr-train eval` against the real service: eval.json has the overall numbers, the
    verdict counts and the same per domain; completions.jsonl beside it has every completion
    with its verdict, and its verdicts add up to the counts."""
    from rlvr_train.cli import main

    out = tmp_path / "eval"
    assert main([
        "eval", "--model_name_or_path", "tiny", "--datasets", str(copy_task),
        "--dataset_size", "16", "--eval_size", "8", "--system_prompt", "",
        "--max_new_tokens", "2", "--num_samples", "2", "--output_dir", str(out),
        "--verifier_url", verifier_url,
    ]) == 0  # fmt: skip
    summary = json.loads((out / "eval.json").read_text())
    assert summary["prompts"] == 8 and summary["samples"] == 16
    assert {"greedy_accuracy", "accuracy", "pass@1", "pass@2", "unscored"} <= set(summary)
    assert sum(summary["verdicts"].values()) == 8
    assert sum(summary["sampled_verdicts"].values()) == 16
    math_row = summary["by_domain"]["math"]
    assert math_row["prompts"] == 8 and math_row["pass@2"] == summary["pass@2"]
    rows = [json.loads(line) for line in (out / "completions.jsonl").read_text().splitlines()]
    assert len(rows) == 8 + 16
    assert {r["mode"] for r in rows} == {"greedy", "sampled"}
    greedy = Counter(r["status"] for r in rows if r["mode"] == "greedy")
    assert dict(greedy) == summary["verdicts"]
    assert all(r["prompt"].startswith("copy ") and r["domain"] == "math" for r in rows)
    assert all((r["reward"] == 1.0) == (r["status"] == "passed") for r in rows)
    printed = capsys.readouterr().out
    assert "\n  math: prompts 8 | greedy_accuracy" in printed
