"""Two scalars: numbers compare exactly, exact constants by their difference, expressions with
unknowns by expansion, else at unpredictable random points (`equality.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sympy

from rlvr.verifier.domains.math.compare.rounding import rounded_decimal
from rlvr.verifier.domains.math.equality import (
    agree_at_random_points,
    differ,
    polynomial_degree,
)
from rlvr.verifier.domains.math.numbers import GOLD_ROUNDED_DIGITS

if TYPE_CHECKING:
    from rlvr.verifier.domains.math.compare.context import Grading


def scalars_equal(gold: Any, pred: Any, ctx: Grading) -> bool:
    """A scalar against a scalar; a scalar against anything else SymPy built only if identical."""
    if isinstance(gold, sympy.Expr) and isinstance(pred, sympy.Expr):
        return expressions_equal(gold, pred, ctx)
    return bool(gold == pred)


def expressions_equal(gold: sympy.Expr, pred: sympy.Expr, ctx: Grading) -> bool:
    """Never true for two distinct exact numbers; a written decimal may round an exact value."""
    if gold == pred:
        return True
    if rounded_decimal(gold, pred, ctx, ctx.gold_decimals, GOLD_ROUNDED_DIGITS):
        return True  # a decimal ground truth answered by the exact value it rounds
    if ctx.conv.decimal_for_exact and rounded_decimal(
        pred, gold, ctx, ctx.pred_decimals, ctx.conv.min_rounded_digits
    ):
        return True  # only by the setting: an exact ground truth is matched exactly
    if gold.is_Rational and pred.is_Rational:
        return False  # exact, and already unequal
    if gold.has(sympy.zoo, sympy.nan) or pred.has(sympy.zoo, sympy.nan):
        return False
    if gold.is_infinite or pred.is_infinite:
        return bool(gold == pred)
    symbols = gold.free_symbols | pred.free_symbols
    if not symbols:
        return constants_equal(gold, pred, ctx)
    gold_degree, pred_degree = polynomial_degree(gold), polynomial_degree(pred)
    if gold_degree is not None and pred_degree is not None and gold_degree != pred_degree:
        return False  # polynomials of different degrees: no expansion needed to tell
    if sympy.expand(gold - pred) == 0:
        return True
    # identity testing at exact random points, 80 digits: faster than simplify() and it sees
    # branches (sqrt(x^2) is not x: negative points differ)
    ordered = sorted(symbols, key=str)
    rel_tol = ctx.conv.rel_tol
    return agree_at_random_points(gold, pred, ordered, rel_tol) and agree_at_random_points(
        gold, pred, ordered, rel_tol, seed=1
    )


def constants_equal(gold: sympy.Expr, pred: sympy.Expr, ctx: Grading) -> bool:
    """Two values without unknowns: rationals exactly (10^50 + 1 is not 10^50, 1/2004! is not
    1/2006!), others by their difference at 80 digits (no tolerance unless the setting)."""
    if gold.is_rational and pred.is_rational:
        exact_gold, exact_pred = gold.doit(), pred.doit()
        if exact_gold.is_Rational and exact_pred.is_Rational:
            return bool(exact_gold == exact_pred)
        return bool(sympy.simplify(exact_gold - exact_pred) == 0)
    if not (gold.is_number and pred.is_number):
        return False
    return not differ(gold, pred, ctx.conv.rel_tol)
