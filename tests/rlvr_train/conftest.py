"""Fixtures of the trainer tests: a digit-copy task a tiny model learns in a couple of minutes."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest


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


@pytest.fixture
def copy_task(tmp_path: Path) -> Path:
    return write_copy_task(tmp_path / "copy.jsonl", 200, seed=0)
