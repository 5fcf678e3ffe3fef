"""GPU proof of the recipe: cold-start SFT, then GRPO with rewards from a live local verifier.

A model built from a config (no checkpoint can travel) learns reasoning-gym arithmetic: SFT on
worked solutions, then GRPO against `/math`. Prints held-out greedy accuracy of the initial
model, after SFT and after GRPO; GRPO's step time and the share of it spent waiting for
rewards. Writes `results.json`, both stages' metrics.jsonl and curves to $OUT.

    bash benchmarks/gpu_grpo.sh                     # the real run (one GPU, ~5 min)
    RLVR_GPU_BENCH_TINY=1 bash benchmarks/gpu_grpo.sh   # CPU rehearsal, everything shrunk
    RLVR_GPU_BENCH_SET=sft_steps=300,grpo_lr=1e-4 ...   # change any field of `Plan`
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import httpx
from transformers import TrainerCallback

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from trainer.data import (  # noqa: E402
    EVAL_SEED_OFFSET,
    read_jsonl,
    reasoning_gym_records,
    write_jsonl,
)
from trainer.records import TaskRecord  # noqa: E402

# Sums and differences of 2-3 numbers: learnable from scratch in minutes (1 digit on a CPU).
_ARITHMETIC = 'basic_arithmetic?min_terms=2&max_terms=3&operators=["+","-"]&min_digits=1'
TASKS = {"two_digit": f"{_ARITHMETIC}&max_digits=2", "one_digit": f"{_ARITHMETIC}&max_digits=1"}
DATA_DIR = REPO / "benchmarks" / "gpu_grpo_data"


@dataclass(frozen=True)
class Plan:
    task: str = "two_digit"
    train_size: int = 20000
    sft_size: int = 20000  # worked solutions the cold start sees (GRPO sees every prompt)
    eval_size: int = 512
    hidden_size: int = 256
    num_layers: int = 6
    sft_steps: int = 3000
    sft_batch: int = 128
    sft_lr: float = 1e-3
    sft_budget_s: float = 120.0
    grpo_steps: int = 100
    grpo_budget_s: float = 160.0
    grpo_prompts: int = 16
    num_generations: int = 16
    grpo_lr: float = 1e-4
    grpo_warmup_steps: int = 10
    beta: float = 0.04  # KL to the SFT model (without it, lr >= 3e-4 undid SFT on CPU runs)
    temperature: float = 1.0  # of GRPO's samples and of the sampled held-out accuracy
    eval_samples: int = 4
    sft_from: str = ""  # an SFT model folder: skip the model build and SFT, run GRPO from it
    max_completion_length: int = 48
    verifier_workers: int = 4

    @classmethod
    def tiny(cls) -> Plan:
        return cls(
            train_size=300,
            sft_size=100,
            eval_size=32,
            hidden_size=64,
            num_layers=2,
            sft_steps=20,
            sft_batch=16,
            grpo_steps=4,
            grpo_prompts=4,
            num_generations=4,
            grpo_warmup_steps=1,
            max_completion_length=24,
            verifier_workers=1,
        )


def task_records(task: str, size: int, split: str) -> list[TaskRecord]:
    """From reasoning-gym when installed; else the same records, generated here beforehand.

    Held-out problems come from a far seed: reasoning-gym's item i of seed s is item i-1 of
    seed s+1, so neighbouring seeds would share almost every problem."""
    seed = EVAL_SEED_OFFSET if split == "eval" else 0
    path = DATA_DIR / (f"{split}.jsonl" if task == "two_digit" else f"{task}_{split}.jsonl")
    try:
        records = reasoning_gym_records(TASKS[task], size, seed)
    except ImportError:
        return read_jsonl(path)[:size]
    if not path.is_file() or len(read_jsonl(path)) < size:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_jsonl(path, records)
    return records


class TimeBudget(TrainerCallback):
    """Stops a stage once its wall-clock budget is spent, so the run fits the GPU lease."""

    def __init__(self, budget_s: float) -> None:
        self.budget_s = budget_s
        self.started = time.perf_counter()
        self.steps = 0

    def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> Any:
        self.steps = state.global_step
        if time.perf_counter() - self.started > self.budget_s:
            control.should_training_stop = True
        return control


class LocalVerifier:
    """The verifier service (math only) under uvicorn on a free port, for the run's duration."""

    def __init__(self, out: Path, workers: int) -> None:
        import socket

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "VERIFIER_CODE__IS_ENABLED": "false",
            "VERIFIER_LEAN__IS_ENABLED": "false",
            "VERIFIER_MATH__WORKERS": str(workers),
        }
        self.log = (out / "verifier.log").open("w")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "services.verifier.app:create_app_from_env",
                "--factory",
                "--port",
                str(self.port),
                "--log-level",
                "warning",
            ],
            cwd=REPO,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def wait(self, timeout_s: float = 120) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"verifier exited; see {self.log.name}")
            try:
                if httpx.get(f"{self.url}/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        raise RuntimeError("verifier not ready")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


def with_overrides(plan: Plan, spec: str | None) -> Plan:
    """`sft_steps=300,grpo_lr=1e-4` applied to a plan (values typed like the field)."""
    if not spec:
        return plan
    values = {}
    for item in spec.split(","):
        key, _, raw = item.partition("=")
        values[key.strip()] = type(getattr(plan, key.strip()))(raw)
    return replace(plan, **values)


def shared_args(out_dir: Path, steps: int, has_cuda: bool) -> dict[str, Any]:
    """Training arguments both stages share: fp32 weights under bf16 autocast on a GPU (tiny
    updates survive), no checkpoints, quiet logs, seeded."""
    return {
        "output_dir": str(out_dir),
        "max_steps": steps,
        "bf16": has_cuda,
        "model_init_kwargs": {"dtype": "float32"},
        "save_strategy": "no",
        "report_to": "none",
        "disable_tqdm": True,
        "seed": 0,
    }


def mean_of(rows: list[dict], key: str) -> float | None:
    values = [r[key] for r in rows if isinstance(r.get(key), int | float)]
    return sum(values) / len(values) if values else None


def main() -> None:
    import torch
    from trl import GRPOConfig, SFTConfig

    from trainer.config import DataArguments, ModelArguments, RewardArguments, SamplingArguments
    from trainer.grpo import corpus_of, run_grpo
    from trainer.models import build_tiny_model
    from trainer.sampling import evaluate
    from trainer.sft import train_sft

    is_tiny = os.environ.get("RLVR_GPU_BENCH_TINY") == "1"
    plan = with_overrides(Plan.tiny() if is_tiny else Plan(), os.environ.get("RLVR_GPU_BENCH_SET"))
    out = Path(os.environ.get("OUT") or "outputs/gpu_grpo")
    out.mkdir(parents=True, exist_ok=True)
    has_cuda = torch.cuda.is_available()
    device = torch.cuda.get_device_name(0) if has_cuda else "cpu"
    print(f"device: {device} | torch {torch.__version__} | plan: {asdict(plan)}", flush=True)
    started = time.perf_counter()

    train = task_records(plan.task, plan.train_size, "train")
    seen = {str(r.prompt) for r in train}
    candidates = task_records(plan.task, plan.eval_size, "eval")
    held_out = [r for r in candidates if str(r.prompt) not in seen]
    if not held_out:
        raise RuntimeError("no held-out problem left after removing those seen in training")
    print(f"data: {len(train)} training problems, {len(held_out)} held-out ones", flush=True)
    train_file = out / "train.jsonl"
    write_jsonl(train_file, train)

    verifier = LocalVerifier(out, plan.verifier_workers)
    try:
        verifier.wait()
        data = DataArguments(
            datasets=[str(train_file)], dataset_size=plan.train_size, system_prompt=""
        )
        rewards = RewardArguments(reward_funcs=["math"], verifier_url=verifier.url)
        sampling = SamplingArguments(
            num_samples=plan.eval_samples,
            max_new_tokens=plan.max_completion_length,
            sample_temperature=plan.temperature,
            generation_batch=256,
        )
        accuracy: dict[str, float] = {}
        sampled: dict[str, float] = {}

        def measure(stage: str, model: Path) -> None:
            t = time.perf_counter()
            result = evaluate(str(model), held_out, data, rewards, sampling)
            accuracy[stage] = result["greedy_accuracy"]
            sampled[stage] = result["accuracy"]
            print(
                f"held-out accuracy {stage}: greedy {accuracy[stage]:.3f}, sampled "
                f"{sampled[stage]:.3f} ({time.perf_counter() - t:.1f}s)"
            )

        sft_steps, sft_s = 0, 0.0
        if plan.sft_from:  # GRPO only, from an earlier run's SFT model (for sweeps)
            sft_dir = Path(plan.sft_from)
        else:
            init = build_tiny_model(
                corpus_of(train, None),
                out / "init",
                hidden_size=plan.hidden_size,
                num_layers=plan.num_layers,
                vocab_size=160,
            )
            measure("initial", init)
            t = time.perf_counter()
            sft_budget = TimeBudget(plan.sft_budget_s)
            sft_dir = train_sft(
                str(init),
                train[: plan.sft_size],
                None,
                SFTConfig(
                    per_device_train_batch_size=plan.sft_batch,
                    learning_rate=plan.sft_lr,
                    lr_scheduler_type="cosine",
                    warmup_steps=max(plan.sft_steps // 20, 1),
                    logging_steps=max(plan.sft_steps // 10, 1),
                    **shared_args(out / "sft", plan.sft_steps, has_cuda),
                ),
                callbacks=[sft_budget],
            )
            sft_steps, sft_s = sft_budget.steps, time.perf_counter() - t
        measure("after_sft", sft_dir)

        t = time.perf_counter()
        grpo_budget = TimeBudget(plan.grpo_budget_s)
        grpo_dir = run_grpo(
            ModelArguments(model_name_or_path=str(sft_dir)),
            data,
            rewards,
            GRPOConfig(
                per_device_train_batch_size=plan.grpo_prompts * plan.num_generations,
                num_generations=plan.num_generations,
                learning_rate=plan.grpo_lr,
                warmup_steps=plan.grpo_warmup_steps,
                beta=plan.beta,
                temperature=plan.temperature,
                max_completion_length=plan.max_completion_length,
                logging_steps=max(plan.grpo_steps // 20, 1),
                gradient_checkpointing=False,
                **shared_args(out / "grpo", plan.grpo_steps, has_cuda),
            ),
            callbacks=[grpo_budget],
        )
        grpo_s = time.perf_counter() - t
        measure("after_grpo", grpo_dir)
    finally:
        verifier.stop()

    rows = [json.loads(x) for x in (out / "grpo" / "metrics.jsonl").read_text().splitlines()]
    step_s = mean_of(rows, "timing/step_s")
    rewards_s = mean_of(rows, "timing/rewards_s")
    generation_s = mean_of(rows, "timing/generation_s")
    share = (rewards_s / step_s) if step_s and rewards_s else None
    results = {
        "device": device,
        "plan": asdict(plan),
        "task": TASKS[plan.task],
        "train_problems": len(train),
        "held_out_problems": len(held_out),
        "held_out_accuracy": accuracy,
        "held_out_sampled_accuracy": sampled,
        "grpo_lift_over_sft": accuracy["after_grpo"] - accuracy["after_sft"],
        "grpo_sampled_lift_over_sft": sampled["after_grpo"] - sampled["after_sft"],
        "sft_steps_done": sft_steps,
        "sft_from": plan.sft_from or None,
        "grpo_steps_done": grpo_budget.steps,
        "sft_seconds": sft_s,
        "grpo_seconds": grpo_s,
        "grpo_step_s": step_s,
        "grpo_generation_s_per_step": generation_s,
        "grpo_reward_wait_s_per_step": rewards_s,
        "reward_wait_share": share,
        "grpo_reward_first_last": [mean_of(rows[:2], "reward"), mean_of(rows[-3:], "reward")],
        "total_seconds": time.perf_counter() - started,
    }
    (out / "results.json").write_text(json.dumps(results, indent=2))
    print("\n| stage | held-out greedy accuracy | held-out sampled accuracy |\n| --- | --- | --- |")
    for stage, value in accuracy.items():
        print(f"| {stage} | {value:.3f} | {sampled[stage]:.3f} |")
    print(
        f"\nSFT: {f'from {plan.sft_from}' if plan.sft_from else f'{sft_steps} steps'} "
        f"x {plan.sft_batch}; "
        f"GRPO: {grpo_budget.steps} steps x {plan.grpo_prompts * plan.num_generations} "
        f"completions, {step_s or 0:.2f} s/step (generation {generation_s or 0:.2f} s, "
        f"waiting for rewards {rewards_s or 0:.3f} s = "
        f"{100 * (share or 0):.1f}% of the step); "
        f"SFT {sft_s:.0f} s; total {results['total_seconds']:.0f} s"
    )


if __name__ == "__main__":
    main()
