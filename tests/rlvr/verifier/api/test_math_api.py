"""`POST /math` on a live uvicorn server: verdicts, details, deadlines, bad input, health."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.support.http import post_items
from tests.support.math_tables.adversarial_cases import ADVERSARIAL
from tests.support.math_tables.cases import CASES
from tests.support.math_tables.natural_cases import NATURAL

HUGE = "\\boxed{10^{10^{10}}}"


def test_a_batch_of_labelled_cases_gets_the_labelled_verdicts(verifier_url: str) -> None:
    sample = CASES[::7]  # every category, positives and negatives
    items = [
        {"id": str(i), "response": c.response, "answer": c.answer} for i, c in enumerate(sample)
    ]
    reply = post_items(verifier_url, "/math", items)
    assert reply.status_code == 200
    results = reply.json()["results"]
    assert [r["id"] for r in results] == [str(i) for i in range(len(sample))]
    for case, result in zip(sample, results, strict=True):
        expected = "passed" if case.is_correct else "failed"
        assert result["status"] == expected, (case, result)
        assert result["reward"] == (1.0 if case.is_correct else 0.0)
        assert result["detail"]


def test_result_echoes_extraction_and_parses(verifier_url: str) -> None:
    reply = post_items(
        verifier_url, "/math", [{"response": "so $\\boxed{\\dfrac{1}{2}}$", "answer": "0.5"}]
    )
    result = reply.json()["results"][0]
    assert result["status"] == "passed"
    assert result["extracted"] == "\\dfrac{1}{2}"
    assert result["parsed_answer"] == "1/2" and result["parsed_response"] == "1/2"


def test_near_miss_is_wrong_and_says_what_was_parsed(verifier_url: str) -> None:
    reply = post_items(
        verifier_url,
        "/math",
        [{"response": "\\boxed{\\frac{1}{2^{99}}}", "answer": "\\frac{1}{2^{98}}"}],
    )
    result = reply.json()["results"][0]
    assert result["status"] == "failed" and result["reward"] == 0.0
    assert str(2**99) in result["detail"] and str(2**98) in result["detail"]


@pytest.mark.parametrize(
    ("response", "words"),
    [
        ("\\boxed{2} or \\boxed{3}", "several different final answers"),
        ("I have no idea, sorry", "no final answer found"),
    ],
)
def test_unusable_response_fails_with_the_reason(
    verifier_url: str, response: str, words: str
) -> None:
    result = post_items(verifier_url, "/math", [{"response": response, "answer": "2"}]).json()[
        "results"
    ][0]
    assert result["status"] == "failed" and result["reward"] == 0.0
    assert words in result["detail"]


def test_pathological_items_time_out_alone_within_twice_their_deadline(verifier_url: str) -> None:
    items: list[dict[str, object]] = [
        {"id": "huge", "response": HUGE, "answer": "10^{10^{10}}+1", "timeout_s": 1.0},
        {
            "id": "nested",
            "response": "\\boxed{" + "{" * 5000 + "1" + "}" * 5000 + "}",
            "answer": "1",
        },
        {"id": "long", "response": "word " * 20_000 + "\\boxed{42}", "answer": "42"},
        {"id": "easy", "response": "\\boxed{(1+x)^2}", "answer": "(x+1)^2"},
        {"id": "plain", "response": "The answer is 7", "answer": "7"},
    ]
    started = time.perf_counter()
    reply = post_items(verifier_url, "/math", items)
    elapsed = time.perf_counter() - started
    by_id = {r["id"]: r for r in reply.json()["results"]}
    assert by_id["huge"]["status"] == "timed_out"
    assert by_id["huge"]["reward"] == 0.0
    assert by_id["huge"]["detail"] == "timed out after 1 s"
    assert by_id["nested"]["status"] == "passed"
    assert by_id["long"]["status"] == "passed"
    assert by_id["easy"]["status"] == "passed"
    assert by_id["plain"]["status"] == "passed"
    assert elapsed < 2 * 1.0 + 1.0


def test_health_reports_the_math_pool(verifier_url: str) -> None:
    post_items(verifier_url, "/math", [{"response": "\\boxed{\\sqrt{8}}", "answer": "2\\sqrt{2}"}])
    math = httpx.get(f"{verifier_url}/health").json()["domains"]["math"]
    assert math["ok"] is True
    stats = math["stats"]
    assert stats["workers"] >= 1 and stats["active"] is True
    assert stats["submitted"] >= 1 and "cache_hits" in stats and "timeouts" in stats


def test_metrics_count_math_verdicts(verifier_url: str) -> None:
    post_items(verifier_url, "/math", [{"response": "\\boxed{1}", "answer": "2"}])
    text = httpx.get(f"{verifier_url}/metrics").text
    assert 'rlvr_items_total{endpoint="math",status="failed"}' in text


@pytest.mark.parametrize(
    "item",
    [
        {"response": "1", "answer": "1", "timeout_s": -1},
        {"response": "1", "answer": "1", "timeout_s": 0},
        {"response": 5, "answer": "1"},
        {"response": "1", "answer": None},
        {"answer": "1"},
    ],
    ids=["negative-timeout", "zero-timeout", "number-response", "null-answer", "no-response"],
)
def test_bad_items_are_422_not_500(verifier_url: str, item: dict[str, object]) -> None:
    reply = post_items(verifier_url, "/math", [item])
    assert reply.status_code == 422
    assert reply.json()["error"]["code"] == "validation_error"
    assert "Traceback" not in reply.text


def test_odd_but_valid_text_is_a_verdict_not_an_error(verifier_url: str) -> None:
    items = [
        {"response": "\\boxed{}", "answer": "1"},
        {"response": "\\boxed{\\frac{1}{0}}", "answer": "1"},
        {"response": "\x00\ud7ff\\boxed{1}", "answer": "1"},
        {"response": "\\boxed{1}", "answer": ""},
        {"response": "}}}{{{\\boxed{", "answer": "1"},
    ]
    results = post_items(verifier_url, "/math", items).json()["results"]
    assert [r["status"] for r in results] == ["failed", "failed", "passed", "failed", "failed"]


# issue 12, end to end through the live service: each attack fails, each right answer passes,
# and an answer SymPy cannot even evaluate is `failed`, never the verifier's `error`
_U = "\\boxed{\\frac{1}{|x| - \\sqrt{x^2}}}"
ISSUE_12_ITEMS: list[tuple[str, str, str]] = [
    (_U, "5", "failed"),
    (_U, "\\{1, 2\\}", "failed"),
    (_U, "y=2x+3", "failed"),
    (_U, "\\begin{pmatrix}1 & 2\\end{pmatrix}", "failed"),
    ("\\boxed{\\frac{x^2-1}{(x-1)(x+1)-x^2+1}}", "\\pi", "failed"),
    ("\\boxed{(17)(23)}", "391", "failed"),
    ("\\boxed{17 × 23}", "391", "failed"),
    ("\\boxed{\\int_0^1 x^2\\,dx}", "\\frac13", "failed"),
    ("\\boxed{\\sum_{k=1}^{10} k}", "55", "failed"),
    ("\\boxed{7 \\bmod 3}", "3", "failed"),
    ("\\boxed{3 \\approx 4}", "3", "failed"),
    ("\\boxed{4 = 3}", "3", "failed"),
    ("Final answer: $3$ or $4$", "3", "failed"),
    ("\\boxed{\\{1,\\{2\\}\\}}", "\\{1,2\\}", "failed"),
    ("First, 3 \\cdot 4 = 12, and then we need to", "12", "failed"),
    ("\\boxed{3.1416}", "\\pi", "failed"),
    ("\\boxed{1.732}", "\\sqrt3", "failed"),
    ("\\boxed{0.1428571429}", "\\frac17", "failed"),  # an exact ground truth is matched exactly
    (
        "Initially I got \\boxed{8}, but that double counts; the correct count is \\boxed{6}.",
        "6",
        "passed",
    ),
    ("<think>maybe \\boxed{8}</think> The answer is \\boxed{6}.", "6", "passed"),
    ("It is \\boxed{6} or \\boxed{8}.", "6", "failed"),
    ("\\boxed{0.\\overline{3}}", "\\frac13", "passed"),
    ("\\boxed{x = -2 \\text{ or } x = 3}", "\\{-2, 3\\}", "passed"),
    ("\\boxed{\\mathbb{R} \\setminus \\{2\\}}", "(-\\infty, 2) \\cup (2, \\infty)", "passed"),
    ("\\boxed{\\sum_{n=1}^{\\infty} n}", "3", "failed"),
    ("\\boxed{\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}^{-1}}", "3", "failed"),
    (
        "\\boxed{\\begin{pmatrix}1&2\\\\2&4\\end{pmatrix}^{-1}}",
        "\\begin{pmatrix}1&0\\\\0&1\\end{pmatrix}",
        "failed",
    ),
]


def test_issue_12_attacks_fail_and_right_answers_pass_over_http(verifier_url: str) -> None:
    items = [
        {"id": str(i), "response": response, "answer": answer}
        for i, (response, answer, _) in enumerate(ISSUE_12_ITEMS)
    ]
    results = post_items(verifier_url, "/math", items).json()["results"]
    for (response, answer, expected), result in zip(ISSUE_12_ITEMS, results, strict=True):
        assert result["status"] == expected, (response, answer, result)
        assert result["reward"] == (1.0 if expected == "passed" else 0.0)
        assert result["detail"]


def test_issue_27_probes_fail_and_natural_answers_pass_over_the_wire(verifier_url: str) -> None:
    probes = ADVERSARIAL[::3]
    natural = NATURAL[::4]
    items = [{"id": f"p{i}", "response": r, "answer": a} for i, (_, r, a) in enumerate(probes)]
    items += [{"id": f"n{i}", "response": r, "answer": a} for i, (_, r, a) in enumerate(natural)]
    results = {r["id"]: r for r in post_items(verifier_url, "/math", items).json()["results"]}
    for i, (family, _, _) in enumerate(probes):
        assert results[f"p{i}"]["status"] == "failed", (family, results[f"p{i}"])
        assert results[f"p{i}"]["reward"] == 0.0
    for i, (kind, _, _) in enumerate(natural):
        assert results[f"n{i}"]["status"] == "passed", (kind, results[f"n{i}"])


def test_the_500_tilde_box_is_judged_at_once_and_health_stays_prompt(verifier_url: str) -> None:
    tildes = "\\boxed{1" + "~" * 2000 + "2}"  # 500 tildes stalled every domain for 15.7 s
    started = time.perf_counter()
    result = post_items(verifier_url, "/math", [{"response": tildes, "answer": "12"}]).json()[
        "results"
    ][0]
    assert time.perf_counter() - started < 2.0
    assert result["status"] == "failed"  # `1 ... 2` is two numbers, not 12
    health = httpx.get(f"{verifier_url}/health", timeout=5)
    assert health.status_code == 200 and health.json()["domains"]["math"]["ok"] is True


def test_an_item_with_its_problem_refuses_a_restatement(verifier_url: str) -> None:
    problem = "Simplify $\\frac{6x}{3}$."
    items = [
        {
            "id": "restated",
            "response": "\\boxed{\\frac{6x}{3}}",
            "answer": "2x",
            "problem": problem,
        },
        {"id": "solved", "response": "\\boxed{2x}", "answer": "2x", "problem": problem},
    ]
    results = {r["id"]: r for r in post_items(verifier_url, "/math", items).json()["results"]}
    assert results["restated"]["status"] == "failed"
    assert "restates" in results["restated"]["detail"]
    assert results["solved"]["status"] == "passed"
