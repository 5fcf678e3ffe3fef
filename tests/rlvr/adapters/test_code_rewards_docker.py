"""Code rewards end to end on a live service with a real Docker sandbox pool.

Through every path a trainer uses: TRL's `code_reward` and `verify_reward`, the client's
`/verify`, OpenRLHF's `/openrlhf` with a JSON label, and verl's `compute_score_batch`.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from rlvr.adapters import verl
from rlvr.adapters.trl import make_reward_function
from rlvr.client import VerifierClient
from rlvr.schemas.common import Status
from tests.support.server import service_fixture

pytestmark = pytest.mark.docker

TESTS = [
    {"kind": "call", "fn": "add", "args": [1, 2], "expected": 3},
    {"kind": "assert", "code": "assert add(-1, 1) == 0"},
]
RIGHT = "Here you go:\n```python\ndef add(a, b):\n    return a + b\n```"
WRONG = "```python\ndef add(a, b):\n    return a - b\n```"


code_service = service_fixture(
    {
        "VERIFIER_CODE__POOL_SIZE": "1",
        "VERIFIER_CODE__SANDBOX__LABEL": "rlvr-client-tests",
        "VERIFIER_LEAN__IS_ENABLED": "false",
    },
    needs_docker=True,
)


async def test_code_reward_scores_chat_completions_with_json_tests(code_service: str) -> None:
    reward = make_reward_function("code", base_url=code_service)
    logged: dict[str, float] = {}
    rewards = await reward(
        prompts=["Write add."] * 2,
        completions=[
            [{"role": "assistant", "content": RIGHT}],
            [{"role": "assistant", "content": WRONG}],
        ],
        tests=[json.dumps(TESTS), TESTS],  # stored JSON-encoded or as a list
        log_metric=lambda name, value: logged.__setitem__(name, value),
    )
    assert rewards == [1.0, 0.0]  # the wrong one fails both tests
    assert logged["code_reward/passed"] == 1.0 and logged["code_reward/failed"] == 1.0


async def test_code_reward_passes_the_judging_columns_through(code_service: str) -> None:
    """`scoring` and a `checker` (stored JSON-encoded, as a dataset column of mixed shapes must
    be) reach the service: a half-right program scores 0 under `all`, and a float checker
    accepts an answer a `lines` comparison would refuse."""
    reward = make_reward_function("code", base_url=code_service)
    half = "```python\ndef add(a, b):\n    return 3\n```"
    stdio = [{"kind": "stdio", "stdin": "", "stdout": "0.3333333"}]
    third = "```python\nprint(1 / 3)\n```"
    rewards = await reward(
        prompts=["Write add."] * 3 + ["Print a third."] * 2,
        completions=[[{"role": "assistant", "content": c}] for c in (half, half, RIGHT)]
        + [[{"role": "assistant", "content": third}]] * 2,
        tests=[TESTS, TESTS, TESTS, stdio, stdio],
        scoring=["fraction", "all", "all", None, None],
        checker=[None, None, None, json.dumps({"kind": "float", "abs_tol": 1e-6}), None],
    )
    assert rewards == [0.5, 0.0, 1.0, 1.0, 0.0]


async def test_verify_reward_mixes_math_and_code_rows(code_service: str) -> None:
    reward = make_reward_function("mixed", base_url=code_service)
    rewards = await reward(
        prompts=["p"] * 3,
        completions=[WRONG, "\\boxed{12}", RIGHT],
        domain=["code", "math", "code"],
        tests=[TESTS, None, TESTS],
        answer=[None, "12", None],
    )
    assert rewards == [0.0, 1.0, 1.0]


def test_client_verify_returns_per_test_verdicts_in_order(code_service: str) -> None:
    items: list[dict[str, Any]] = [
        {"domain": "code", "id": "w", "response": WRONG, "tests": TESTS},
        {"domain": "math", "id": "m", "response": "\\boxed{1}", "answer": "1"},
        {"domain": "code", "id": "r", "response": RIGHT, "tests": TESTS},
    ]
    with VerifierClient(code_service) as client:
        results = client.verify(items)
    assert [(r.id, r.domain, r.status) for r in results] == [
        ("w", "code", Status.failed),
        ("m", "math", Status.passed),
        ("r", "code", Status.passed),
    ]
    assert len(results[2].tests) == 2  # type: ignore[union-attr]


def test_openrlhf_with_a_json_code_label(code_service: str) -> None:
    prompt = "Write add(a, b).\n"
    label = json.dumps({"domain": "code", "tests": TESTS})
    body = {
        "query": [prompt + RIGHT, prompt + WRONG],
        "prompts": [prompt] * 2,
        "labels": [label] * 2,
    }
    out = httpx.post(f"{code_service}/openrlhf", json=body, timeout=120).json()
    assert out["rewards"] == [1.0, 0.0]
    assert out["extra_logs"]["verifier_passed"] == [1.0, 0.0]


def test_verl_batch_with_code_ground_truth(code_service: str) -> None:
    out = verl.compute_score_batch(
        data_sources=["code", "code"],
        solution_strs=[RIGHT, WRONG],
        ground_truths=[{"domain": "code", "tests": TESTS}] * 2,
        extra_infos=[{}, {}],
        base_url=code_service,
    )
    assert [(o["score"], o["passed"], o["verifier_error"]) for o in out] == [
        (1.0, 1.0, 0.0),
        (0.0, 0.0, 0.0),
    ]
