"""The SFT stage: TRL's SFTTrainer on prompt -> reference completion pairs (loss on completions)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from trl import SFTConfig, SFTTrainer

from rlvr_train.config import DataArguments, ModelArguments
from rlvr_train.distributed import describe, is_main_process
from rlvr_train.errors import UsageError
from rlvr_train.grpo import prepare_model
from rlvr_train.models import load_tokenizer
from rlvr_train.records import TaskRecord, to_row
from rlvr_train.reporting import ReportCallback, quiet_trainer_logs
from rlvr_train.runs import prepare_init_kwargs, resume_target, save_policy, trainer_model_kwargs


def sft_rows(records: list[TaskRecord], system_prompt: str | None) -> list[dict[str, Any]]:
    """Conversational prompt/completion rows of the records that carry a reference solution."""
    from rlvr_train.data import INSTRUCTIONS

    rows = []
    for record in records:
        if not record.completion:
            continue
        row = to_row(record, INSTRUCTIONS[record.domain], system_prompt or None)
        rows.append(
            {
                "prompt": row["prompt"],
                "completion": [{"role": "assistant", "content": record.completion}],
            }
        )
    if not rows:
        raise UsageError(
            "no record has a `completion`: SFT needs reference solutions (a JSONL "
            "`completion` field, gym:basic_arithmetic's worked solutions, or humaneval)"
        )
    return rows


def train_sft(
    model_args: ModelArguments,
    records: list[TaskRecord],
    system_prompt: str | None,
    args: SFTConfig,
    callbacks: list[Any] | None = None,
) -> Path:
    """Fine-tune `model_args.model_name_or_path` (a loadable path or hub name) on `records`'
    completions; save to `args.output_dir`."""
    from datasets import Dataset

    output_dir = Path(args.output_dir or "outputs/sft")
    print(f"sft: {describe()}", flush=True)
    model_path = model_args.model_name_or_path
    tokenizer = load_tokenizer(
        model_path, revision=model_args.model_revision, trust_remote_code=args.trust_remote_code
    )
    prepare_init_kwargs(args, model_args)
    rows = sft_rows(records, system_prompt)
    if is_main_process():
        print(
            f"sft: {len(rows)} of {len(records)} records have a reference solution "
            "(`completion`) and are trained on; the others are left out",
            flush=True,
        )
    trainer = SFTTrainer(
        model=model_path,
        args=args,
        train_dataset=Dataset.from_list(rows),
        processing_class=tokenizer,
        callbacks=[ReportCallback(output_dir), *(callbacks or [])],
        **trainer_model_kwargs(model_args),
    )
    quiet_trainer_logs(trainer)
    trainer.train(resume_from_checkpoint=resume_target(args.resume_from_checkpoint, output_dir))
    return save_policy(trainer, tokenizer, output_dir)


def run_sft(model_args: ModelArguments, data_args: DataArguments, args: SFTConfig) -> Path:
    output_dir = Path(args.output_dir or "outputs/sft")
    model_path, records = prepare_model(model_args, data_args, output_dir)
    model = dataclasses.replace(model_args, model_name_or_path=model_path)
    return train_sft(model, records, data_args.system_prompt, args)
