"""Sample completions and score them through the verifier: `eval` and `rejection-sample`.

`eval` writes `eval.json` (overall numbers, the same per domain, the verdict counts) and
`completions.jsonl` beside it: every completion with its reward, verdict and the verifier's
detail, so a number can be traced back to what the model wrote.

pass@k uses the unbiased estimator of Chen et al. (2021): 1 - C(n-c, k) / C(n, k) for n
samples of which c are verified, averaged over prompts.

Under `accelerate launch` the main process samples (on its own device) and writes the results;
the other processes wait for them and read them.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rlvr_train.config import (
    DataArguments,
    ModelArguments,
    SamplingArguments,
    SamplingModelArguments,
    VerifierArguments,
)
from rlvr_train.data import build_records, write_jsonl
from rlvr_train.distributed import device, on_main_process
from rlvr_train.errors import UsageError
from rlvr_train.grpo import preflight, prepare_model, training_records
from rlvr_train.models import init_kwargs, load_tokenizer
from rlvr_train.records import TaskRecord
from rlvr_train.rewards.verifiable import verifiable_reward

LoadArguments = ModelArguments | SamplingModelArguments
COMPLETIONS_FILE = "completions.jsonl"
EVAL_FILE = "eval.json"


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of k samples drawn from n (c of them correct) is correct."""
    if k > n:
        raise ValueError(f"k={k} is larger than the {n} samples")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def summarise(rewards: Sequence[Sequence[float | None]], ks: Sequence[int]) -> dict[str, float]:
    """accuracy (share of scored samples judged right), pass@k, and the unscored share."""
    flat = [r for row in rewards for r in row]
    scored = [r for r in flat if r is not None]
    summary = {
        "prompts": float(len(rewards)),
        "samples": float(len(flat)),
        "accuracy": sum(r >= 1.0 for r in scored) / max(len(scored), 1),
        "unscored": 1 - len(scored) / max(len(flat), 1),
    }
    for k in ks:
        summary[f"pass@{k}"] = sum(
            pass_at_k(len(row), sum(r is not None and r >= 1.0 for r in row), k) for row in rewards
        ) / max(len(rewards), 1)
    return summary


def generate(
    model_path: str,
    prompts: Sequence[list[dict[str, str]]],
    args: SamplingArguments,
    greedy: bool = False,
    model_args: LoadArguments | None = None,
) -> list[list[str]]:
    """`args.num_samples` completions per chat prompt (one when greedy), on this process's
    device; the model loads as `model_args` say (TRL's `ModelConfig`: dtype, attention, ...)."""
    import torch
    from transformers import AutoModelForCausalLM

    torch.manual_seed(args.seed)
    loading = init_kwargs(model_args or SamplingModelArguments(), args.trust_remote_code)
    tokenizer = load_tokenizer(
        model_path, revision=loading["revision"], trust_remote_code=args.trust_remote_code
    )
    tokenizer.padding_side = "left"
    model = AutoModelForCausalLM.from_pretrained(model_path, **loading)
    model.to(device()).eval()
    n = 1 if greedy else args.num_samples
    outputs: list[list[str]] = []
    for start in range(0, len(prompts), args.generation_batch):
        batch = [
            tokenizer.apply_chat_template(p, add_generation_prompt=True, tokenize=False)
            for p in prompts[start : start + args.generation_batch]
        ]
        encoded = tokenizer(batch, return_tensors="pt", padding=True, add_special_tokens=False)
        encoded = encoded.to(model.device)
        with torch.inference_mode():
            generated = model.generate(
                **encoded,
                do_sample=not greedy,
                temperature=args.sample_temperature if not greedy else None,
                top_p=args.sample_top_p if not greedy else None,
                max_new_tokens=args.max_new_tokens,
                num_return_sequences=n,
                pad_token_id=tokenizer.pad_token_id,
                eos_token_id=tokenizer.eos_token_id,
            )
        texts = tokenizer.batch_decode(
            generated[:, encoded["input_ids"].shape[1] :], skip_special_tokens=True
        )
        outputs.extend(texts[i : i + n] for i in range(0, len(texts), n))
    return outputs


