"""`POST /verify` and `POST /openrlhf` on a live service: order, domain tags, labels."""

from __future__ import annotations

import json

import httpx
import pytest

from rlvr.schemas.verify import item_from_label, response_of


def _math(i: int, right: bool) -> dict[str, str]:
    return {
        "domain": "math",
        "id": f"m{i}",
        "response": f"\\boxed{{{i}}}",
        "answer": str(i if right else i + 1),
    }


def test_verify_returns_one_domain_tagged_verdict_per_item_in_order(verifier_url: str) -> None:
    items = [_math(i, right=i % 3 == 0) for i in range(9)]
    response = httpx.post(f"{verifier_url}/verify", json={"items": items})
    assert response.status_code == 200
    results = response.json()["results"]
    assert [r["id"] for r in results] == [f"m{i}" for i in range(9)]
    assert [r["status"] for r in results] == [
        "passed" if i % 3 == 0 else "failed" for i in range(9)
    ]
    assert {r["domain"] for r in results} == {"math"}
    assert [r["reward"] for r in results] == [1.0 if i % 3 == 0 else 0.0 for i in range(9)]


@pytest.mark.parametrize(
    "item",
    [
        {"response": "\\boxed{1}", "answer": "1"},  # no domain
        {"domain": "chemistry", "response": "\\boxed{1}", "answer": "1"},
        {"domain": "math", "response": "\\boxed{1}"},  # math without its answer
        {"domain": "math", "response": "x", "answer": "1", "typo": 1},
    ],
)
def test_verify_rejects_a_bad_item_with_422_naming_it(verifier_url: str, item: dict) -> None:
    response = httpx.post(f"{verifier_url}/verify", json={"items": [_math(0, True), item]})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    assert "items.1" in error["message"]


def test_openrlhf_scores_the_query_minus_its_prompt(verifier_url: str) -> None:
    prompts = ["Q: 2+2? Put the answer in \\boxed{}. A:", "Q: 3+3? A:", "Q: 5? A:"]
    responses = [" \\boxed{4}", " \\boxed{7}", " \\boxed{5}"]
    labels = ["4", "6", json.dumps({"domain": "math", "answer": "5"})]
    body = {
        "query": [p + r for p, r in zip(prompts, responses, strict=True)],
        "prompts": prompts,
        "labels": labels,
    }
    response = httpx.post(f"{verifier_url}/openrlhf", json=body)
    assert response.status_code == 200
    out = response.json()
    assert out["rewards"] == [1.0, 0.0, 1.0]
    assert out["scores"] == out["rewards"]
    assert out["extra_logs"]["verifier_passed"] == [1.0, 0.0, 1.0]
    assert out["extra_logs"]["verifier_failed"] == [0.0, 1.0, 0.0]
    assert out["extra_logs"]["verifier_error"] == [0.0, 0.0, 0.0]


def test_openrlhf_does_not_grade_the_prompt(verifier_url: str) -> None:
    # The prompt holds a boxed 4 (a worked example); the response has none: must not pass.
    prompt = "Example: \\boxed{4}. Now: 2+2? A:"
    body = {"query": [prompt + " I think five."], "prompts": [prompt], "labels": ["4"]}
    out = httpx.post(f"{verifier_url}/openrlhf", json=body).json()
    assert out["rewards"] == [0.0]


def test_openrlhf_ignores_extra_keys_from_newer_openrlhf_versions(verifier_url: str) -> None:
    body = {"query": ["Q \\boxed{1}"], "prompts": ["Q"], "labels": ["1"], "step": 3}
    out = httpx.post(f"{verifier_url}/openrlhf", json=body).json()
    assert out["rewards"] == [1.0]


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"query": ["a", "b"], "prompts": ["a"], "labels": ["1", "2"]}, "same length"),
        ({"query": ["q"], "prompts": ["q"], "labels": ['{"domain": "math"}']}, "labels[0]"),
        ({"query": ["q"], "prompts": ["q"], "labels": ['{"domain": "bio", "x": 1}']}, "labels[0]"),
        ({"query": ["q"], "prompts": ["q"]}, "--label_key"),
        # neither a plain ground truth nor JSON of the documented shape: never a math label
        ({"query": ["q"], "prompts": ["q"], "labels": ["{'domain': 'code', 'tests': []}"]}, "repr"),
        ({"query": ["q"], "prompts": ["q"], "labels": ['{"answer": "3"}']}, '"domain"'),
        ({"query": ["q"], "prompts": ["q"], "labels": [["4"]]}, "labels[0]"),
        ({"query": ["q"], "prompts": ["q"], "labels": [None]}, "labels[0]"),
        ({"query": ["q"], "prompts": ["q"], "labels": [True]}, "labels[0]"),
    ],
)
def test_openrlhf_rejects_inconsistent_requests_with_422(
    verifier_url: str, body: dict, needle: str
) -> None:
    response = httpx.post(f"{verifier_url}/openrlhf", json=body)
    assert response.status_code == 422
    assert needle in response.json()["error"]["message"]


