"""Sets: listings without order, intervals by their ends and openness, unions by their parts,
any other set once SymPy has evaluated it (exactly)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sympy

from rlvr.verifier.domains.math.compare.elements import in_order_equal, unordered_equal
from rlvr.verifier.domains.math.values import evaluated_set

if TYPE_CHECKING:
    from rlvr.verifier.domains.math.compare.context import Grading


def listings_equal(gold: Any, pred: Any, ctx: Grading) -> bool:
    """At least one side is a listing (a finite set, or `1, 2`)."""
    if isinstance(gold, sympy.Tuple) and isinstance(pred, sympy.FiniteSet):
        # an ordered answer is matched by a listing only in that order (`1, 3` for `(1, 3)`)
        return in_order_equal(gold.args, pred.args, ctx)
    if isinstance(pred, sympy.Tuple):
        # a tuple says its values are ordered (a point, a sequence): it is not the unordered
        # set or listing (or `\pm 2`) the ground truth is, whatever its values
        return False
    gold_items, pred_items = _items(gold), _items(pred)
    if gold_items is None or pred_items is None:
        return False
    return unordered_equal(gold_items, pred_items, ctx)


def _items(value: Any) -> list[Any] | None:
    if isinstance(value, sympy.FiniteSet | sympy.Tuple):
        return list(value.args)
    if isinstance(value, sympy.Expr):
        return [value]  # `{5}` vs `5`
    return None


def intervals_equal(gold: Any, pred: Any, ctx: Grading) -> bool:
    """At least one side is an interval: ends and openness; an open pair `(a, b)` (a tuple)
    answers the open interval."""
    if isinstance(gold, sympy.Interval) and isinstance(pred, sympy.Interval):
        return (
            gold.left_open == pred.left_open
            and gold.right_open == pred.right_open
            and ctx.equal(gold.left, pred.left)
            and ctx.equal(gold.right, pred.right)
        )
    interval, other = (gold, pred) if isinstance(gold, sympy.Interval) else (pred, gold)
    if isinstance(other, sympy.Tuple) and len(other) == 2:
        return (
            bool(interval.left_open and interval.right_open)
            and ctx.equal(interval.left, other[0])
            and ctx.equal(interval.right, other[1])
        )
    return False


def unions_equal(gold: Any, pred: Any, ctx: Grading) -> bool:
    """Two unions, by their parts in any order."""
    if not (isinstance(gold, sympy.Union) and isinstance(pred, sympy.Union)):
        return False
    return unordered_equal(list(gold.args), list(pred.args), ctx)


def other_sets_equal(gold: Any, pred: Any, ctx: Grading) -> bool:
    """Other sets (`\\mathbb{R} \\setminus \\{2\\}`, intersections, the empty set): compared
    once SymPy has evaluated them to intervals and unions, exactly."""
    if not (isinstance(gold, sympy.Set) and isinstance(pred, sympy.Set)):
        return False
    return bool(evaluated_set(gold) == evaluated_set(pred))