@dataclass
class Scored:
    """Per prompt, per completion: the text, the reward, the verdict and the verifier's detail."""

    completions: list[list[str]]
    rewards: list[list[float | None]]
    statuses: list[list[str]]
    details: list[list[str]]


def score(
    rows: Sequence[dict[str, Any]], completions: Sequence[Sequence[str]], verifier_url: str | None
) -> list[list[float | None]]:
    """The verifier's reward for every completion, through the TRL adapter's `verify` function."""
    return score_detailed(rows, completions, verifier_url).rewards


def _regroup(flat: Sequence[Any], groups: Sequence[Sequence[Any]]) -> list[list[Any]]:
    out, index = [], 0
    for group in groups:
        out.append(list(flat[index : index + len(group)]))
        index += len(group)
    return out


def score_detailed(
    rows: Sequence[dict[str, Any]], completions: Sequence[Sequence[str]], verifier_url: str | None
) -> Scored:
    """Rewards, verdicts and details of every completion (the verdicts reach us as TRL's
    completion-table columns, `log_extra`, which the adapter fills)."""
    extra: dict[str, list[Any]] = {}

    def log_extra(column: str, values: list[Any]) -> None:
        extra.setdefault(column, []).extend(values)

    reward = verifiable_reward("verify", verifier_url)
    flat_rows = [row for row, group in zip(rows, completions, strict=True) for _ in group]
    columns = {
        key: [row[key] for row in flat_rows]
        for key in ("domain", "answer", "tests", "statement", "header")
    }
    flat = [c for group in completions for c in group]
    rewards = asyncio.run(
        reward(
            prompts=[r["prompt"] for r in flat_rows], completions=flat, log_extra=log_extra,
            **columns,
        )
    )  # fmt: skip
    statuses = extra.get("verify_reward/status") or [
        "error" if r is None else "passed" if r >= 1.0 else "failed" for r in rewards
    ]
    details = extra.get("verify_reward/detail") or [""] * len(flat)
    return Scored(
        completions=[list(group) for group in completions],
        rewards=_regroup(rewards, completions),
        statuses=_regroup(statuses, completions),
        details=_regroup([d or "" for d in details], completions),
    )


def sample_and_score(
    model_path: str,
    records: list[TaskRecord],
    data_args: DataArguments,
    reward_args: VerifierArguments,
    args: SamplingArguments,
    greedy: bool = False,
    model_args: LoadArguments | None = None,
) -> tuple[list[list[str]], list[list[float | None]]]:
    from rlvr_train.data import to_rows

    rows = to_rows(records, data_args.system_prompt or None)
    prompts = [row["prompt"] for row in rows]
    completions = generate(model_path, prompts, args, greedy=greedy, model_args=model_args)
    return completions, score(rows, completions, reward_args.verifier_url)


def sample_and_score_detailed(
    model_path: str,
    records: list[TaskRecord],
    data_args: DataArguments,
    reward_args: VerifierArguments,
    args: SamplingArguments,
    greedy: bool = False,
    model_args: LoadArguments | None = None,
) -> Scored:
    from rlvr_train.data import to_rows

    rows = to_rows(records, data_args.system_prompt or None)
    completions = generate(
        model_path, [row["prompt"] for row in rows], args, greedy=greedy, model_args=model_args
    )
    return score_detailed(rows, completions, reward_args.verifier_url)


