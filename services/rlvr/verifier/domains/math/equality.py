"""Equality of exact SymPy values that a policy cannot game: exact differences, random points.

Exact values compare by their difference at 80 digits (SymPy raises its working precision to
resolve cancellation), so `\\pi + 10^{-45}` is not `\\pi`; a difference SymPy cannot tell from
zero counts as zero. Expressions with unknowns that no expansion proves equal are compared at
exact rational points drawn from a per-process random source, at magnitudes from 1/131 to 10^7
and both signs, so a candidate cannot learn the points and build an expression that vanishes
there. Runs inside a killable worker.
"""

from __future__ import annotations

import os
import random
from functools import lru_cache
from typing import Any

import sympy

PRECISION_DIGITS = 80

# an identity test needs this many points where both sides have a finite value; an expression
# undefined wherever it is evaluated (`1/(|x| - sqrt(x^2))`) equals nothing
_MIN_DEFINED_POINTS = 6
_MAX_POINT_TRIES = 18


# the sampling points come from a per-process random source (a candidate cannot learn them and
# build `\\prod (x - p_i)` that vanishes there), at magnitudes from 1/31 to 10^7 and both signs
# (`\\min(x, 100)`, `x + \\lfloor x^2/200 \\rfloor` differ from `x` only far from 0)
_POINTS = random.Random(int.from_bytes(os.urandom(8), "big"))
_SCALES = (1, -1, 1000, -1000, 10**7, -(10**7))


# evalf returns a Float with fewer bits of precision than this when it could not tell a
# difference from zero (`log(8) - 3 log(2)` -> `0.e-250`): no difference SymPy can resolve
_RESOLVED_BITS = 128  # 80 digits are 266 bits; a resolved difference keeps most of them


def close(a: Any, b: Any, rel_tol: float) -> bool:
    """|a - b| <= rel_tol * max(|a|, |b|), evaluated at 80 digits; False if not evaluable."""
    try:
        difference = abs(sympy.N(a - b, PRECISION_DIGITS))
        scale = max(abs(sympy.N(a, PRECISION_DIGITS)), abs(sympy.N(b, PRECISION_DIGITS)))
        if not (difference.is_Number and scale.is_Number):
            return False
        if scale == 0:
            return bool(difference == 0)
        return bool(difference <= rel_tol * scale)
    except (TypeError, ValueError, ArithmeticError):
        return False


def agree_at_random_points(
    gold: sympy.Expr, pred: sympy.Expr, symbols: list[Any], rel_tol: float, seed: int = 0
) -> bool:
    """Equal at `_MIN_DEFINED_POINTS` exact random points where both sides are finite.

    A point where either side is undefined or infinite proves nothing and is skipped; running
    out of tries before enough points were defined means "not equal": an expression that is
    undefined wherever it is evaluated (`1/(|x| - sqrt(x^2))`) must never equal everything.
    """
    counting = counting_symbols(gold, pred)
    gold, pred = closed_forms(gold), closed_forms(pred)
    if _has_variable_exponent(gold, pred) and not agree_at_special_points(
        gold, pred, symbols, rel_tol, counting
    ):
        return False
    rng = _POINTS
    defined = 0
    counts = count_scales(gold, pred)
    for index in range(_MAX_POINT_TRIES):
        point = random_point(rng, symbols, index + seed, counting, counts)
        try:
            exact_a, exact_b = gold.xreplace(point), pred.xreplace(point)
            a = exact_a.evalf(PRECISION_DIGITS)
            b = exact_b.evalf(PRECISION_DIGITS)
        except (TypeError, ValueError, ZeroDivisionError):
            return False
        if not (finite(a) and finite(b)):
            if not (a.is_number and b.is_number):
                return False  # something that is not a number even at a point
            continue
        if differ(exact_a, exact_b, rel_tol):
            return False
        defined += 1
        if defined >= _MIN_DEFINED_POINTS:
            return True
    return False


# the points where a power, a quotient or a sign changes how it behaves (`0^{x^2}` is 1 at 0 and
# 0 elsewhere): random points almost never land on them, so each is checked as well
_SPECIAL_VALUES = (0, 1, -1)


