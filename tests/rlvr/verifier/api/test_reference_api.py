"""`/choice`, `/answer`, `/gym` on a live service, alone and inside `/verify` and `/openrlhf`."""

from __future__ import annotations

import json
from typing import Any

import httpx

from rlvr.formats.choice import from_mmlu
from rlvr.formats.gym import problems
from tests.support.http import verdicts

OPTIONS = ["London", "Paris", "Rome", "Berlin"]


def test_choice_reads_committed_labels_and_refuses_hedges(verifier_url: str) -> None:
    items: list[dict[str, Any]] = [
        {"id": "box", "response": r"\boxed{B}", "answer": "B"},
        {"id": "text", "response": "The answer is Paris.", "answer": "B", "options": OPTIONS},
        {"id": "hedge", "response": "Answer: A or B", "answer": "B"},
        {"id": "quote", "response": "B) Rome", "answer": "B", "options": OPTIONS},
        {"id": "think", "response": "<think>The answer is B.</think>", "answer": "B"},
        {"id": "wrong", "response": "Answer: (C)", "answer": "B"},
        {"id": "roman", "response": "The answer is (iv).", "answer": "IV", "num_options": 5},
    ]
    results = verdicts(verifier_url, "/choice", items)
    assert [(r["id"], r["status"], r["reward"], r["reason"]) for r in results] == [
        ("box", "passed", 1.0, "correct"),
        ("text", "passed", 1.0, "correct"),
        ("hedge", "failed", 0.0, "hedged"),
        ("quote", "failed", 0.0, "contradicts_text"),
        ("think", "failed", 0.0, "no_answer"),
        ("wrong", "failed", 0.0, "wrong_choice"),
        ("roman", "passed", 1.0, "correct"),
    ]
    assert results[5]["choice"] == "C"


def test_choice_rejects_an_answer_outside_its_labels_with_422(verifier_url: str) -> None:
    item = {"response": "B", "answer": "F", "options": OPTIONS}
    response = httpx.post(f"{verifier_url}/choice", json={"items": [item]})
    assert response.status_code == 422
    assert "items.0" in response.json()["error"]["message"]


def test_answer_matches_aliases_numbers_and_grades_f1(verifier_url: str) -> None:
    items: list[dict[str, Any]] = [
        {"response": "Answer: Everest", "answer": ["Mount Everest", "Everest"]},
        {"response": r"\boxed{1,000 km}", "answer": "1000 kilometres"},
        {"response": "Answer: Everest, K2", "answer": ["Mount Everest", "Everest"]},
        {"response": "Answer: the Eiffel Tower in Paris", "answer": "Eiffel Tower", "match": "f1"},
        {"response": "Answer: Lyon", "answer": "Paris"},
    ]
    results = verdicts(verifier_url, "/answer", items)
    assert [(r["status"], r["reason"]) for r in results] == [
        ("passed", "correct"),
        ("passed", "correct"),
        ("failed", "stuffed"),
        ("failed", "partial"),
        ("failed", "wrong"),
    ]
    assert results[0]["matched"] == "Everest"
    assert 0.6 < results[3]["reward"] < 0.7


def _gym_item(task: str, answer: str, **fields: object) -> dict:
    problem = next(problems(task, 1, seed=11))
    return problem.item(f"<think>working</think><answer>{answer}</answer>") | fields


def test_gym_scores_with_the_tasks_own_scorer_and_keeps_partial_scores(verifier_url: str) -> None:
    right = next(problems("basic_arithmetic", 1, seed=11)).entry["answer"]
    items = [
        _gym_item("basic_arithmetic", right),
        _gym_item("basic_arithmetic", "nonsense"),
        _gym_item("rubiks_cube", "U U'"),  # a move list that does not solve: a small score
        {**_gym_item("basic_arithmetic", right), "response": "no tags here"},
    ]
    results = verdicts(verifier_url, "/gym", items)
    assert [(r["status"], r["reason"]) for r in results] == [
        ("passed", "correct"),
        ("failed", "wrong"),
        ("failed", "partial"),
        ("failed", "no_answer"),
    ]
    assert 0.0 < results[2]["reward"] < 1.0
    assert results[0]["extracted"] == right