@pytest.mark.parametrize(
    ("query", "prompt", "expected"),
    [
        ("PROMPT answer", "PROMPT", " answer"),
        ("<bos>PROMPT answer", "PROMPT", " answer"),  # a token the renderer added in front
        ("<s> <|begin_of_text|>PROMPT answer", "PROMPT", " answer"),
        ("answer only", "PROMPT", None),  # prompt not found: never judge the whole query
        ("x PROMPT answer", "PROMPT", None),  # not at the start: the prompt may be quoted
        ("answer", "", "answer"),
        ("What  is\n2+2? A: 4", "What is 2+2? A:", " 4"),  # doubled / moved whitespace
        ("Say hi .done", "Say hi.", "done"),
        ("PROMPT ok<|im_end|>", "PROMPT", " ok"),
        ("PROMPT ok<|im_end|>\n<|endoftext|>", "PROMPT", " ok"),
        ("PROMPT ok<｜end▁of▁sentence｜>", "PROMPT", " ok"),
        ("PROMPT ok</s>", "PROMPT", " ok"),
        ("PROMPT ok<|eot_id|>", "PROMPT", " ok"),
        ("PROMPT a <b>", "PROMPT", " a <b>"),  # only special tokens are dropped
    ],
)
def test_response_of_removes_the_prompt(query: str, prompt: str, expected: str | None) -> None:
    assert response_of(query, prompt) == expected


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("42", {"domain": "math", "response": "R", "answer": "42"}),
        ("\\frac{1}{2}", {"domain": "math", "response": "R", "answer": "\\frac{1}{2}"}),
        ("{not json", {"domain": "math", "response": "R", "answer": "{not json"}),
        ("{1, 2}", {"domain": "math", "response": "R", "answer": "{1, 2}"}),
        ("{x : x > 0}", {"domain": "math", "response": "R", "answer": "{x : x > 0}"}),
        ('{"domain": "math", "answer": "3"}', {"domain": "math", "answer": "3", "response": "R"}),
    ],
)
def test_item_from_label_reads_plain_and_structured_labels(label: str, expected: dict) -> None:
    assert item_from_label(label, "R") == expected


def test_verify_fans_out_to_every_domain_and_keeps_order(verifier_url: str) -> None:
    # On this service code is disabled and Lean has no toolchain: their items come back as the
    # verifier's `error` (reward null) while the math items around them are judged.
    items = [
        _math(0, right=True),
        {
            "domain": "code",
            "id": "c",
            "response": "```python\ndef f():\n    return 1\n```",
            "tests": [{"kind": "call", "fn": "f", "expected": 1}],
        },
        {"domain": "lean", "id": "l", "statement": "theorem t : True", "proof": "trivial"},
        _math(3, right=False),
    ]
    results = httpx.post(f"{verifier_url}/verify", json={"items": items}).json()["results"]
    assert [(r["id"], r["domain"], r["status"], r["reward"]) for r in results] == [
        ("m0", "math", "passed", 1.0),
        ("c", "code", "error", None),
        ("l", "lean", "error", None),
        ("m3", "math", "failed", 0.0),
    ]
    assert "tests" in results[1] and "axioms" in results[2]  # each domain's own fields


def test_openrlhf_scores_a_verifier_error_zero_and_flags_it(verifier_url: str) -> None:
    label = json.dumps({"domain": "lean", "statement": "theorem t : True"})
    body = {"query": ["Q ```lean\ntrivial\n```"], "prompts": ["Q"], "labels": [label]}
    out = httpx.post(f"{verifier_url}/openrlhf", json=body).json()
    assert out["rewards"] == [0.0]
    assert out["extra_logs"]["verifier_error"] == [1.0]


def test_openrlhf_accepts_numeric_and_object_labels(verifier_url: str) -> None:
    # A dataset's label column may hold numbers or objects rather than strings.
    body = {
        "query": ["Q \\boxed{12}", "Q \\boxed{0.5}"],
        "prompts": ["Q", "Q"],
        "labels": [12, {"domain": "math", "answer": "\\frac{1}{2}"}],
    }
    out = httpx.post(f"{verifier_url}/openrlhf", json=body).json()
    assert out["rewards"] == [1.0, 1.0]


def test_openrlhf_never_judges_a_query_that_does_not_start_with_its_prompt(
    verifier_url: str,
) -> None:
    # The prompt's worked example would pass; the response refuses. Not found verbatim (a
    # mangled prompt), the sample is an error: reward 0, flagged, never graded with the prompt.
    prompt = "Example: \\boxed{4}. Now: 2+2? A:"
    body = {
        "query": ["Example: \\boxed{4}. Later: 2+2? A: I refuse.", prompt + " \\boxed{4}"],
        "prompts": [prompt, prompt],
        "labels": ["4", "4"],
    }
    out = httpx.post(f"{verifier_url}/openrlhf", json=body).json()
    assert out["rewards"] == [0.0, 1.0]
    assert out["extra_logs"]["verifier_prompt_mismatch"] == [1.0, 0.0]
    assert out["extra_logs"]["verifier_error"] == [1.0, 0.0]


def test_openrlhf_tolerates_whitespace_and_template_tokens(verifier_url: str) -> None:
    prompt = "<|im_start|>user\nWhat is  3+4?<|im_end|>\n<|im_start|>assistant\n"
    query = "<|im_start|>user\nWhat is 3+4?<|im_end|>\n<|im_start|>assistant\n\\boxed{7}<|im_end|>"
    body = {"query": [query], "prompts": [prompt], "labels": ["7"]}
    out = httpx.post(f"{verifier_url}/openrlhf", json=body).json()
    assert out["rewards"] == [1.0]
    assert out["extra_logs"]["verifier_prompt_mismatch"] == [0.0]
