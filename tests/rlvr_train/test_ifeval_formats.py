"""The trainer reads instruction-following sets (`ifeval:` / `open_instruct:` sources) and has an
`ifeval` reward."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rlvr_train.data import INSTRUCTIONS, load_source
from rlvr_train.records import to_row
from rlvr_train.rewards.verifiable import VERIFIABLE_NAMES


def test_ifeval_and_open_instruct_sources_become_ifeval_records(tmp_path: Path) -> None:
    ifeval = tmp_path / "ifeval.jsonl"
    ifeval.write_text(
        json.dumps(
            {
                "key": 7,
                "prompt": "Describe the sea. Do not use commas.",
                "instruction_id_list": ["punctuation:no_comma"],
                "kwargs": [{"num_words": None}],
            }
        )
        + "\n"
    )
    oi = tmp_path / "oi.jsonl"
    oi.write_text(
        json.dumps(
            {
                "messages": [{"role": "user", "content": "Give a title."}],
                "ground_truth": (
                    "[{'instruction_id': ['detectable_format:title'], 'kwargs': [None]}]"
                ),
            }
        )
        + "\n"
    )
    (a,) = load_source(f"ifeval:{ifeval}", 0, 0, is_eval=False, heldout_fraction=0.0)
    (b,) = load_source(f"open_instruct:{oi}", 0, 0, is_eval=False, heldout_fraction=0.0)
    assert (a.domain, a.id, a.constraints) == (
        "ifeval",
        "7",
        [{"id": "punctuation:no_comma", "kwargs": {}}],
    )
    assert b.prompt == "Give a title." and b.constraints == [
        {"id": "detectable_format:title", "kwargs": {}}
    ]
    row = to_row(a, INSTRUCTIONS["ifeval"], None)
    assert json.loads(row["constraints"]) == a.constraints
    assert row["prompt"][-1]["content"] == "Describe the sea. Do not use commas."


def test_a_bad_row_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"prompt": "x", "instruction_id_list": ["nope:nope"], "kwargs": [{}]}\n')
    with pytest.raises(ValueError, match=r"bad.jsonl:1: .*unknown instruction id 'nope:nope'"):
        load_source(f"ifbench:{path}", 0, 0, is_eval=False, heldout_fraction=0.0)


def test_the_trainer_has_an_ifeval_reward() -> None:
    assert "ifeval" in VERIFIABLE_NAMES
