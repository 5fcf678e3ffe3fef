"""The GRPO stage: TRL's GRPOTrainer with our data, rewards, timing metrics and report."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from trl import GRPOConfig, GRPOTrainer

from rlvr_train.config import DataArguments, ModelArguments, RewardArguments
from rlvr_train.data import build_records, to_rows
from rlvr_train.distributed import describe, is_main_process
from rlvr_train.errors import UsageError
from rlvr_train.models import load_tokenizer, resolve_model
from rlvr_train.preflight import run_preflight
from rlvr_train.records import TaskRecord
from rlvr_train.reporting import GENERATION_KEY, REWARDS_KEY, ReportCallback, quiet_trainer_logs
from rlvr_train.rewards.mixing import build_reward_funcs, check_weights
from rlvr_train.runs import prepare_init_kwargs, resume_target, save_policy, trainer_model_kwargs
from rlvr_train.samples import SAMPLES_FILE, append_samples, sample_rows
from rlvr_train.tools import check_tools, environment_factory, preflight_tools, with_tool_template


class TimedGRPOTrainer(GRPOTrainer):
    """GRPOTrainer that also logs seconds per step spent generating and computing rewards.

    It overrides TRL's private `_generate` and `_calculate_rewards` and writes its private
    `_metrics`: pyproject.toml pins TRL below the next minor release, and
    tests/rlvr_train/test_grpo.py checks that the signatures are still the ones wrapped here.
    At the first logged step, then at the first logged step `sample_every` or more steps after
    the last one written, it appends the last generation batch (TRL's `_logs`: prompts,
    completions, rewards per function, the adapter's verdicts) to samples.jsonl.
    """

    sample_every: int = 0
    samples_path: Path | None = None
    _last_sampled_step: int | None = None

    def log(self, logs: dict[str, float], start_time: float | None = None) -> None:
        super().log(logs, start_time)
        if "reward" not in logs or not self.sample_every or self.samples_path is None:
            return
        step, last = self.state.global_step, self._last_sampled_step
        if last is not None and step - last < self.sample_every:
            return
        self._last_sampled_step = step
        if self.accelerator.is_main_process:
            recent: dict[str, Any] = self._logs
            append_samples(
                self.samples_path,
                sample_rows(
                    self.state.global_step,
                    list(recent["prompt"]),
                    list(recent["completion"]),
                    {name: list(v) for name, v in recent["rewards"].items()},
                    {name: list(v) for name, v in recent["extra"].items()},
                    list(recent["advantages"]),
                ),
            )

    def _mode(self) -> str:
        return "train" if self.model is not None and self.model.training else "eval"

    def _generate(self, prompts: list) -> Any:
        started = time.perf_counter()
        output = super()._generate(prompts)
        self._metrics[self._mode()][GENERATION_KEY].append(time.perf_counter() - started)
        return output

    def _calculate_rewards(self, inputs, prompts, completions, completion_ids_list):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        output = super()._calculate_rewards(inputs, prompts, completions, completion_ids_list)
        self._metrics[self._mode()][REWARDS_KEY].append(time.perf_counter() - started)
        return output


def corpus_of(records: list[TaskRecord], system_prompt: str | None) -> list[str]:
    """Texts a `tiny` model's tokenizer is trained on: prompts, instructions, solutions."""
    from rlvr_train.data import INSTRUCTIONS

    texts = [system_prompt or "", *INSTRUCTIONS.values()]
    for record in records:
        if isinstance(record.prompt, str):
            texts.append(record.prompt)
        else:
            texts.extend(message["content"] for message in record.prompt)
        texts.extend(x for x in (record.answer, record.completion) if x)
    return texts


def prompt_rows(
    records: list[TaskRecord],
    tokenizer: Any,
    system_prompt: str | None,
    max_prompt_length: int | None,
) -> list[dict[str, Any]]:
    """Dataset rows, without prompts longer than `max_prompt_length` tokens."""
    rows = to_rows(records, system_prompt or None)
    if max_prompt_length is None:
        return rows
    kept = [
        row
        for row in rows
        if len(
            tokenizer.apply_chat_template(row["prompt"], add_generation_prompt=True, tokenize=False)
        )
        <= max_prompt_length * 8  # cheap character bound first
        and len(
            tokenizer.apply_chat_template(
                row["prompt"], add_generation_prompt=True, tokenize=True, return_dict=False
            )
        )
        <= max_prompt_length
    ]
    if not kept:
        raise UsageError(
            f"every prompt is longer than --max_prompt_length {max_prompt_length} tokens; "
            "raise it, or pass `--max_prompt_length null` to keep all"
        )
    return kept


def training_records(data_args: DataArguments) -> list[TaskRecord]:
    return build_records(
        data_args.datasets,
        data_args.dataset_weights,
        data_args.dataset_size,
        data_args.dataset_seed,
        heldout_fraction=data_args.humaneval_heldout_fraction,
    )


def preflight(
    reward_names: list[str],
    records: list[TaskRecord],
    data_args: DataArguments,
    verifier_url: str | None,
    enabled: bool = True,
) -> None:
    """Check the verifier and the data columns before any model loads (`--preflight false`:
    skip); a problem is a `UsageError` (one line, exit 2)."""
    if not enabled:
        return
    line = run_preflight(reward_names, to_rows(records, data_args.system_prompt), verifier_url)
    if is_main_process():
        print(line, flush=True)


def prepare_model(
    model_args: Any,
    data_args: DataArguments,
    work_dir: Path,
    records: list[TaskRecord] | None = None,
    tool_calling: bool = False,
) -> tuple[str, list[TaskRecord]]:
    """The training records and a loadable model path (built-ins materialised under work_dir;
    `tiny` with ChatML and tool-call tokens when `tool_calling`)."""
    records = training_records(data_args) if records is None else records
    model_path = resolve_model(
        model_args.model_name_or_path,
        work_dir=work_dir,
        corpus=corpus_of(records, data_args.system_prompt),
        tiny_hidden_size=model_args.tiny_hidden_size,
        tiny_num_layers=model_args.tiny_num_layers,
        tiny_vocab_size=model_args.tiny_vocab_size,
        seed=data_args.dataset_seed,
        tool_calling=tool_calling,
    )
    return model_path, records


def run_grpo(
    model_args: ModelArguments,
    data_args: DataArguments,
    reward_args: RewardArguments,
    args: GRPOConfig,
    callbacks: list[Any] | None = None,
) -> Path:
    """Train with GRPO; save the policy, metrics.jsonl and curves.png in `args.output_dir`."""
    from datasets import Dataset

    output_dir = Path(args.output_dir or "outputs/grpo")
    print(f"grpo: {describe()}", flush=True)
    records = training_records(data_args)
    tools = check_tools(reward_args.tools)
    tools_url = reward_args.tools_url or reward_args.verifier_url
    check_weights(reward_args.reward_funcs, args.reward_weights)
    reward_funcs = build_reward_funcs(
        reward_args.reward_funcs, reward_args.reward_model_name_or_path, reward_args.verifier_url
    )
    preflight(
        reward_args.reward_funcs, records, data_args, reward_args.verifier_url,
        reward_args.preflight,
    )  # fmt: skip
    if tools and reward_args.preflight:
        line = preflight_tools(tools_url)
        if is_main_process():
            print(line, flush=True)
    model_path, records = prepare_model(
        model_args, data_args, output_dir, records, tool_calling=bool(tools)
    )
    tokenizer = load_tokenizer(
        model_path, revision=model_args.model_revision, trust_remote_code=args.trust_remote_code
    )
    tool_kwargs: dict[str, Any] = {}
    if tools:
        tokenizer, replaced = with_tool_template(tokenizer)
        if replaced and is_main_process():
            print("grpo: --tools: chat template set to TRL's Qwen2.5 (tool calls)", flush=True)
        tool_kwargs["environment_factory"] = environment_factory(
            tools_url, reward_args.tool_timeout_s, reward_args.tool_memory_mb,
            reward_args.tool_max_chars,
        )  # fmt: skip
    rows = prompt_rows(records, tokenizer, data_args.system_prompt, data_args.max_prompt_length)
    if is_main_process():
        dropped = len(records) - len(rows)
        print(
            f"grpo: {len(rows)} prompts ({dropped} dropped: longer than --max_prompt_length "
            f"{data_args.max_prompt_length} tokens)",
            flush=True,
        )
    args.reward_weights = check_weights(reward_args.reward_funcs, args.reward_weights)
    prepare_init_kwargs(args, model_args)
    trainer = TimedGRPOTrainer(
        model=model_path,
        reward_funcs=reward_funcs,
        args=args,
        train_dataset=Dataset.from_list(rows),
        processing_class=tokenizer,
        callbacks=[ReportCallback(output_dir), *(callbacks or [])],
        **trainer_model_kwargs(model_args),
        **tool_kwargs,
    )
    quiet_trainer_logs(trainer)
    trainer.sample_every = reward_args.sample_every_steps
    trainer.samples_path = output_dir / SAMPLES_FILE
    resume = resume_target(args.resume_from_checkpoint, output_dir)
    if is_main_process() and resume is None:
        trainer.samples_path.unlink(missing_ok=True)  # a fresh run starts its samples anew
    trainer.train(resume_from_checkpoint=resume)
    return save_policy(trainer, tokenizer, output_dir)