def verdict_counts(statuses: Sequence[Sequence[str]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for group in statuses:
        for status in group:
            counts[status] = counts.get(status, 0) + 1
    return dict(sorted(counts.items()))


def domain_report(
    records: Sequence[TaskRecord], greedy: Scored, sampled: Scored | None, ks: Sequence[int]
) -> dict[str, dict[str, Any]]:
    """Per domain: prompts, greedy accuracy, sampled accuracy and pass@k, verdict counts."""
    report: dict[str, dict[str, Any]] = {}
    for domain in sorted({r.domain for r in records}):
        picks = [i for i, r in enumerate(records) if r.domain == domain]
        entry: dict[str, Any] = {
            "prompts": len(picks),
            "greedy_accuracy": summarise([greedy.rewards[i] for i in picks], [1])["accuracy"],
            "verdicts": verdict_counts([greedy.statuses[i] for i in picks]),
        }
        if sampled is not None:
            entry |= summarise([sampled.rewards[i] for i in picks], ks)
            entry["sampled_verdicts"] = verdict_counts([sampled.statuses[i] for i in picks])
        report[domain] = entry
    return report


def completion_rows(
    records: Sequence[TaskRecord], scored: Scored, mode: str
) -> list[dict[str, Any]]:
    """One readable line per completion: which problem, what was written, what the verifier
    said about it."""
    rows = []
    for record, texts, rewards, statuses, details in zip(
        records, scored.completions, scored.rewards, scored.statuses, scored.details, strict=True
    ):
        for sample, (text, reward, status, detail) in enumerate(
            zip(texts, rewards, statuses, details, strict=True)
        ):
            rows.append(
                {
                    "id": record.id, "domain": record.domain, "mode": mode, "sample": sample,
                    "prompt": record.prompt if isinstance(record.prompt, str)
                    else record.prompt[-1]["content"],
                    "completion": text, "reward": reward, "status": status, "detail": detail,
                }
            )  # fmt: skip
    return rows


def evaluation_report(
    model_path: str,
    records: list[TaskRecord],
    data_args: DataArguments,
    reward_args: VerifierArguments,
    args: SamplingArguments,
    model_args: LoadArguments | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """eval.json's content (overall, `by_domain`, `verdicts`) and the completion rows."""
    if not records:
        raise UsageError("nothing to evaluate: no held-out records (check --eval_datasets)")
    greedy = sample_and_score_detailed(
        model_path, records, data_args, reward_args, args, greedy=True, model_args=model_args
    )
    summary: dict[str, Any] = {"greedy_accuracy": summarise(greedy.rewards, [1])["accuracy"]}
    sampled, ks = None, sorted({1, args.num_samples})
    if args.num_samples > 1:
        sampled = sample_and_score_detailed(
            model_path, records, data_args, reward_args, args, model_args=model_args
        )
        summary |= summarise(sampled.rewards, ks)
    else:
        summary |= {"prompts": float(len(records)), "samples": float(len(records))}
    summary["verdicts"] = verdict_counts(greedy.statuses)
    if sampled is not None:
        summary["sampled_verdicts"] = verdict_counts(sampled.statuses)
    summary["by_domain"] = domain_report(records, greedy, sampled, ks)
    rows = completion_rows(records, greedy, "greedy")
    if sampled is not None:
        rows += completion_rows(records, sampled, "sampled")
    return summary, rows


COUNT_KEYS = ("prompts", "samples", "kept")


def shown(key: str, value: float) -> str:
    """`prompts 64` for counts, `pass@1 0.250` for shares."""
    return f"{key} {value:.0f}" if key in COUNT_KEYS else f"{key} {value:.3f}"


def report_lines(summary: Mapping[str, Any]) -> list[str]:
    """The overall line (flat numbers, then the verdicts), then one line per domain."""

    def numbers(entry: Mapping[str, Any]) -> str:
        return " | ".join(shown(k, v) for k, v in entry.items() if isinstance(v, int | float))

    def verdicts(counts: Mapping[str, int]) -> str:
        return "verdicts " + " ".join(f"{k} {v}" for k, v in counts.items())

    lines = [f"{numbers(summary)} | {verdicts(summary['verdicts'])}"]
    for domain, entry in summary.get("by_domain", {}).items():
        lines.append(f"  {domain}: {numbers(entry)} | {verdicts(entry['verdicts'])}")
    return lines


def evaluate(
    model_path: str,
    records: list[TaskRecord],
    data_args: DataArguments,
    reward_args: VerifierArguments,
    args: SamplingArguments,
    model_args: LoadArguments | None = None,
) -> dict[str, float]:
    """Greedy accuracy, plus pass@1 / pass@N over N samples, on `records`."""
    if not records:
        raise ValueError("nothing to evaluate: no held-out records")
    _, greedy = sample_and_score(
        model_path, records, data_args, reward_args, args, greedy=True, model_args=model_args
    )
    summary = {"greedy_accuracy": summarise(greedy, [1])["accuracy"]}
    if args.num_samples > 1:
        _, sampled = sample_and_score(
            model_path, records, data_args, reward_args, args, model_args=model_args
        )
        summary |= summarise(sampled, sorted({1, args.num_samples}))
    return summary


def heldout_records(data_args: DataArguments) -> list[TaskRecord]:
    specs = data_args.eval_datasets or data_args.datasets
    return build_records(
        specs,
        data_args.dataset_weights if specs == data_args.datasets else None,
        data_args.eval_size,
        data_args.dataset_seed,
        is_eval=True,
        heldout_fraction=data_args.humaneval_heldout_fraction,
    )


def run_eval(
    model_args: ModelArguments,
    data_args: DataArguments,
    reward_args: VerifierArguments,
    args: SamplingArguments,
) -> dict[str, float]:
    """Evaluate on the held-out records; print the summary, save `eval.json` and
    `completions.jsonl`."""
    output_dir = Path(args.output_dir)
    records = heldout_records(data_args)
    preflight(["verify"], records, data_args, reward_args.verifier_url, reward_args.preflight)
    model_path, _ = prepare_model(model_args, data_args, output_dir, training_records(data_args))

    def write() -> None:
        summary, rows = evaluation_report(
            model_path, records, data_args, reward_args, args, model_args
        )
        output_dir.mkdir(parents=True, exist_ok=True)
        (output_dir / EVAL_FILE).write_text(json.dumps(summary, indent=2))
        write_jsonl(output_dir / COMPLETIONS_FILE, rows)
        print("\n".join(report_lines(summary)))
        print(f"eval: wrote {output_dir / EVAL_FILE} and {output_dir / COMPLETIONS_FILE}")

    summary: dict[str, Any] = on_main_process(
        write, lambda: json.loads((output_dir / EVAL_FILE).read_text())
    )
    return summary


def rejection_sample(
    model_path: str,
    records: list[TaskRecord],
    data_args: DataArguments,
    reward_args: VerifierArguments,
    args: SamplingArguments,
    model_args: LoadArguments | None = None,
) -> tuple[list[TaskRecord], dict[str, float]]:
    """Verified completions as SFT records (distinct ones per prompt), and pass@1 / pass@N."""
    completions, rewards = sample_and_score(
        model_path, records, data_args, reward_args, args, model_args=model_args
    )
    kept: list[TaskRecord] = []
    for record, group, scores in zip(records, completions, rewards, strict=True):
        seen: set[str] = set()
        for text, reward in zip(group, scores, strict=True):
            if reward is not None and reward >= 1.0 and text.strip() not in seen:
                seen.add(text.strip())
                kept.append(record.model_copy(update={"completion": text.strip()}))
    summary = summarise(rewards, sorted({1, args.num_samples})) | {"kept": float(len(kept))}
    return kept, summary


def run_rejection_sampling(
    model_args: ModelArguments,
    data_args: DataArguments,
    reward_args: VerifierArguments,
    args: SamplingArguments,
) -> Path:
    """Write the verified completions to `sft.jsonl` (TaskRecord schema) and `summary.json`."""
    output_dir = Path(args.output_dir)
    records = training_records(data_args)
    preflight(["verify"], records, data_args, reward_args.verifier_url, reward_args.preflight)
    model_path, records = prepare_model(model_args, data_args, output_dir, records)

    def write() -> None:
        kept, summary = rejection_sample(
            model_path, records, data_args, reward_args, args, model_args
        )
        output_dir.mkdir(parents=True, exist_ok=True)
        write_jsonl(output_dir / "sft.jsonl", kept)
        (output_dir / "summary.json").write_text(json.dumps(summary, indent=2))
        print(" | ".join(shown(k, v) for k, v in summary.items()))

    on_main_process(write, lambda: None)
    return output_dir / "sft.jsonl"
