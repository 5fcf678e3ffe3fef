"""`rlvr-train`: subcommands grpo, sft, rejection-sample, eval, pipeline (TRL-style arguments).

Each subcommand is a set of dataclasses parsed by TRL's `TrlParser`: flags, or a YAML file via
`--config` whose keys are the same names; flags override the file. Unknown keys and flags,
missing data columns, an unreachable verifier — anything the user can fix — end in one line
and exit status 2 (`rlvr_train.errors.UsageError`), never a traceback.

    rlvr-train grpo --config examples/grpo_math_1gpu.yaml --beta 0.04
    accelerate launch --num_processes 4 -m rlvr_train.cli grpo --config grpo.yaml   # multi-GPU
    rlvr-train grpo --output_dir out --save_steps 50 --resume_from_checkpoint true  # restartable
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rlvr_train.config import (
    DataArguments,
    ModelArguments,
    PipelineArguments,
    RewardArguments,
    SamplingArguments,
    SamplingModelArguments,
    VerifierArguments,
)
from rlvr_train.errors import UsageError, did_you_mean


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
        lambda: [SamplingModelArguments, DataArguments, VerifierArguments, SamplingArguments],
    ),
    "eval": (
        "Sample on the held-out set; accuracy per domain, pass@k, verdicts, completions",
        lambda: [SamplingModelArguments, DataArguments, VerifierArguments, SamplingArguments],
    ),
    "pipeline": (
        "Cold-start SFT -> GRPO (mixed) -> rejection sampling + SFT -> final RL with a reward "
        "model; resumable",
        lambda: [ModelArguments, DataArguments, RewardArguments, PipelineArguments, _grpo_config()],
    ),
}

# TRL's / transformers' flags that `--help` shows (the rest: `--help-all`).
TRAINING_FLAGS = (
    "output_dir", "max_steps", "learning_rate", "per_device_train_batch_size",
    "gradient_accumulation_steps", "logging_steps", "save_steps", "save_only_model",
    "save_total_limit", "resume_from_checkpoint", "report_to", "seed", "bf16",
    "gradient_checkpointing", "dtype", "use_peft", "lora_r", "lora_alpha", "lora_target_modules",
)  # fmt: skip
GRPO_FLAGS = (
    "num_generations", "beta", "loss_type", "temperature", "max_completion_length",
    "reward_weights", "use_vllm", "vllm_mode", "vllm_gpu_memory_utilization", "log_completions",
)  # fmt: skip
# Logged points a run without an explicit `logging_steps` aims for (see `auto_logging_steps`).
LOGGED_POINTS = 20


def make_parser(command: str) -> Any:
    """The `TrlParser` of one subcommand with this project's defaults: fp32 on CPU and bf16 on
    CUDA (`use_cpu` true without CUDA), model-only checkpoints and one kept (docs/trainer.md,
    "Disk")."""
    import warnings

    import torch
    from trl import TrlParser

    # transformers' own rename (gradient -> activation checkpointing), raised from inside TRL
    # and transformers at every step: nothing a user of ours can act on
    warnings.filterwarnings("ignore", message=r".*gradient_checkpointing.*deprecated")
    help_text, dataclasses = COMMANDS[command]
    parser = TrlParser(dataclasses(), prog=f"rlvr-train {command}", description=help_text)
    dests = {action.dest for action in parser._actions}
    if "bf16" in dests:
        parser.set_defaults(bf16=torch.cuda.is_available(), use_cpu=not torch.cuda.is_available())
    if "save_only_model" in dests:
        parser.set_defaults(save_only_model=True, save_total_limit=1)
    for action in parser._actions:
        if action.dest == "resume_from_checkpoint":  # what trainer/rlvr_train/runs.py makes of it
            action.help = RESUME_HELP
    return parser


def key_names(parser: Any) -> list[str]:
    """Names a YAML config may use (the fields)."""
    return [a.dest for a in parser._actions if a.option_strings and a.dest != "help"]


def flag_names(parser: Any) -> list[str]:
    """Flags the command line may use, without `--` (fields, and `no_X` for true booleans)."""
    return [
        option[2:]
        for a in parser._actions
        if a.dest != "help"
        for option in a.option_strings
        if option.startswith("--")
    ]


def config_keys(path: str) -> list[str]:
    """Top-level keys of a YAML config (`env` is TrlParser's: environment variables)."""
    import yaml

    try:
        data = yaml.safe_load(Path(path).read_text())
    except FileNotFoundError as exc:
        raise UsageError(f"--config {path}: no such file") from exc
    except yaml.YAMLError as exc:
        raise UsageError(f"--config {path}: not valid YAML ({str(exc).splitlines()[0]})") from exc
    if data is None:
        return []
    if not isinstance(data, dict):
        raise UsageError(f"--config {path}: expected `key: value` lines at the top level")
    return [str(key) for key in data if key != "env"]


def config_path(argv: Sequence[str]) -> str | None:
    for index, token in enumerate(argv):
        if token == "--config" and index + 1 < len(argv):
            return argv[index + 1]
        if token.startswith("--config="):
            return token.split("=", 1)[1]
    return None


def given_flags(argv: Sequence[str]) -> list[str]:
    return [t[2:].split("=", 1)[0] for t in argv if t.startswith("--") and len(t) > 2]


def explicit_keys(argv: Sequence[str]) -> set[str]:
    """Names the user set, on the command line or in the config file."""
    path = config_path(argv)
    return {*given_flags(argv), *(config_keys(path) if path else [])} - {"config"}


def check_names(command: str, parser: Any, argv: Sequence[str]) -> None:
    """Unknown YAML keys and flags, in our words, with the valid names nearest to each."""
    keys, flags = key_names(parser), flag_names(parser)
    path = config_path(argv)
    for key in config_keys(path) if path else []:
        if key not in keys:
            raise UsageError(_unknown(f"key `{key}` in {path}", key, keys, command))
    for flag in given_flags(argv):
        if flag not in (*flags, "config", "help-all"):
            raise UsageError(_unknown(f"flag --{flag}", flag, flags, command))


def _unknown(what: str, name: str, valid: Sequence[str], command: str) -> str:
    hint = did_you_mean(name, valid)
    return f"unknown {what}{'; ' + hint if hint else ''} (`rlvr-train {command} --help` lists them)"


def auto_logging_steps(max_steps: int) -> int:
    """About `LOGGED_POINTS` logged steps over a run, at most every 10 (TRL's default)."""
    return max(1, min(10, max_steps // LOGGED_POINTS)) if max_steps > 0 else 10


def parse(command: str, argv: Sequence[str]) -> tuple[Any, ...]:
    """Parsed dataclasses of `command`; unknown names and bad values raise `UsageError`."""
    if command not in COMMANDS:
        raise UsageError(f"unknown command {command!r}; choose from {', '.join(COMMANDS)}")
    parser = make_parser(command)
    check_names(command, parser, argv)
    try:
        parsed = tuple(parser.parse_args_and_config(list(argv)))
    except ValueError as exc:  # a value TRL's own checks reject
        raise UsageError(str(exc).splitlines()[0]) from exc
    if "logging_steps" not in explicit_keys(argv):
        for config in parsed:
            if hasattr(config, "logging_steps"):
                config.logging_steps = auto_logging_steps(_run_length(parsed, config))
    return parsed


def _run_length(parsed: Sequence[Any], config: Any) -> int:
    """Steps of the run (the shortest stage of a pipeline)."""
    stages = [p for p in parsed if isinstance(p, PipelineArguments)]
    if stages:
        pipe = stages[0]
        return min(pipe.sft_max_steps, pipe.rl_max_steps, pipe.final_rl_max_steps)
    return int(config.max_steps)


def short_help(command: str) -> str:
    """Our flags with their help, then the most used of TRL's (`--help-all`: every flag)."""
    parser = make_parser(command)
    help_text, dataclasses = COMMANDS[command]
    ours = {name for cls in dataclasses() for name in _own_fields(cls)}
    shown = [*ours, *TRAINING_FLAGS, *(GRPO_FLAGS if command in ("grpo", "pipeline") else ())]
    actions = {a.dest: a for a in parser._actions if a.option_strings}
    lines = [
        f"usage: rlvr-train {command} [--config FILE.yaml] [--flag value ...]",
        help_text,
        "",
        "Flags (also YAML keys of --config; flags override the file):",
    ]
    for name in sorted({n for n in shown if n in actions}):
        action = actions[name]
        text = " ".join((action.help or "").split())
        text = text.split(". ")[0].rstrip(".")
        if len(text) > 110:
            text = text[:107] + "..."
        default = action.default
        shown_default = "" if default in (None, "", []) else f" [default: {default}]"
        lines.append(f"  --{name}\n      {text}{shown_default}")
    lines.append(f"\n`rlvr-train {command} --help-all` lists all {len(actions)} flags (TRL's too).")
    return "\n".join(lines)


def _own_fields(cls: type) -> set[str]:
    """Fields a `rlvr_train.config` class declares itself (not those it inherits from TRL)."""
    if not cls.__module__.startswith("rlvr_train"):
        return set()
    return {
        name
        for klass in cls.__mro__
        if klass.__module__.startswith("rlvr_train")
        for name in vars(klass).get("__annotations__", {})
    }


def _usage() -> str:
    lines = ["usage: rlvr-train {" + ",".join(COMMANDS) + "} [--config FILE] [--flag value ...]"]
    lines += [f"  {name:<17} {help_text}" for name, (help_text, _) in COMMANDS.items()]
    lines.append("`rlvr-train COMMAND --help` lists a command's flags; examples/ has configs.")
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
        hint = did_you_mean(command, COMMANDS)
        print(f"rlvr-train: unknown command {command!r} {hint}\n{_usage()}", file=sys.stderr)
        return 2
    if "--help-all" in rest:
        make_parser(command).print_help()
        return 0
    if "-h" in rest or "--help" in rest:
        print(short_help(command))
        return 0
    try:
        run(command, parse(command, rest))
    except UsageError as exc:
        print(f"rlvr-train {command}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
