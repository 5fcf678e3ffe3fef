"""Restating the question (`17 \\times 23` for 391) earns nothing; real answers are unaffected.

The rule is decided on the parsed tree (domains/math/unevaluated.py), so every spelling of the
same computation is refused, and canonical values (fractions, surds, `a + bi`) are not.
"""

from __future__ import annotations

import pytest
import sympy

from rlvr.verifier.domains.math.parsing import to_sympy
from rlvr.verifier.domains.math.unevaluated import (
    LIKE_TERMS,
    NO_EFFECT,
    NUMBERS_MULTIPLIED,
    SAME_BASE,
    SUMS_MULTIPLIED,
    forms,
)
from tests.support.math_judge import judge_in_process


@pytest.mark.parametrize(
    ("response", "answer"),
    [
        ("\\boxed{2+2}", "4"),
        ("The answer is 17 \\times 23.", "391"),
        ("\\boxed{(17)(23)}", "391"),
        ("\\boxed{17(23)}", "391"),
        ("\\boxed{17 \\times 23 / 1}", "391"),
        ("\\boxed{\\frac{17\\times23}{1}}", "391"),
        ("\\boxed{17 \\div 1 \\times 23}", "391"),
        ("\\boxed{17 \\times 23^{1}}", "391"),
        ("\\boxed{17 × 23}", "391"),
        ("\\boxed{17·23}", "391"),
        ("\\boxed{{17} \\times {23}}", "391"),
        ("\\boxed{400 - 9}", "391"),
        ("\\boxed{391 + 0}", "391"),
        ("\\boxed{\\frac{782}{2} \\cdot 1}", "391"),
        ("\\boxed{\\sqrt{391^2}}", "391"),
        ("\\boxed{2^{10}}", "1024"),
        ("\\boxed{4!}", "24"),
        ("\\boxed{\\binom{5}{2}}", "10"),
        ("\\boxed{|-7|}", "7"),
        ("\\boxed{\\frac{391x}{x}}", "391"),
        ("\\boxed{x = 17 \\cdot 23}", "391"),
        ("\\boxed{\\{17 \\cdot 23, 2\\}}", "\\{391, 2\\}"),
        ("\\boxed{(1+1, 3)}", "(2, 3)"),
        ("\\boxed{\\int_0^1 x^2\\,dx}", "\\frac13"),
        ("\\boxed{\\int_{0}^{1} 3t^{2} dt}", "1"),
        ("\\boxed{\\sum_{k=1}^{10} k}", "55"),
        ("\\boxed{\\prod_{k=1}^{4} k}", "24"),
        ("\\boxed{\\lim_{x \\to 0} \\frac{\\sin x}{x}}", "1"),
        ("\\boxed{\\frac{d}{dx} x^2}", "2x"),
        ("\\boxed{\\int x^2 dx}", "\\frac{x^3}{3}"),
        ("\\boxed{\\frac{1}{2}+\\frac{1}{2}}", "1"),
        ("Final Answer: 0.5 + 0.25", "0.75"),
        ("\\boxed{e^{i\\pi}}", "-1"),
        ("\\boxed{\\frac{8}{2}}", "4"),  # a quotient left to do
        (
            "\\boxed{\\frac{6}{8}}",
            "\\frac{3}{4}",
        ),
        ("\\boxed{4\\arctan 1}", "\\pi"),
    ],
)
def test_restated_computation_fails(response: str, answer: str) -> None:
    is_equal, detail = judge_in_process(response, answer)
    assert is_equal is False, detail


@pytest.mark.parametrize(
    ("response", "answer"),
    [
        ("\\boxed{1.5 \\times 10^{3}}", "1500"),
        ("\\boxed{-\\frac{3}{4}}", "-0.75"),
        ("\\boxed{\\frac{3}{-2}}", "-1.5"),
        ("\\boxed{-5}", "-5"),
        ("\\boxed{7,425,000}", "7425000"),
        ("\\boxed{2+3}", "2+3"),  # the ground truth is itself an expression
        ("\\boxed{x+1}", "1+x"),
        ("\\boxed{2\\sqrt{3}}", "\\sqrt{12}"),
        ("\\boxed{\\frac{\\sqrt{2}}{2}}", "\\frac{1}{\\sqrt{2}}"),
        ("\\boxed{3+4i}", "4i+3"),
        ("\\boxed{\\frac{\\pi}{3}}", "\\frac{\\pi}{3}"),
        ("\\boxed{2^{-99}}", "\\frac{1}{2^{99}}"),
        ("\\boxed{x = 5}", "5"),
        ("\\boxed{1 - \\sqrt{2}}", "-\\sqrt{2} + 1"),
        ("\\boxed{10^{-\\frac{5 + \\sqrt{13}}{6}}}", "10^{\\frac{-5-\\sqrt{13}}{6}}"),
    ],
)
def test_values_and_expression_answers_are_not_refused(response: str, answer: str) -> None:
    is_equal, detail = judge_in_process(response, answer)
    assert is_equal is True, detail


@pytest.mark.parametrize(
    ("latex", "expected"),
    [
        ("17 \\times 23", {"arithmetic", NUMBERS_MULTIPLIED}),
        ("\\frac{3}{4}", set()),
        ("-\\frac{3}{4}", set()),
        ("1.5 \\times 10^{3}", set()),
        ("2\\sqrt{3}", {"root"}),
        ("2^{10}", {"power"}),
        ("3 + 4i", {"i"}),
        ("\\int_0^1 x\\,dx", {"unevaluated integral"}),
        # operations a sum or product leaves to do, nested groupings flattened first
        ("2 \\cdot 2^{99}", {"power", SAME_BASE}),
        ("4 \\cdot 2^{98}", {"power", SAME_BASE}),
        ("2\\pi \\cdot 3", {"pi", NUMBERS_MULTIPLIED}),
        ("(1+2i)+(3-i)", {"i", LIKE_TERMS}),
        ("2(x+1) - 2", {LIKE_TERMS}),
        ("(3+2i)(1-i)", {"i", SUMS_MULTIPLIED}),
        ("\\frac{1}{i}", {"i", "i in a denominator"}),
        ("x + 0", {NO_EFFECT}),
        # and the forms that do none of them
        ("\\frac{\\sqrt{2}}{2}", {"root"}),
        ("\\frac{3\\pi}{2}", {"pi"}),
        ("\\frac{x}{7} + \\frac{2}{7}", set()),
        ("2^{100}", {"power"}),
        ("x \\sqrt{x}", {"root"}),
    ],
)
def test_forms_of_a_tree(latex: str, expected: set[str]) -> None:
    with sympy.evaluate(False):
        tree = to_sympy(latex)
    assert forms(tree) == expected
