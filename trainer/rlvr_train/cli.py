"""`rlvr-train`: subcommands grpo, sft, rejection-sample, eval, pipeline (TRL-style arguments).

Each subcommand is a set of dataclasses parsed by TRL's `TrlParser`: flags, or a YAML file via
`--config` whose keys are the same names; flags override the file; unknown keys are errors.

    rlvr-train grpo --config grpo.yaml --beta 0.04 --num_generations 8
    accelerate launch --num_processes 4 -m rlvr_train.cli grpo --config grpo.yaml   # multi-GPU
    accelerate launch --multi_gpu --num_processes 2 -m rlvr_train.cli grpo ...     # 2 CPU processes
    rlvr-train grpo --output_dir out --save_steps 50 --resume_from_checkpoint true  # restartable
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

from rlvr_train.config import (
    DataArguments,
    ModelArguments,
    PipelineArguments,
    RewardArguments,
    SamplingArguments,
)


def _grpo_config() -> type:
    from trl import GRPOConfig

    return GRPOConfig


def _sft_config() -> type:
    from trl import SFTConfig

    return SFTConfig


RESUME_HELP = (
    "A checkpoint folder to resume from, or `true`/`last`: the newest checkpoint-N in "
    "output_dir (none there yet: start from scratch; `pipeline`: true/false only)."
)

# subcommand -> (help, dataclasses of its arguments)
COMMANDS: dict[str, tuple[str, Callable[[], list[Any]]]] = {
    "grpo": (
        "GRPO with verifiable rewards from the verifier service",
        lambda: [ModelArguments, DataArguments, RewardArguments, _grpo_config()],
    ),
    "sft": (
        "Supervised fine-tuning on reference solutions (a JSONL `completion` field, or worked "
        "solutions generated for reasoning-gym arithmetic)",
        lambda: [ModelArguments, DataArguments, _sft_config()],
    ),
    "rejection-sample": (
        "Sample N completions per prompt, keep the verified ones as an SFT set; pass@1, pass@N",
        lambda: [ModelArguments, DataArguments, RewardArguments, SamplingArguments],
    ),
    "eval": (
        "Sample on the held-out set; accuracy and pass@k through the verifier",
        lambda: [ModelArguments, DataArguments, RewardArguments, SamplingArguments],
    ),
    "pipeline": (
        "Cold-start SFT -> GRPO (mixed) -> rejection sampling + SFT -> final RL with a reward "
        "model; resumable",
        lambda: [ModelArguments, DataArguments, RewardArguments, PipelineArguments, _grpo_config()],
    ),
}


def make_parser(command: str) -> Any:
    """The `TrlParser` of one subcommand; CPU runs default to fp32, CUDA ones to bf16, and
    without CUDA `use_cpu` defaults to true (several CPU processes then form one group)."""
    import torch
    from trl import TrlParser

    help_text, dataclasses = COMMANDS[command]
    parser = TrlParser(dataclasses(), prog=f"rlvr-train {command}", description=help_text)
    if any(action.dest == "bf16" for action in parser._actions):
        parser.set_defaults(bf16=torch.cuda.is_available(), use_cpu=not torch.cuda.is_available())
    for action in parser._actions:
        if action.dest == "resume_from_checkpoint":  # what trainer/rlvr_train/runs.py makes of it
            action.help = RESUME_HELP
    return parser


def parse(command: str, argv: Sequence[str]) -> tuple[Any, ...]:
    """Parsed dataclasses of `command`; unknown flags or YAML keys raise (SystemExit/ValueError)."""
    if command not in COMMANDS:
        raise SystemExit(f"unknown command {command!r}; choose from {', '.join(COMMANDS)}")
    return tuple(make_parser(command).parse_args_and_config(list(argv)))


def _usage() -> str:
    lines = ["usage: rlvr-train {" + ",".join(COMMANDS) + "} [--config FILE] [--flag value ...]"]
    lines += [f"  {name:<17} {help_text}" for name, (help_text, _) in COMMANDS.items()]
    lines.append("`rlvr-train COMMAND --help` lists a command's flags.")
    return "\n".join(lines)


def run(command: str, parsed: tuple[Any, ...]) -> Any:
    if command == "grpo":
        from rlvr_train.grpo import run_grpo

        return run_grpo(*parsed)
    if command == "sft":
        from rlvr_train.sft import run_sft

        return run_sft(*parsed)
    if command == "rejection-sample":
        from rlvr_train.sampling import run_rejection_sampling

        return run_rejection_sampling(*parsed)
    if command == "eval":
        from rlvr_train.sampling import run_eval

        return run_eval(*parsed)
    from rlvr_train.pipeline import run_pipeline

    return run_pipeline(*parsed)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(_usage())
        return 0 if args else 2
    command, rest = args[0], args[1:]
    if command not in COMMANDS:
        print(f"rlvr-train: unknown command {command!r}\n{_usage()}", file=sys.stderr)
        return 2
    try:
        parsed = parse(command, rest)
    except ValueError as exc:  # unknown YAML keys and bad values
        print(f"rlvr-train {command}: {exc}", file=sys.stderr)
        return 2
    run(command, parsed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