def _has_variable_exponent(*exprs: sympy.Expr) -> bool:
    """Whether a power has an exponent with unknowns (`0^{x^2}`, `a^{1/x}`): only such a power
    changes its value at isolated points (0, 1, -1) that random points miss; a polynomial or a
    rational function does not, and is not evaluated there (it costs three more evaluations)."""
    return any(
        isinstance(node, sympy.Pow) and bool(node.exp.free_symbols)
        for expr in exprs
        for node in sympy.preorder_traversal(expr)
    )


def agree_at_special_points(
    gold: sympy.Expr,
    pred: sympy.Expr,
    symbols: list[Any],
    rel_tol: float,
    counting: frozenset[Any] = frozenset(),
) -> bool:
    """False when, with every unknown at 0, 1 or -1, both sides have a finite value and differ
    (a point where either is undefined proves nothing). A count (`counting_symbols`) is 1 there:
    it is never 0 or negative where its sum means something."""
    for special in _SPECIAL_VALUES:
        point = {symbol: sympy.Integer(1 if symbol in counting else special) for symbol in symbols}
        try:
            exact_a, exact_b = gold.xreplace(point), pred.xreplace(point)
            a, b = exact_a.evalf(PRECISION_DIGITS), exact_b.evalf(PRECISION_DIGITS)
        except (TypeError, ValueError, ZeroDivisionError, ArithmeticError):
            continue
        if finite(a) and finite(b) and differ(exact_a, exact_b, rel_tol):
            return False
    return True


# A sum's or a product's bound counts terms: sampled as a positive integer whose magnitude
# cycles through these, so a term that appears only past some count (`\\lfloor n/41 \\rfloor`)
# shows at the larger ones; up to the first only while a sum has no closed form (SymPy then adds
# its terms one by one).
_COUNT_SCALES = (40, 1_000, 20_000)


@lru_cache(maxsize=256)
def closed_forms(expr: sympy.Expr) -> sympy.Expr:
    """`expr` with its sums and products in closed form where SymPy finds one
    (`\\sum_{k=1}^{n} k` -> `n^2/2 + n/2`): cheap at a large count, where the sum itself is
    evaluated term by term (or, at a fractional bound, by an Euler-Maclaurin expansion that runs
    for seconds, for a value the expression never means)."""
    if not expr.has(sympy.Sum, sympy.Product):
        return expr
    return expr.replace(
        lambda node: isinstance(node, (sympy.Sum, sympy.Product)),
        lambda node: node.doit(deep=False),
    )


def count_scales(*exprs: sympy.Expr) -> tuple[int, ...]:
    """The magnitudes a count is sampled at in `exprs` (closed forms already taken)."""
    if any(expr.has(sympy.Sum, sympy.Product) for expr in exprs):
        return _COUNT_SCALES[:1]
    return _COUNT_SCALES


def counting_symbols(*exprs: sympy.Expr) -> frozenset[Any]:
    """The unknowns in the bounds of a sum or a product (`n` in `\\sum_{k=0}^{n-1}`): they count
    terms, so they are sampled as positive integers (`random_point`)."""
    found: set[Any] = set()
    for expr in exprs:
        for node in sympy.preorder_traversal(expr):
            if isinstance(node, (sympy.Sum, sympy.Product)):
                for limit in node.limits:
                    for bound in limit[1:]:
                        found |= bound.free_symbols
    return frozenset(found)


def random_point(
    rng: random.Random,
    symbols: list[Any],
    index: int = 0,
    counting: frozenset[Any] = frozenset(),
    counts: tuple[int, ...] = _COUNT_SCALES,
) -> dict[Any, Any]:
    """Exact rational points; the `index`-th point's magnitude cycles through `_SCALES` (each
    symbol with its own random sign after the first), so every run sees small and large, positive
    and negative values. A `counting` symbol (a sum's bound) is a positive integer instead, up to
    a magnitude that cycles through `counts`."""
    point = {}
    for position, symbol in enumerate(symbols):
        if symbol in counting:
            top = counts[(index + position) % len(counts)]
            point[symbol] = sympy.Integer(rng.randint(1, top))
            continue
        scale = _SCALES[(index + position) % len(_SCALES)]
        if position and rng.random() < 0.5:
            scale = -scale
        point[symbol] = scale * sympy.Rational(rng.randint(1, 997), rng.randint(7, 131))
    return point


