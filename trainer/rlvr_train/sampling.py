"""Sample completions and score them through the verifier: `eval` and `rejection-sample`.

pass@k uses the unbiased estimator of Chen et al. (2021): 1 - C(n-c, k) / C(n, k) for n
samples of which c are verified, averaged over prompts.

Under `accelerate launch` the main process samples (on its own device) and writes the results;
the other processes wait for them and read them.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rlvr_train.config import DataArguments, ModelArguments, RewardArguments, SamplingArguments
from rlvr_train.data import build_records, write_jsonl
from rlvr_train.distributed import device, on_main_process
from rlvr_train.grpo import prepare_model
from rlvr_train.models import init_kwargs, load_tokenizer
from rlvr_train.records import TaskRecord
from rlvr_train.rewards.verifiable import verifiable_reward


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
    model_args: ModelArguments | None = None,
) -> list[list[str]]:
    """`args.num_samples` completions per chat prompt (one when greedy), on this process's
    device; the model loads as `model_args` say (TRL's `ModelConfig`: dtype, attention, ...)."""
    import torch
    from transformers import AutoModelForCausalLM

    torch.manual_seed(args.seed)
    loading = init_kwargs(model_args or ModelArguments(), args.trust_remote_code)
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


def score(
    rows: Sequence[dict[str, Any]], completions: Sequence[Sequence[str]], verifier_url: str | None
) -> list[list[float | None]]:
    """The verifier's reward for every completion, through the TRL adapter's `verify` function."""
    reward = verifiable_reward("verify", verifier_url)
    flat_rows = [row for row, group in zip(rows, completions, strict=True) for _ in group]
    columns = {
        key: [row[key] for row in flat_rows]
        for key in ("domain", "answer", "tests", "statement", "header")
    }
    flat = [c for group in completions for c in group]
    rewards = asyncio.run(
        reward(prompts=[r["prompt"] for r in flat_rows], completions=flat, **columns)
    )
    grouped, index = [], 0
    for group in completions:
        grouped.append(list(rewards[index : index + len(group)]))
        index += len(group)
    return grouped


def sample_and_score(
    model_path: str,
    records: list[TaskRecord],
    data_args: DataArguments,
    reward_args: RewardArguments,
    args: SamplingArguments,
    greedy: bool = False,
    model_args: ModelArguments | None = None,
) -> tuple[list[list[str]], list[list[float | None]]]:
    from rlvr_train.data import to_rows

    rows = to_rows(records, data_args.system_prompt or None)
    prompts = [row["prompt"] for row in rows]
    completions = generate(model_path, prompts, args, greedy=greedy, model_args=model_args)
    return completions, score(rows, completions, reward_args.verifier_url)


def evaluate(
    model_path: str,
    records: list[TaskRecord],
    data_args: DataArguments,
    reward_args: RewardArguments,
    args: SamplingArguments,
    model_args: ModelArguments | None = None,
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
    reward_args: RewardArguments,
    args: SamplingArguments,
) -> dict[str, float]:
    """Evaluate on the held-out records; print and save `eval.json`."""
    output_dir = Path(args.output_dir)
    model_path, _ = prepare_model(model_args, data_args, output_dir)

    def write() -> None:
        records = heldout_records(data_args)
        summary = evaluate(model_path, records, data_args, reward_args, args, model_args)
        output_dir.mkdir(parents=True, exist_ok=True)
        (output_dir / "eval.json").write_text(json.dumps(summary, indent=2))
        print(" | ".join(f"{k} {v:.3f}" for k, v in summary.items()))

    summary: dict[str, float] = on_main_process(
        write, lambda: json.loads((output_dir / "eval.json").read_text())
    )
    return summary


def rejection_sample(
    model_path: str,
    records: list[TaskRecord],
    data_args: DataArguments,
    reward_args: RewardArguments,
    args: SamplingArguments,
    model_args: ModelArguments | None = None,
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
    reward_args: RewardArguments,
    args: SamplingArguments,
) -> Path:
    """Write the verified completions to `sft.jsonl` (TaskRecord schema) and `summary.json`."""
    output_dir = Path(args.output_dir)
    model_path, records = prepare_model(model_args, data_args, output_dir)

    def write() -> None:
        kept, summary = rejection_sample(
            model_path, records, data_args, reward_args, args, model_args
        )
        output_dir.mkdir(parents=True, exist_ok=True)
        write_jsonl(output_dir / "sft.jsonl", kept)
        (output_dir / "summary.json").write_text(json.dumps(summary, indent=2))
        print(" | ".join(f"{k} {v:.3f}" for k, v in summary.items()))

    on_main_process(write, lambda: None)
    return output_dir / "sft.jsonl"
