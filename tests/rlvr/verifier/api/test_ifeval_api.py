"""`POST /ifeval`, ifeval items in `/verify` and `/openrlhf`, the client and the TRL/verl
adapters, all against a live service: verdicts per item and per constraint, clear 422s."""

from __future__ import annotations

import asyncio
import json

import httpx

from rlvr.adapters import verl
from rlvr.adapters.trl import make_reward_function
from rlvr.client import VerifierClient

NO_COMMA = {"id": "punctuation:no_comma"}
WORDS_UNDER_10 = {
    "id": "length_constraints:number_words",
    "kwargs": {"num_words": 10, "relation": "less than"},
}
TITLE_GT = "[{'instruction_id': ['detectable_format:title'], 'kwargs': [None]}]"


def test_ifeval_gives_a_verdict_per_item_and_per_constraint(verifier_url: str) -> None:
    items = [
        {"id": "a", "response": "The sea is calm today", "constraints": [NO_COMMA, WORDS_UNDER_10]},
        {"id": "b", "response": "The sea, it is calm", "constraints": [NO_COMMA, WORDS_UNDER_10]},
        {"id": "c", "response": "  ", "constraints": [NO_COMMA]},
        {
            "id": "d",
            "response": "The sea, it is calm",
            "constraints": [NO_COMMA, WORDS_UNDER_10],
            "scoring": "all",
        },
    ]
    response = httpx.post(f"{verifier_url}/ifeval", json={"items": items}, timeout=30)
    assert response.status_code == 200
    results = response.json()["results"]
    assert [r["id"] for r in results] == ["a", "b", "c", "d"]
    assert [r["status"] for r in results] == ["passed", "failed", "failed", "failed"]
    assert [r["reward"] for r in results] == [1.0, 0.5, 0.0, 0.0]
    assert results[1]["constraints"] == [
        {"id": "punctuation:no_comma", "met": False, "why": "1 comma(s)"},
        {
            "id": "length_constraints:number_words",
            "met": True,
            "why": "5 words; needed less than 10",
        },
    ]
    assert "empty response" in results[2]["detail"]


def test_an_unknown_instruction_is_a_422_naming_the_item_and_constraint(verifier_url: str) -> None:
    items = [
        {"response": "fine", "constraints": [NO_COMMA]},
        {"response": "fine", "constraints": [NO_COMMA, {"id": "keywords:existance", "kwargs": {}}]},
    ]
    response = httpx.post(f"{verifier_url}/ifeval", json={"items": items}, timeout=30)
    assert response.status_code == 422
    message = response.json()["error"]["message"]
    assert "items.1.constraints.1" in message
    assert "unknown instruction id 'keywords:existance'" in message
    assert "did you mean 'keywords:existence'" in message


def test_verify_mixes_ifeval_with_math(verifier_url: str) -> None:
    items = [
        {"domain": "math", "response": "\\boxed{4}", "answer": "4"},
        {"domain": "ifeval", "response": "calm seas", "constraints": [NO_COMMA]},
    ]
    results = httpx.post(f"{verifier_url}/verify", json={"items": items}, timeout=30).json()[
        "results"
    ]
    assert [(r["domain"], r["status"]) for r in results] == [
        ("math", "passed"),
        ("ifeval", "passed"),
    ]
    assert results[1]["constraints"][0]["met"] is True


def test_openrlhf_reads_open_instruct_ground_truths(verifier_url: str) -> None:
    body = {
        "query": ["Q1 <<Calm Seas>>\nThe sea is calm.", "Q2 The sea is calm."],
        "prompts": ["Q1", "Q2"],
        "labels": [TITLE_GT, json.dumps({"domain": "ifeval", "constraints": [NO_COMMA]})],
    }
    out = httpx.post(f"{verifier_url}/openrlhf", json=body, timeout=30).json()
    assert out["rewards"] == [1.0, 1.0]
    bad = dict(body, labels=["[{'instruction_id': ['nope:nope'], 'kwargs': [{}]}]", TITLE_GT])
    response = httpx.post(f"{verifier_url}/openrlhf", json=bad, timeout=30)
    assert response.status_code == 422
    assert "labels[0]" in response.json()["error"]["message"]


def test_client_and_trl_reward_judge_ifeval(verifier_url: str) -> None:
    with VerifierClient(verifier_url) as client:
        (result,) = client.ifeval([{"response": "calm seas", "constraints": [NO_COMMA]}])
    assert result.status.value == "passed" and result.constraints[0].met

    reward = make_reward_function("ifeval", base_url=verifier_url)
    prompts = [[{"role": "user", "content": "Describe the sea without commas."}]] * 3
    completions = ["The sea is calm and blue", "The sea, calm", "Describe the sea without commas."]
    rewards = asyncio.run(
        reward(
            prompts,
            completions,
            ground_truth=[TITLE_GT.replace("detectable_format:title", "punctuation:no_comma")] * 3,
        )
    )
    # the third only repeats the prompt: no reward, though it has no comma
    assert rewards == [1.0, 0.0, 0.0]


def test_verl_routes_an_ifeval_data_source(verifier_url: str) -> None:
    scores = verl.compute_score_batch(
        ["allenai/RLVR-IFeval", "ifeval"],
        ["the sea is calm", "The Sea"],
        [
            json.dumps({"func_name": "validate_lowercase"}),
            [{"instruction_id": ["punctuation:no_comma"], "kwargs": [{}]}],
        ],
        base_url=verifier_url,
    )
    assert [s["score"] for s in scores] == [1.0, 1.0]
    assert verl.is_ifeval_source("google/IFEval") and not verl.is_ifeval_source("gsm8k")
