"""Restating the question (`17 \\times 23` for 391) earns nothing; real answers are unaffected."""

from __future__ import annotations

import pytest

from services.verifier.domains.math.judge import judge
from services.verifier.domains.math.unevaluated import is_unevaluated_arithmetic
from services.verifier.domains.math.verdict import Conventions


@pytest.mark.parametrize(
    ("response", "answer"),
    [
        ("2+2", "4"),
        ("The answer is 17 \\times 23.", "391"),
        ("\\boxed{5-1}", "4"),
        ("\\boxed{3 \\cdot 4}", "12"),
        ("\\boxed{(2+2)}", "4"),
        ("\\boxed{\\frac{1}{2}+\\frac{1}{2}}", "1"),
        ("Final Answer: 0.5 + 0.25", "0.75"),
    ],
)
def test_unevaluated_arithmetic_for_a_numeric_answer_fails(response: str, answer: str) -> None:
    judged = judge(response, answer, Conventions(), "last_number")
    assert judged.verdict is not None and judged.verdict.is_equal is False
    assert "unevaluated arithmetic" in judged.verdict.detail


@pytest.mark.parametrize(
    ("response", "answer"),
    [
        ("\\boxed{1.5 \\times 10^{3}}", "1500"),
        ("\\boxed{\\frac{8}{2}}", "4"),
        ("\\boxed{-5}", "-5"),
        ("\\boxed{7,425,000}", "7425000"),
        ("\\boxed{2+3}", "2+3"),  # the ground truth is itself an expression
        ("\\boxed{x+1}", "1+x"),
    ],
)
def test_values_and_expression_answers_are_not_refused(response: str, answer: str) -> None:
    judged = judge(response, answer, Conventions(), "last_number")
    detail = judged.verdict.detail if judged.verdict else ""
    assert "unevaluated" not in detail
    assert judged.slow is not None or (judged.verdict is not None and judged.verdict.is_equal)


@pytest.mark.parametrize(
    ("key", "expected"),
    [("2+2", True), ("-3-4", True), ("2\\times10^{5}", False), ("x+1", False), ("12", False)],
)
def test_is_unevaluated_arithmetic(key: str, expected: bool) -> None:
    assert is_unevaluated_arithmetic(key) is expected
