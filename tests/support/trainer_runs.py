"""Trainer test runs: a tiny task a random model can learn, and the flags of a tiny GRPO run."""

from __future__ import annotations

import json
import random
from pathlib import Path


def write_copy_task(path: Path, size: int, seed: int, with_completion: bool = False) -> Path:
    """`copy 7` -> answer `7`: a random tiny model answers right by chance about 1 time in 70
    (one token out of its vocabulary), so GRPO has signal from the first steps."""
    rng = random.Random(seed)
    with path.open("w") as handle:
        for index in range(size):
            digit = rng.randint(0, 9)
            record = {
                "id": f"copy-{index}",
                "prompt": [{"role": "user", "content": f"copy {digit}"}],
                "domain": "math",
                "answer": str(digit),
            }
            if with_completion:
                record["completion"] = str(digit)
            handle.write(json.dumps(record) + "\n")
    return path


def tiny_grpo(task: Path, out: Path, *extra: str, url: str = "http://127.0.0.1:9") -> list[str]:
    return [
        "grpo", "--model_name_or_path", "tiny", "--datasets", str(task), "--dataset_size", "64",
        "--system_prompt", "", "--verifier_url", url, "--output_dir", str(out),
        "--per_device_train_batch_size", "32", "--num_generations", "8",
        "--learning_rate", "1e-2", "--temperature", "1.0", "--logging_steps", "1",
        "--report_to", "none", "--disable_tqdm", "true", "--seed", "0", *extra,
    ]  # fmt: skip
