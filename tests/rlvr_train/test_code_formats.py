"""The data loader takes code problems in public formats: named (`<format>:<path>`) or detected."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rlvr_train.data import build_records, read_jsonl, to_rows
from tests.support.format_fixtures import (
    ADD_PY,
    APPS_STDIO,
    CODECONTESTS,
    LCB_FUNCTIONAL,
    MBPP,
)


def write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_a_plain_jsonl_mixes_task_records_and_detected_formats(tmp_path: Path) -> None:
    native = {"prompt": "1+1?", "domain": "math", "answer": "2"}
    path = write(tmp_path / "mixed.jsonl", [native, APPS_STDIO, CODECONTESTS, LCB_FUNCTIONAL, MBPP])
    records = read_jsonl(path)
    assert [r.domain for r in records] == ["math", "code", "code", "code", "code"]
    apps, contests, lcb, mbpp = records[1:]
    assert apps.id == "7" and apps.tests and apps.tests[0]["kind"] == "stdio"
    assert apps.completion == f"```python\n{ADD_PY.rstrip()}\n```"
    assert contests.timeout_s == 2.5 and contests.memory_mb == 256
    assert contests.language is None  # python: the default, left out of the row
    assert lcb.tests and lcb.tests[0]["fn"] == "Solution.addTwo" and lcb.completion is None
    assert mbpp.tests and len(mbpp.tests) == 2


def test_a_named_format_source_converts_every_line(tmp_path: Path) -> None:
    path = write(tmp_path / "cc.jsonl", [CODECONTESTS, {**CODECONTESTS, "name": "other"}])
    records = build_records([f"codecontests:{path}"], None, 2, seed=0)
    assert sorted(r.id or "" for r in records) == ["1000_A. Sum", "other"]
    assert all(len(r.tests or []) == 4 for r in records)


def test_rows_carry_the_code_limits_to_the_reward_columns(tmp_path: Path) -> None:
    records = read_jsonl(write(tmp_path / "cc.jsonl", [CODECONTESTS]))
    (row,) = to_rows(records, system_prompt=None)
    assert (row["timeout_s"], row["memory_mb"], row["language"]) == (2.5, 256, None)
    assert json.loads(row["tests"])[0] == {"kind": "stdio", "stdin": "1 2\n", "stdout": "3\n"}
    assert "standard input" in row["prompt"][-1]["content"]


def test_a_row_wrong_for_its_named_format_is_an_error_with_its_line(tmp_path: Path) -> None:
    path = write(tmp_path / "bad.jsonl", [APPS_STDIO, {**APPS_STDIO, "input_output": "{x"}])
    with pytest.raises(ValueError, match=r"bad.jsonl:2: .*not JSON"):
        read_jsonl(path, "apps")
    with pytest.raises(ValueError, match=r"bad.jsonl:2"):
        read_jsonl(path)  # detected as APPS, then refused the same way


def test_an_unknown_format_name_is_not_a_source(tmp_path: Path) -> None:
    path = write(tmp_path / "x.jsonl", [APPS_STDIO])
    with pytest.raises(ValueError, match="unknown dataset source"):
        build_records([f"nope:{path}"], None, 1, seed=0)


def test_a_line_that_is_no_known_format_keeps_the_task_record_error(tmp_path: Path) -> None:
    path = write(tmp_path / "odd.jsonl", [{"question": "what?"}])
    with pytest.raises(ValueError, match=r"(?s)odd.jsonl:1: .*prompt"):
        read_jsonl(path)