def differ(a: Any, b: Any, rel_tol: float) -> bool:
    """Whether two exact values differ: exactly for rationals; otherwise the difference at 80
    digits (SymPy raises precision to resolve cancellation), equal only when it could not be told
    from zero. A positive `rel_tol` (a setting, 0 by default) forgives a relative difference up
    to it; with 0, `\\pi + 10^{-45}` is not `\\pi`."""
    difference = a - b
    if difference == 0:
        return False
    if isinstance(difference, sympy.Rational):
        return rel_tol == 0 or not close(a, b, rel_tol)
    try:
        value = sympy.N(difference, PRECISION_DIGITS)
    except (TypeError, ValueError, ArithmeticError):
        return True
    if not value.is_number:
        return True
    if value == 0:
        return False
    resolved = all(
        part == 0 or not isinstance(part, sympy.Float) or part._prec >= _RESOLVED_BITS
        for part in value.as_real_imag()
    )
    if not resolved:
        return False
    return rel_tol == 0 or not close(a, b, rel_tol)


def finite(value: Any) -> bool:
    """A number with a finite value (not zoo, nan or an infinity, not a leftover symbol)."""
    return bool(value.is_number) and not value.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo)


def proportional(a: sympy.Expr, b: sympy.Expr, positive: bool) -> bool:
    """`a = 0` and `b = 0` (or `a > 0`, `b > 0` with `positive`) agree when a/b is a constant.

    The ratio is sampled at exact random points (80 digits) rather than simplified: the same
    constant at every point (nonzero, and positive for inequalities) means proportional.
    """
    if a == 0 or b == 0:
        return bool(a == b)
    symbols = sorted((a.free_symbols | b.free_symbols), key=str)
    rng = _POINTS
    ratios = []
    counting = counting_symbols(a, b)
    a, b = closed_forms(a), closed_forms(b)
    counts = count_scales(a, b)
    for index in range(_MAX_POINT_TRIES):
        point = random_point(rng, symbols, index, counting, counts)
        try:
            numerator = a.xreplace(point).evalf(PRECISION_DIGITS)
            denominator = b.xreplace(point).evalf(PRECISION_DIGITS)
            if not (finite(numerator) and finite(denominator)) or denominator == 0:
                continue  # undefined here: proves nothing
            ratio = a.xreplace(point) / b.xreplace(point)  # exact: compared exactly below
            ratio_value = ratio.evalf(PRECISION_DIGITS)
        except (TypeError, ValueError, ZeroDivisionError):
            return False
        if not finite(ratio_value) or ratio_value == 0:
            return False
        ratios.append(ratio)
        if len(ratios) >= _MIN_DEFINED_POINTS:
            break
    if len(ratios) < _MIN_DEFINED_POINTS or any(differ(r, ratios[0], 0) for r in ratios[1:]):
        return False
    return bool(ratios[0].evalf(PRECISION_DIGITS).is_positive) if positive else True


def polynomial_degree(expr: Any) -> int | None:
    """The exact total degree of a polynomial as built (`(x+1)^{10000}` -> 10000), read off
    its tree without expanding it; None when the tree is not a polynomial or its degree is not
    certain (two terms of the top degree may cancel).

    Exact because the top-degree part of a product is the product of its factors' top-degree
    parts (never zero over the complex numbers), and a sum whose top degree only one term
    reaches keeps that term's top-degree part. Two polynomials of different degrees are never
    equal, so `(x+1)^{10000}` against `x` is decided in microseconds, not by an expansion that
    runs to the deadline."""
    if isinstance(expr, sympy.Symbol):
        return 1
    if isinstance(expr, sympy.Number) or expr in (sympy.pi, sympy.E, sympy.I):
        return None if expr == 0 else 0
    if isinstance(expr, sympy.Pow):
        base, exponent = expr.args
        if not (isinstance(exponent, sympy.Integer) and exponent >= 0):
            return None
        base_degree = polynomial_degree(base)
        return None if base_degree is None else base_degree * int(exponent)
    if isinstance(expr, sympy.Mul):
        degrees = [polynomial_degree(arg) for arg in expr.args]
        return None if None in degrees else sum(d for d in degrees if d is not None)
    if isinstance(expr, sympy.Add):
        degrees = [polynomial_degree(arg) for arg in expr.args]
        if None in degrees:
            return None
        top = max(d for d in degrees if d is not None)
        return top if degrees.count(top) == 1 else None
    return None
