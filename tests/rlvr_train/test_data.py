"""Task sources and the mixture sampler: schema checks, seeds, held-out parts, weights."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from rlvr_train.data import (
    build_records,
    humaneval_records,
    mix,
    prompt_helpers,
    read_jsonl,
    reasoning_gym_records,
    to_rows,
)
from rlvr_train.records import TaskRecord


def test_jsonl_records_of_each_domain_load(tmp_path: Path) -> None:
    path = tmp_path / "tasks.jsonl"
    lines = [
        {"prompt": "1+1?", "domain": "math", "answer": "2"},
        {"prompt": "add", "domain": "code", "tests": [{"kind": "assert", "code": "assert 1"}]},
        {"prompt": [{"role": "user", "content": "prove"}], "domain": "lean",
         "statement": "theorem t : True"},
    ]  # fmt: skip
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n\n")
    records = read_jsonl(path)
    assert [r.domain for r in records] == ["math", "code", "lean"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"prompt": "1+1?", "domain": "math"}, "needs `answer`"),
        ({"prompt": "f", "domain": "code", "answer": "2"}, "needs `tests`"),
        ({"prompt": "p", "domain": "lean"}, "needs `statement`"),
        ({"prompt": "1+1?", "domain": "math", "answer": "2", "anwser": "2"}, "anwser"),
        ({"prompt": "1+1?", "domain": "chess", "answer": "2"}, "domain"),
    ],
)
def test_bad_jsonl_line_is_rejected_with_its_line_number(
    tmp_path: Path, line: dict, message: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"prompt": "ok", "domain": "math", "answer": "1"}) + "\n")
    path.write_text(path.read_text() + json.dumps(line) + "\n")
    with pytest.raises(ValueError, match=r"bad.jsonl:2") as info:
        read_jsonl(path)
    assert message in str(info.value)


def test_reasoning_gym_source_is_reproducible_and_seed_dependent() -> None:
    a = reasoning_gym_records("basic_arithmetic", 20, seed=1)
    b = reasoning_gym_records("basic_arithmetic", 20, seed=1)
    c = reasoning_gym_records("basic_arithmetic", 20, seed=2)
    assert [r.prompt for r in a] == [r.prompt for r in b]
    assert [r.prompt for r in a] != [r.prompt for r in c]
    assert all(r.domain == "math" and r.answer for r in a)
    # Worked solutions end with the boxed answer.
    assert all(r.completion and r.completion.endswith(f"\\boxed{{{r.answer}}}") for r in a)


def test_eval_records_of_a_generator_differ_from_training_ones() -> None:
    train = build_records(["gym:chain_sum"], None, 50, seed=0)
    held = build_records(["gym:chain_sum"], None, 50, seed=0, is_eval=True)
    assert {r.id for r in train}.isdisjoint({r.id for r in held})


def test_humaneval_split_is_disjoint_complete_and_runnable() -> None:
    train = humaneval_records("train", 0.2)
    held = humaneval_records("heldout", 0.2)
    assert len(train) + len(held) == 164 and len(held) == 33
    assert {r.id for r in train}.isdisjoint({r.id for r in held})
    record = held[0]
    assert record.domain == "code" and record.tests
    test_code = record.tests[0]["code"]
    assert test_code.rstrip().endswith(")") and "check(" in test_code
    # The canonical solution really passes its own tests (run here, in-process).
    solution = (record.completion or "").removeprefix("```python\n").removesuffix("```")
    namespace: dict = {}
    exec(solution + "\n" + test_code, namespace)


def test_prompt_helpers_keep_imports_and_helpers_but_not_the_entry_point() -> None:
    prompt = (
        "import math\nfrom typing import List\n\n\n"
        "def poly(xs: list, x: float):\n    return sum(c * x**i for i, c in enumerate(xs))\n\n\n"
        'def find_zero(xs: list):\n    """Find x with poly(xs, x) = 0."""\n'
    )
    helpers = prompt_helpers(prompt, "find_zero")
    assert "import math" in helpers and "from typing import List" in helpers
    assert "def poly(" in helpers and "find_zero" not in helpers
    namespace: dict = {}
    exec(helpers, namespace)
    assert namespace["poly"]([1, 2], 3) == 7


def test_humaneval_tests_define_the_helpers_they_use() -> None:
    """HumanEval/32, /38 and /50 test through a helper of the prompt: the test defines it."""
    records = {r.id: r for r in humaneval_records("train", 0.0)}
    for task, helper in [("32", "poly"), ("38", "encode_cyclic"), ("50", "encode_shift")]:
        code = records[f"HumanEval/{task}"].tests[0]["code"]  # type: ignore[index]
        assert f"def {helper}(" in code
        assert code.index(f"def {helper}(") < code.index("def check(")


def test_mixture_follows_the_weights_and_is_seeded() -> None:
    a = [TaskRecord(prompt=f"a{i}", domain="math", answer="1") for i in range(10)]
    b = [TaskRecord(prompt=f"b{i}", domain="math", answer="1") for i in range(10)]
    drawn = mix([a, b], [0.8, 0.2], 1000, seed=3)
    share_a = Counter(str(r.prompt)[0] for r in drawn)["a"] / 1000
    assert 0.75 < share_a < 0.85
    assert drawn == mix([a, b], [0.8, 0.2], 1000, seed=3)
    # Within a source, every record is used before any repeats.
    assert len({r.prompt for r in drawn[:40] if str(r.prompt).startswith("b")}) == min(
        10, sum(1 for r in drawn[:40] if str(r.prompt).startswith("b"))
    )


@pytest.mark.parametrize("weights", [[1.0], [1.0, -1.0], [0.0, 0.0]])
def test_mixture_rejects_bad_weights(weights: list[float]) -> None:
    a = [TaskRecord(prompt="a", domain="math", answer="1")]
    with pytest.raises(ValueError, match="weight"):
        mix([a, a], weights, 5, seed=0)


def test_unknown_source_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown dataset source"):
        build_records(["nope"], None, 5, seed=0)


def test_rows_are_chat_prompts_with_instruction_system_and_json_tests() -> None:
    math = TaskRecord(prompt="1+1?", domain="math", answer="2")
    code = TaskRecord(prompt="f", domain="code", tests=[{"kind": "assert", "code": "assert f()"}])
    rows = to_rows([math, code], system_prompt="SYS")
    assert rows[0]["prompt"][0] == {"role": "system", "content": "SYS"}
    assert "\\boxed{}" in rows[0]["prompt"][1]["content"]
    assert rows[0]["answer"] == "2" and rows[0]["tests"] is None
    assert json.loads(rows[1]["tests"]) == [{"kind": "assert", "code": "assert f()"}]


def test_gym_spec_passes_generator_options() -> None:
    records = reasoning_gym_records("basic_arithmetic?min_terms=2&max_terms=2&max_digits=1", 30, 0)
    # Two one-digit terms per problem.
    assert all(len(re.findall(r"\d+", str(r.prompt))) == 2 for r in records)
    assert all(len(n) == 1 for r in records for n in re.findall(r"\d+", str(r.prompt)))
    assert all(r.id and r.id.startswith("basic_arithmetic-0-") for r in records)


def test_gym_spec_values_are_json_or_text() -> None:
    from rlvr_train.data import parse_gym_spec

    assert parse_gym_spec('basic_arithmetic?max_terms=3&operators=["+","-"]&style=plain') == (
        "basic_arithmetic",
        {"max_terms": 3, "operators": ["+", "-"], "style": "plain"},
    )
