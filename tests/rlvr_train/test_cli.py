"""`rlvr-train` argument parsing: TRL-style dataclasses, YAML via --config, flags override it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from trl import ModelConfig

from rlvr_train.cli import COMMANDS, main, parse


def test_grpo_flags_set_the_knobs_of_trl_and_ours() -> None:
    model, data, rewards, grpo = parse(
        "grpo",
        [
            "--model_name_or_path", "tiny",
            "--datasets", "gym:basic_arithmetic", "humaneval",
            "--dataset_weights", "0.7", "0.3",
            "--reward_funcs", "verify", "format",
            "--reward_weights", "1.0", "0.1",
            "--num_generations", "16", "--beta", "0.04", "--epsilon", "0.3",
            "--learning_rate", "2e-6", "--temperature", "0.7", "--top_p", "0.9",
            "--max_completion_length", "64", "--max_prompt_length", "128",
            "--loss_type", "grpo", "--output_dir", "out", "--per_device_train_batch_size", "16",
        ],
    )  # fmt: skip
    assert model.model_name_or_path == "tiny"
    assert data.datasets == ["gym:basic_arithmetic", "humaneval"]
    assert data.dataset_weights == [0.7, 0.3] and data.max_prompt_length == 128
    assert rewards.reward_funcs == ["verify", "format"]
    assert grpo.reward_weights == [1.0, 0.1]
    assert (grpo.num_generations, grpo.beta, grpo.epsilon) == (16, 0.04, 0.3)
    assert (grpo.temperature, grpo.top_p, grpo.max_completion_length) == (0.7, 0.9, 64)
    assert grpo.loss_type == "grpo" and grpo.learning_rate == 2e-6


def test_yaml_config_sets_values_and_the_command_line_overrides_it(tmp_path: Path) -> None:
    config = tmp_path / "grpo.yaml"
    config.write_text("beta: 0.1\nnum_generations: 4\ndatasets: [a.jsonl]\nmax_steps: 7\n")
    *_, grpo = parse("grpo", ["--config", str(config), "--beta", "0.02"])
    _, data, _, _ = parse("grpo", ["--config", str(config)])
    assert grpo.beta == 0.02  # flag wins
    assert grpo.num_generations == 4 and grpo.max_steps == 7  # from the file
    assert data.datasets == ["a.jsonl"]


def test_unknown_yaml_key_is_an_error(tmp_path: Path) -> None:
    config = tmp_path / "grpo.yaml"
    config.write_text("beta: 0.1\nnum_generation: 4\n")  # typo
    with pytest.raises(ValueError, match="num_generation"):
        parse("grpo", ["--config", str(config)])
    assert main(["grpo", "--config", str(config)]) == 2


def test_unknown_flag_is_an_error() -> None:
    with pytest.raises(ValueError, match="--bta"):
        parse("grpo", ["--bta", "0.1"])
    assert main(["grpo", "--bta", "0.1"]) == 2


def test_unknown_command_and_bare_call_print_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train"]) == 2
    assert "unknown command" in capsys.readouterr().err
    assert main([]) == 2
    usage = capsys.readouterr().out
    assert all(name in usage for name in COMMANDS)


EXPECTED_TYPES = {
    "grpo": ["ModelArguments", "DataArguments", "RewardArguments", "GRPOConfig"],
    "sft": ["ModelArguments", "DataArguments", "SFTConfig"],
    "rejection-sample": [
        "SamplingModelArguments", "DataArguments", "VerifierArguments", "SamplingArguments"
    ],
    "eval": ["SamplingModelArguments", "DataArguments", "VerifierArguments", "SamplingArguments"],
    "pipeline": [
        "ModelArguments", "DataArguments", "RewardArguments", "PipelineArguments", "GRPOConfig"
    ],
}  # fmt: skip


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_parses_with_defaults_and_has_help_on_every_field(command: str) -> None:
    """Each command gets exactly the dataclasses its runner takes, with the documented
    defaults, and every flag has help text."""
    from rlvr_train.cli import make_parser

    parsed = parse(command, [])
    assert [type(x).__name__ for x in parsed] == EXPECTED_TYPES[command]
    model, data = parsed[0], parsed[1]
    assert (model.model_name_or_path, model.dtype) == ("smollm2", None)
    # TRL's own model arguments (LoRA, quantisation) only where a model trains
    assert isinstance(model, ModelConfig) is (command in ("grpo", "sft", "pipeline"))
    assert data.datasets == ["gym:basic_arithmetic"] and data.dataset_size == 1000
    for rewards in (x for x in parsed if type(x).__name__ == "RewardArguments"):
        assert rewards.reward_funcs == ["verify", "format"]
    ours = [a for a in make_parser(command)._actions if a.dest not in ("help",)]
    assert all(a.help for a in ours if not a.dest.startswith("_")), [
        a.dest for a in ours if not a.help
    ]


def test_trl_model_config_flags_reach_loading_and_peft() -> None:
    """dtype, attention, LoRA (through TRL's `get_peft_config`), remote code and resume are
    TRL's own flags; `init_kwargs` turns them into `from_pretrained` arguments."""
    from trl import get_peft_config

    from rlvr_train.cli import make_parser
    from rlvr_train.models import init_kwargs

    model, *_, grpo = parse(
        "grpo",
        [
            "--model_name_or_path", "tiny", "--dtype", "bfloat16",
            "--attn_implementation", "sdpa", "--trust_remote_code", "true",
            "--use_peft", "--lora_r", "8", "--lora_alpha", "16",
            "--lora_target_modules", "q_proj", "v_proj",
            "--resume_from_checkpoint", "true",
        ],
    )  # fmt: skip
    assert init_kwargs(model, grpo.trust_remote_code) == {
        "revision": "main",
        "trust_remote_code": True,
        "attn_implementation": "sdpa",
        "dtype": "bfloat16",
    }
    lora: Any = get_peft_config(model)
    assert lora is not None and (lora.r, lora.lora_alpha) == (8, 16)
    assert set(lora.target_modules) == {"q_proj", "v_proj"}
    assert grpo.resume_from_checkpoint == "true"
    assert "newest checkpoint" in make_parser("grpo").format_help()
    assert get_peft_config(parse("grpo", [])[0]) is None
    with pytest.raises(SystemExit):  # TRL's choices hold
        parse("grpo", ["--dtype", "float8"])


def test_sampling_commands_take_trust_remote_code() -> None:
    *_, sampling = parse("eval", ["--trust_remote_code", "true"])
    assert sampling.trust_remote_code is True


def test_cpu_runs_default_to_fp32() -> None:
    import torch

    *_, grpo = parse("grpo", [])
    assert grpo.bf16 is torch.cuda.is_available()


def test_logging_steps_fit_a_short_run_unless_set(tmp_path: Path) -> None:
    """About 20 logged points per run (every step of a 4-step run), TRL's 10 for long ones,
    and what the user sets, on the command line or in the file, as set."""
    assert parse("grpo", ["--max_steps", "4"])[-1].logging_steps == 1
    assert parse("grpo", ["--max_steps", "100"])[-1].logging_steps == 5
    assert parse("grpo", ["--max_steps", "5000"])[-1].logging_steps == 10
    assert parse("grpo", ["--max_steps", "4", "--logging_steps", "3"])[-1].logging_steps == 3
    config = tmp_path / "c.yaml"
    config.write_text("max_steps: 4\nlogging_steps: 2\n")
    assert parse("grpo", ["--config", str(config)])[-1].logging_steps == 2
    pipe = parse("pipeline", ["--rl_max_steps", "3"])
    assert pipe[-1].logging_steps == 1


def test_checkpoints_are_model_only_and_one_is_kept_unless_asked() -> None:
    *_, grpo = parse("grpo", [])
    assert (grpo.save_only_model, grpo.save_total_limit) == (True, 1)
    *_, grpo = parse("grpo", ["--save_only_model", "false", "--save_total_limit", "3"])
    assert (grpo.save_only_model, grpo.save_total_limit) == (False, 3)
