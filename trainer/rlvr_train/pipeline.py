"""The R1-style recipe, stage by stage, each stage's model the next one's input; resumable.

1. `cold_start_sft`  — SFT on reference solutions (worked solutions, canonical code).
2. `grpo`            — GRPO on the mixed math + code data with the verifiable rewards.
3. `rejection`       — sample N per prompt, keep the verified completions (an SFT set).
4. `rejection_sft`   — SFT of the GRPO model on that set.
5. `final_rl`        — GRPO mixing the verifiable rewards with a learned reward model.

When rejection sampling verifies nothing (a weak model, hard data, few samples) the pipeline
says what to change and, by `--on_empty_rejection`, skips stage 4 (`skip`, the default: the
final RL starts from the GRPO model, and the state records the skip) or stops (`stop`: exit 2,
the sampling is not marked done, so a rerun with other settings redoes it).

`<output_dir>/pipeline_state.json` records each finished stage and its output; a rerun skips
finished stages and continues from the last output (and, with `--resume_from_checkpoint true`
and `--save_strategy steps`, a GRPO stage cut short continues from its last checkpoint).

Under `accelerate launch` every process runs every stage: the training stages together, the
sampling stage on the main process (the others wait for its file); only the main process
writes the state.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trl import GRPOConfig, SFTConfig

from rlvr_train.config import (
    DataArguments,
    ModelArguments,
    PipelineArguments,
    RewardArguments,
    SamplingArguments,
)
from rlvr_train.data import read_jsonl, write_jsonl
from rlvr_train.distributed import is_main_process, on_main_process, wait_for_everyone
from rlvr_train.errors import UsageError
from rlvr_train.records import TaskRecord

STAGES = ("cold_start_sft", "grpo", "rejection", "rejection_sft", "final_rl")
STATE_FILE = "pipeline_state.json"
DEFAULT_FINAL_WEIGHTS = {"verify": 1.0, "format": 0.2, "reward_model": 0.5}


def load_state(output_dir: Path) -> dict[str, str]:
    """Finished stages -> their output path."""
    path = output_dir / STATE_FILE
    return dict(json.loads(path.read_text())["finished"]) if path.is_file() else {}


def save_state(output_dir: Path, finished: dict[str, str]) -> None:
    """Write the state (main process only), then let every process go on."""
    if is_main_process():
        _write_state(output_dir, finished)
    wait_for_everyone()


def _write_state(output_dir: Path, finished: dict[str, str]) -> None:
    output_dir.mkdir(parents=True, exist_ok=True)
    tmp = output_dir / (STATE_FILE + ".tmp")
    tmp.write_text(json.dumps({"finished": finished}, indent=2))
    tmp.replace(output_dir / STATE_FILE)  # atomic: a crash never leaves half a state file


def with_values(config: GRPOConfig, **values: Any) -> GRPOConfig:
    """A copy with some fields changed. Not `dataclasses.replace`: that reruns TRL's
    `__post_init__` on already-derived fields (generation_batch_size), which it rejects.
    `--resume_from_checkpoint` only says whether to resume: each stage resumes from the last
    checkpoint of its own folder."""
    changed = copy.deepcopy(config)
    for name, value in values.items():
        setattr(changed, name, value)
    return changed


def final_weights(names: list[str], weights: list[float] | None) -> list[float]:
    if weights is not None:
        if len(weights) != len(names):
            raise UsageError(f"{len(weights)} final_reward_weights for {len(names)} rewards")
        return list(weights)
    return [DEFAULT_FINAL_WEIGHTS.get(name, 1.0) for name in names]


def empty_rejection_advice(
    summary: dict[str, float], pipe: PipelineArguments, rl: GRPOConfig
) -> str:
    """What to change when rejection sampling kept nothing."""
    return (
        f"rejection sampling kept nothing: 0 of {summary.get('samples', 0):.0f} completions "
        f"verified (pass@1 {summary.get('pass@1', 0.0):.3f}). To keep some: more samples "
        f"(--rs_num_samples, now {pipe.rs_num_samples}), a higher --temperature (now "
        f"{rl.temperature}), longer training before it (--sft_max_steps {pipe.sft_max_steps}, "
        f"--rl_max_steps {pipe.rl_max_steps}), longer completions (--max_completion_length "
        f"{rl.max_completion_length}), or easier data"
    )


def check_resume(value: str | None) -> None:
    """A pipeline resumes each stage from its own folder: a single checkpoint path is ambiguous."""
    from rlvr_train.runs import RESUME_LAST, RESUME_NONE

    if value is not None and str(value).strip().lower() not in (*RESUME_LAST, *RESUME_NONE):
        raise UsageError(
            "pipeline: --resume_from_checkpoint takes true or false (each stage resumes from "
            f"the last checkpoint in its own folder), not a path ({value!r})"
        )


def sft_config(pipe: PipelineArguments, rl: GRPOConfig, output_dir: Path) -> SFTConfig:
    return SFTConfig(
        output_dir=str(output_dir),
        max_steps=pipe.sft_max_steps,
        learning_rate=pipe.sft_learning_rate,
        per_device_train_batch_size=pipe.sft_batch_size,
        logging_steps=rl.logging_steps,
        save_strategy="no",
        report_to=rl.report_to,
        bf16=rl.bf16,
        seed=rl.seed,
        disable_tqdm=rl.disable_tqdm,
        trust_remote_code=rl.trust_remote_code,
        use_cpu=rl.use_cpu,
    )


def run_pipeline(
    model_args: ModelArguments,
    data_args: DataArguments,
    reward_args: RewardArguments,
    pipe: PipelineArguments,
    rl: GRPOConfig,
) -> Path:
    """Run the unfinished stages; return the final model's directory."""
    from rlvr_train.grpo import preflight, prepare_model, run_grpo, training_records
    from rlvr_train.sampling import rejection_sample, shown
    from rlvr_train.sft import train_sft

    root = Path(rl.output_dir or "outputs/pipeline")
    check_resume(rl.resume_from_checkpoint)
    if "reward_model" in pipe.final_reward_funcs and not reward_args.reward_model_name_or_path:
        raise UsageError(
            "the final stage uses `reward_model`: pass --reward_model_name_or_path, "
            "or leave it out of --final_reward_funcs"
        )
    finished = load_state(root)
    if len(finished) < len(STAGES):  # every reward of every stage, before any model loads
        names = list(dict.fromkeys([*reward_args.reward_funcs, *pipe.final_reward_funcs]))
        names = [name for name in names if name != "reward_model"]
        records = training_records(data_args)
        preflight(names, records, data_args, reward_args.verifier_url, reward_args.preflight)
        # the stages check again as they start; once is enough
        reward_args = dataclasses.replace(reward_args, preflight=False)
    stage_dir = {name: root / f"{i + 1}-{name}" for i, name in enumerate(STAGES)}

    def model_at(path: str) -> ModelArguments:
        return dataclasses.replace(model_args, model_name_or_path=path)

    def cold_start() -> str:
        model_path, records = prepare_model(model_args, data_args, root)
        config = sft_config(pipe, rl, stage_dir["cold_start_sft"])
        return str(train_sft(model_at(model_path), records, data_args.system_prompt, config))

    def grpo() -> str:
        args = with_values(rl, output_dir=str(stage_dir["grpo"]), max_steps=pipe.rl_max_steps)
        return str(run_grpo(model_at(finished["cold_start_sft"]), data_args, reward_args, args))

    def rejection() -> str:
        _, records = prepare_model(model_args, data_args, root)
        sampling = SamplingArguments(
            output_dir=str(stage_dir["rejection"]),
            num_samples=pipe.rs_num_samples,
            sample_temperature=rl.temperature,
            sample_top_p=rl.top_p,
            max_new_tokens=rl.max_completion_length or 256,
            seed=rl.seed,
            trust_remote_code=rl.trust_remote_code,
        )
        out = stage_dir["rejection"]

        def sample() -> None:
            kept, summary = rejection_sample(
                finished["grpo"], records, data_args, reward_args, sampling, model_args
            )
            print("rejection sampling: " + " | ".join(shown(k, v) for k, v in summary.items()))
            print(
                f"rejection sampling: kept {len(kept)} distinct verified completions of "
                f"{summary['samples']:.0f} sampled ({pipe.rs_num_samples} per prompt; reward 1 "
                "from the verifier, duplicates of one prompt dropped)"
            )
            out.mkdir(parents=True, exist_ok=True)
            write_jsonl(out / "sft.jsonl", kept)
            (out / "summary.json").write_text(json.dumps(summary, indent=2))

        if not on_main_process(sample, lambda: read_jsonl(out / "sft.jsonl")):
            summary = json.loads((out / "summary.json").read_text())
            advice = empty_rejection_advice(summary, pipe, rl)
            if pipe.on_empty_rejection == "stop":
                raise UsageError(
                    f"pipeline stopped after stage 3 (--on_empty_rejection stop): {advice}"
                )
            if is_main_process():
                print(
                    f"pipeline: {advice}. Skipping rejection_sft (--on_empty_rejection skip): "
                    "the final RL starts from the GRPO model"
                )
        return str(out / "sft.jsonl")

    def rejection_sft() -> str:
        records: list[TaskRecord] = read_jsonl(finished["rejection"])
        if not records:  # skipped: nothing verified to learn from
            if is_main_process():
                print(
                    "pipeline: rejection_sft skipped (nothing verified): its output is the GRPO "
                    "model"
                )
            return finished["grpo"]
        config = sft_config(pipe, rl, stage_dir["rejection_sft"])
        return str(train_sft(model_at(finished["grpo"]), records, data_args.system_prompt, config))

    def final_rl() -> str:
        names = list(pipe.final_reward_funcs)
        args = with_values(
            rl,
            output_dir=str(stage_dir["final_rl"]),
            max_steps=pipe.final_rl_max_steps,
            reward_weights=final_weights(names, pipe.final_reward_weights),
        )
        rewards = dataclasses.replace(reward_args, reward_funcs=names)
        return str(run_grpo(model_at(finished["rejection_sft"]), data_args, rewards, args))

    steps: dict[str, Callable[[], str]] = {
        "cold_start_sft": cold_start,
        "grpo": grpo,
        "rejection": rejection,
        "rejection_sft": rejection_sft,
        "final_rl": final_rl,
    }
    for name in STAGES:
        if name in finished:
            if is_main_process():
                print(f"pipeline: {name} already done -> {finished[name]}")
            continue
        if is_main_process():
            print(f"pipeline: running {name}")
        finished[name] = steps[name]()
        save_state(root, finished)
    return Path(finished["final_rl"])
