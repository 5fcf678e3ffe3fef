"""The SFT stage: TRL's SFTTrainer on prompt -> reference completion pairs (loss on completions)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from trl import SFTConfig, SFTTrainer

from trainer.config import DataArguments, ModelArguments
from trainer.grpo import prepare_model
from trainer.models import best_dtype, load_tokenizer
from trainer.records import TaskRecord, to_row
from trainer.reporting import ReportCallback


def sft_rows(records: list[TaskRecord], system_prompt: str | None) -> list[dict[str, Any]]:
    """Conversational prompt/completion rows of the records that carry a reference solution."""
    from trainer.data import INSTRUCTIONS

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
        raise ValueError("no record has a `completion`: SFT needs reference solutions")
    return rows


def train_sft(
    model_path: str,
    records: list[TaskRecord],
    system_prompt: str | None,
    args: SFTConfig,
    callbacks: list[Any] | None = None,
) -> Path:
    """Fine-tune `model_path` on `records`' completions; save to `args.output_dir`."""
    from datasets import Dataset

    output_dir = Path(args.output_dir or "outputs/sft")
    tokenizer = load_tokenizer(model_path)
    if args.model_init_kwargs is None:
        args.model_init_kwargs = {"dtype": best_dtype()}
    trainer = SFTTrainer(
        model=model_path,
        args=args,
        train_dataset=Dataset.from_list(sft_rows(records, system_prompt)),
        processing_class=tokenizer,
        callbacks=[ReportCallback(output_dir), *(callbacks or [])],
    )
    trainer.train()
    trainer.save_model(str(output_dir))
    tokenizer.save_pretrained(str(output_dir))
    return output_dir


def run_sft(model_args: ModelArguments, data_args: DataArguments, args: SFTConfig) -> Path:
    output_dir = Path(args.output_dir or "outputs/sft")
    model_path, records = prepare_model(model_args, data_args, output_dir)
    return train_sft(model_path, records, data_args.system_prompt, args)
