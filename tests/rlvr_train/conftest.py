"""Fixtures of the trainer tests: a digit-copy task a tiny model learns in a couple of minutes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.trainer_runs import write_copy_task


@pytest.fixture
def copy_task(tmp_path: Path) -> Path:
    return write_copy_task(tmp_path / "copy.jsonl", 200, seed=0)
