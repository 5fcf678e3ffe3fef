"""Plain numbers as exact fractions and the documented rounding rule."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rlvr.verifier.domains.math.normalize import normalize
from rlvr.verifier.domains.math.numbers import numbers_equal, parse_number
from tests.support.math_judge import judge_in_process


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("7,425,000", Fraction(7425000)),
        ("-\\frac{3}{4}", Fraction(-3, 4)),
        ("\\frac{-3}{4}", Fraction(-3, 4)),
        ("\\frac34", Fraction(3, 4)),
        ("3\\frac{1}{2}", Fraction(7, 2)),
        (".5", Fraction(1, 2)),
        ("1.5\\times10^{3}", Fraction(1500)),
        ("2e-3", Fraction(2, 1000)),
        ("10^{6}", Fraction(10**6)),
        ("1\\,000", Fraction(1000)),
        ("14{,}916", Fraction(14916)),
        ("\\$18.90", Fraction(189, 10)),
        ("90^\\circ", Fraction(90)),
    ],
)
def test_parses_plain_numbers_exactly(text: str, value: Fraction) -> None:
    number = parse_number(normalize(text).key)
    assert number is not None and number.value == value


@pytest.mark.parametrize("text", ["x", "\\sqrt{2}", "10^{10^{10}}", "1,2", "(1,2)", "1/0"])
def test_non_numbers_are_left_to_sympy(text: str) -> None:
    assert parse_number(normalize(text).key) is None


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("0.333", "1/3", True),
        ("0.33", "1/3", False),  # two significant digits: below min_rounded_digits
        ("0.334", "1/3", False),
        ("0.5", "1/2", True),
        ("0.50", "0.5", True),
        ("0.333", "0.3333", False),  # two decimals compare exactly
        ("-0.667", "-2/3", True),
    ],
)
def test_rounding_rule(a: str, b: str, expected: bool) -> None:
    x, y = parse_number(normalize(a).key), parse_number(normalize(b).key)
    assert x is not None and y is not None
    assert numbers_equal(x, y, min_rounded_digits=3) is expected


def test_huge_exponents_are_not_expanded_in_process() -> None:
    assert parse_number("1e999999") is None


@pytest.mark.parametrize(
    ("response", "answer", "expected"),
    [
        # TeX reads a one-character script whole: `\log_2 3` is `\log_{2} 3`, not `2 3`
        ("\\boxed{\\log_2 3}", "\\log_{2} 3", True),
        ("\\boxed{\\log_2 3}", "\\frac{\\ln 3}{\\ln 2}", True),
        ("\\boxed{\\log_{2} 3}", "\\log_2 3", True),
        ("\\boxed{\\log_2 3}", "\\log_3 2", False),
        # two numbers with a space between them are still two numbers
        ("\\boxed{3 5}", "35", False),
        ("\\boxed{\\log_2 3 5}", "\\log_2 35", False),
        # nor is a bare one-digit subscript the base of a numeral: `x_1 2` is `x_1` then 2
        ("\\boxed{x_1 2}", "x_{12}", False),
        ("\\boxed{a_1 0}", "a_{10}", False),
        ("\\boxed{x^2 3}", "x^{23}", False),
        ("\\boxed{10^3 5}", "10^{35}", False),
        ("\\boxed{204_5}", "204_{5}", True),
        ("\\boxed{1011_{2}}", "1011_2", True),
    ],
)
def test_a_one_character_script_is_not_a_number_beside_the_next(
    response: str, answer: str, expected: bool
) -> None:
    is_equal, detail = judge_in_process(response, answer)
    assert is_equal is expected, detail
