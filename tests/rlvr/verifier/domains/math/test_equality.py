"""Random-point identity testing (`equality.py`): a sum's bound is sampled as a count."""

from __future__ import annotations

import random

import pytest
import sympy

from rlvr.verifier.domains.math.equality import counting_symbols, random_point
from rlvr.verifier.domains.math.parsing import to_sympy
from tests.support.math_judge import judge_in_process


def test_the_bounds_of_sums_and_products_are_counting_symbols() -> None:
    expr = to_sympy("\\sum_{k=0}^{n-1} a_k x^k + \\prod_{j=m}^{2m} j + y")
    names = {str(s) for s in counting_symbols(expr)}
    assert names == {"n", "m"}  # not the bound variables, not the other unknowns


def test_a_counting_symbol_is_sampled_as_a_positive_integer_of_every_magnitude() -> None:
    n, x = sympy.symbols("n x")
    rng = random.Random(7)
    counts = [random_point(rng, [n, x], i, frozenset({n}))[n] for i in range(60)]
    assert all(c.is_Integer and 1 <= c <= 20_000 for c in counts)
    assert min(counts) <= 40 and max(counts) > 1_000
    # while a sum has no closed form, it is added term by term: small counts only
    small = [random_point(rng, [n, x], i, frozenset({n}), (40,))[n] for i in range(30)]
    assert all(1 <= c <= 40 for c in small)
    assert random_point(rng, [n, x], 0, frozenset({n}))[x].is_Rational


_SUM_K = "\\sum_{k=1}^{n} k"
_CATALAN = "$F_n = \\sum_{k=0}^{n-1} F_k F_{n-k-1}$"


@pytest.mark.parametrize(
    ("response", "answer", "expected"),
    [
        ("\\boxed{\\frac{n(n+1)}{2}}", "\\sum_{k=1}^{n} k", True),
        ("\\boxed{\\frac{n^2}{2}}", "\\sum_{k=1}^{n} k", False),
        # a term that appears only past some count shows at the larger counts
        (
            "\\boxed{\\frac{n(n+1)}{2} + \\left\\lfloor \\frac{n}{41} \\right\\rfloor}",
            _SUM_K,
            False,
        ),
        (
            "\\boxed{\\frac{n(n+1)}{2} + \\left\\lfloor \\frac{n}{1000} \\right\\rfloor}",
            _SUM_K,
            False,
        ),
        ("\\boxed{2^n}", "\\sum_{k=0}^{n} \\binom{n}{k}", True),
        ("\\boxed{2^n + 1}", "\\sum_{k=0}^{n} \\binom{n}{k}", False),
        # Math-Verify's case: at fractional n, SymPy's Euler-Maclaurin ran past the deadline
        (
            "$F_n = \\sum_{k=0}^{n-2} F_k F_{n-k-2}$",
            "$F_n = \\sum_{k=0}^{n-1} F_k F_{n-k-1}$",
            False,
        ),
        (
            "$F_n = \\sum_{k=0}^{n-1} F_{n-k-1} F_k$",
            "$F_n = \\sum_{k=0}^{n-1} F_k F_{n-k-1}$",
            True,
        ),
    ],
)
def test_sums_with_an_unknown_bound_are_decided(response: str, answer: str, expected: bool) -> None:
    is_equal, detail = judge_in_process(response, answer)
    assert is_equal is expected, detail