def test_gym_kills_a_scorer_past_its_deadline_and_the_next_item_is_scored(
    verifier_url: str,
) -> None:
    """countdown's scorer evaluates the expression it is given: `9**9**9**9` never ends."""
    right = next(problems("basic_arithmetic", 1, seed=11)).entry["answer"]
    items = [
        _gym_item("countdown", "9**9**9**9", timeout_s=1.0),
        _gym_item("basic_arithmetic", right),
    ]
    spinning, after = verdicts(verifier_url, "/gym", items)
    assert (spinning["status"], spinning["reward"], spinning["reason"]) == (
        "timed_out",
        0.0,
        "timed_out",
    )
    assert after["status"] == "passed"
    gym_stats = httpx.get(f"{verifier_url}/health").json()["domains"]["gym"]["stats"]
    assert gym_stats["chunks_retried"] >= 1  # the pair went as one chunk, then one by one


def test_gym_rejects_an_unknown_task_with_422_naming_close_ones(verifier_url: str) -> None:
    item = _gym_item("basic_arithmetic", "1") | {"task": "basic_arithmatic"}
    response = httpx.post(f"{verifier_url}/gym", json={"items": [item]})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "unknown_task"
    assert "basic_arithmetic" in error["message"]


def test_verify_routes_the_new_domains_and_keeps_order(verifier_url: str) -> None:
    right = next(problems("basic_arithmetic", 1, seed=11)).entry["answer"]
    items = [
        {"domain": "choice", "response": "Answer: B", "answer": "B"},
        {"domain": "math", "response": r"\boxed{4}", "answer": "4"},
        {"domain": "answer", "response": "Answer: Paris", "answer": "Paris"},
        {"domain": "gym", **_gym_item("basic_arithmetic", right)},
        {"domain": "choice", "response": "A or B", "answer": "B"},
    ]
    results = verdicts(verifier_url, "/verify", items)
    assert [(r["domain"], r["status"]) for r in results] == [
        ("choice", "passed"),
        ("math", "passed"),
        ("answer", "passed"),
        ("gym", "passed"),
        ("choice", "failed"),
    ]


def test_openrlhf_takes_labels_of_the_new_domains(verifier_url: str) -> None:
    mmlu = from_mmlu({"question": "Capital of France?", "choices": OPTIONS, "answer": 1})
    gym = next(problems("basic_arithmetic", 1, seed=11))
    prompts = [mmlu.prompt, "Q: capital of Italy?", gym.prompt]
    responses = [r" \boxed{B}", " Answer: Rome, Milan", f"<answer>{gym.entry['answer']}</answer>"]
    labels = [mmlu.label(), json.dumps({"domain": "answer", "answer": "Rome"}), gym.label()]
    body = {
        "query": [p + r for p, r in zip(prompts, responses, strict=True)],
        "prompts": prompts,
        "labels": labels,
    }
    response = httpx.post(f"{verifier_url}/openrlhf", json=body, timeout=60)
    assert response.status_code == 200, response.text
    assert response.json()["rewards"] == [1.0, 0.0, 1.0]


def test_health_lists_the_new_domains(verifier_url: str) -> None:
    domains = httpx.get(f"{verifier_url}/health").json()["domains"]
    assert {"choice", "answer", "gym"} <= set(domains)
    assert domains["gym"]["ok"] and domains["gym"]["stats"]["tasks"] >= 100


def test_the_sync_client_has_a_method_per_new_endpoint(verifier_url: str) -> None:
    from rlvr.client import VerifierClient

    gym = next(problems("leg_counting", 1, seed=3))
    with VerifierClient(verifier_url) as client:
        (chosen,) = client.choice([{"response": "Answer: (A)", "answer": "A"}])
        (matched,) = client.answer([{"response": "Answer: 1,000", "answer": "1000"}])
        (scored,) = client.gym([gym.item(f"<answer>{gym.entry['answer']}</answer>")])
    assert (chosen.reason, matched.reason, scored.reason) == ("correct", "correct", "correct")
