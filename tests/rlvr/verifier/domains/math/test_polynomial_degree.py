"""`polynomial_degree`: exact degrees read off the tree, so unequal degrees need no expansion."""

from __future__ import annotations

import time

import pytest
import sympy

from rlvr.verifier.domains.math.equality import polynomial_degree
from tests.support.math_judge import judge_in_process

x, y = sympy.symbols("x y")


@pytest.mark.parametrize(
    ("expr", "degree"),
    [
        (x, 1),
        (sympy.Integer(7), 0),
        (sympy.pi * x**2, 2),
        ((x + 1) ** 10000, 10000),
        (sympy.Pow(x, 10**100 + 3), 10**100 + 3),
        (x * y + 1, 2),
        ((x + 1) ** 3 * (y - 1), 4),
        (x + y, None),  # two terms of the top degree: not read (they could be like terms)
        (x**2 + sympy.I * x, 2),
    ],
)
def test_exact_degree_of_a_polynomial_as_built(expr: sympy.Expr, degree: int | None) -> None:
    assert polynomial_degree(expr) == degree


@pytest.mark.parametrize(
    "expr",
    [
        (x + 1) ** 5 - x**5,  # two terms of the top degree may cancel
        sympy.sqrt(x),
        1 / x,
        sympy.sin(x),
        sympy.sqrt(2) * x,  # an irrational coefficient is not read (None: expansion decides)
        sympy.Integer(0),
    ],
)
def test_no_degree_when_it_is_not_certain(expr: sympy.Expr) -> None:
    assert polynomial_degree(expr) is None


@pytest.mark.parametrize(
    ("response", "answer"),
    [
        ("\\boxed{(x+1)^{10007}}", "x"),
        ("\\boxed{x^{123456789123}}", "x"),
        ("\\boxed{(x+2)^{5000}(x-1)}", "x^2"),
    ],
)
def test_a_power_of_another_degree_is_refused_at_once(response: str, answer: str) -> None:
    """Issue 27: these ran to their 2 s deadline in a worker (SymPy expanding them), holding
    the workers other requests waited for."""
    started = time.perf_counter()
    is_equal, detail = judge_in_process(response, answer)
    assert is_equal is False, detail
    assert time.perf_counter() - started < 0.5
