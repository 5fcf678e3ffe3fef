"""Equations and inequalities: a left side is compared, not dropped; a named value (`x = 3`)
answers a bare value; two relations agree when they say the same thing (proportional sides)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sympy
from sympy.core.relational import Relational

from rlvr.verifier.domains.math.equality import proportional
from rlvr.verifier.domains.math.values import gold_value, has_unknowns, named_value

if TYPE_CHECKING:
    from rlvr.verifier.domains.math.compare.context import Grading


def relations_equal(gold: Any, pred: Any, ctx: Grading) -> bool:
    """At least one side is a relation."""
    if not isinstance(pred, Relational):
        value = gold_value(gold)  # `AB = 4`, `(p, q) = (3, 2)`: the ground truth's value
        return not isinstance(value, Relational) and ctx.equal(value, pred)
    if not isinstance(gold, Relational):
        return _named_answer_equal(gold, pred, ctx)
    if isinstance(gold, sympy.Eq) and isinstance(pred, sympy.Eq):
        return equations_equal(gold, pred, ctx)
    gold_form, pred_form = inequality_form(gold), inequality_form(pred)
    if gold_form is None or pred_form is None:
        return type(gold) is type(pred) and proportional(
            gold.lhs - gold.rhs, pred.lhs - pred.rhs, positive=False
        )
    (gold_expr, gold_strict), (pred_expr, pred_strict) = gold_form, pred_form
    return gold_strict == pred_strict and proportional(gold_expr, pred_expr, positive=True)


def _named_answer_equal(gold: Any, pred: Relational, ctx: Grading) -> bool:
    """`x = 3` against `3` (not `x + 1 = 3`); a true equation of constants
    (`\\frac{1}{2} + 3 = \\frac{7}{2}`) by its result (`4 = 3` is not true)."""
    value = named_value(pred)
    if isinstance(value, sympy.Eq) and not has_unknowns(value.lhs) and not has_unknowns(value.rhs):
        if not ctx.equal(value.lhs, value.rhs):
            return False
        value = value.rhs
    return not isinstance(value, Relational) and ctx.equal(gold, value)


def equations_equal(gold: sympy.Eq, pred: sympy.Eq, ctx: Grading) -> bool:
    """Side by side (either way round), or the same equation scaled (`2y = 4x` for `y = 2x`)."""
    if ctx.equal(gold.lhs, pred.lhs) and ctx.equal(gold.rhs, pred.rhs):
        return True
    if ctx.equal(gold.lhs, pred.rhs) and ctx.equal(gold.rhs, pred.lhs):
        return True
    return proportional(gold.lhs - gold.rhs, pred.lhs - pred.rhs, positive=False)


def inequality_form(rel: Relational) -> tuple[sympy.Expr, bool] | None:
    """`a > b` -> (a - b, strict): the relation says this expression is > 0 (or >= 0)."""
    if isinstance(rel, sympy.StrictGreaterThan):
        return rel.lhs - rel.rhs, True
    if isinstance(rel, sympy.GreaterThan):
        return rel.lhs - rel.rhs, False
    if isinstance(rel, sympy.StrictLessThan):
        return rel.rhs - rel.lhs, True
    if isinstance(rel, sympy.LessThan):
        return rel.rhs - rel.lhs, False
    return None
