"""What every training stage does around TRL's trainer: model loading, resume, saving the policy.

- Loading follows TRL's scripts: `model_init_kwargs` from `ModelConfig` (the user's own
  `--model_init_kwargs` win), and `peft_config` / `quantization_config` given to the trainer.
- `--resume_from_checkpoint` takes a checkpoint folder, or `true` / `last`: the newest
  `checkpoint-N` in the stage's output_dir; with none there yet the stage starts from scratch,
  so one command line serves both the first run and every restart after a preemption.
- The saved policy is always a full checkpoint: a LoRA policy is merged into its base first,
  since each stage's output is the next stage's (and `eval`'s) model, loaded by path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rlvr_train.config import ModelArguments
from rlvr_train.distributed import is_main_process, wait_for_everyone
from rlvr_train.errors import UsageError
from rlvr_train.models import init_kwargs

RESUME_LAST = ("true", "last", "yes", "1")
RESUME_NONE = ("", "false", "no", "0", "none")


def prepare_init_kwargs(args: Any, model_args: ModelArguments) -> None:
    """Fill `args.model_init_kwargs` (a GRPOConfig/SFTConfig) from `model_args`; keys the user
    set in `--model_init_kwargs` are kept."""
    args.model_init_kwargs = {
        **init_kwargs(model_args, args.trust_remote_code),
        **(args.model_init_kwargs or {}),
    }


def trainer_model_kwargs(model_args: ModelArguments) -> dict[str, Any]:
    """The trainers' `peft_config` and `quantization_config` arguments (None: not used)."""
    from trl import get_peft_config, get_quantization_config

    return {
        "peft_config": get_peft_config(model_args),
        "quantization_config": get_quantization_config(model_args),
    }


def resume_target(value: str | bool | None, output_dir: Path) -> str | None:
    """The checkpoint `trainer.train(resume_from_checkpoint=...)` gets (None: a fresh start)."""
    from transformers.trainer_utils import get_last_checkpoint

    text = "" if value is None else str(value).strip()
    if text.lower() in RESUME_NONE:
        return None
    if text.lower() in RESUME_LAST:
        last = get_last_checkpoint(str(output_dir)) if output_dir.is_dir() else None
        if last is None and is_main_process():
            print(f"resume: no checkpoint in {output_dir} yet; training from the start")
        return last
    if not (Path(text) / "trainer_state.json").is_file():
        raise UsageError(
            f"--resume_from_checkpoint {text}: not a checkpoint folder (no trainer_state.json)"
        )
    return text


def is_peft_model(model: Any) -> bool:
    try:
        from peft import PeftModel  # optional: only `--use_peft` needs it
    except ImportError:
        return False
    return isinstance(model, PeftModel)


def save_policy(trainer: Any, tokenizer: Any, output_dir: Path) -> Path:
    """Save the trained policy and its tokenizer to `output_dir` (main process only); a PEFT
    policy is merged into its base model first."""
    model = trainer.accelerator.unwrap_model(trainer.model)
    if is_peft_model(model):
        merged = model.merge_and_unload()
        if is_main_process():
            merged.save_pretrained(str(output_dir))
    else:
        trainer.save_model(str(output_dir))  # writes on the main process only
    if is_main_process():
        tokenizer.save_pretrained(str(output_dir))
    wait_for_everyone()
    return output_dir
