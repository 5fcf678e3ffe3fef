"""Ordered structures: tuples and matrices element by element, and listings read in the order
they were written (`1, 3` for the point `(1, 3)`; `x = -5, p = 14/3` against `-5, 14/3`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sympy
from sympy.core.relational import Relational

from rlvr.verifier.domains.math.compare.elements import element_equal, in_order_equal
from rlvr.verifier.domains.math.normalize import top_level_parts
from rlvr.verifier.domains.math.parsing import to_sympy
from rlvr.verifier.domains.math.values import is_name

if TYPE_CHECKING:
    from rlvr.verifier.domains.math.compare.context import Grading


def tuples_equal(gold: Any, pred: Any, ctx: Grading) -> bool:
    if not (isinstance(gold, sympy.Tuple) and isinstance(pred, sympy.Tuple)):
        return False
    return in_order_equal(gold.args, pred.args, ctx)


def matrices_equal(gold: Any, pred: Any, ctx: Grading) -> bool:
    if not (isinstance(gold, sympy.MatrixBase) and isinstance(pred, sympy.MatrixBase)):
        return False
    if gold.shape != pred.shape:
        return False
    return all(element_equal(a, b, ctx) for a, b in zip(gold, pred, strict=True))


def ordered_listing(latex: str) -> Any:
    """`1, 3` -> the tuple (1, 3) in the written order; None for a set `\\{...\\}` or a part
    that does not parse."""
    text = latex.strip()
    if text.startswith("\\{") or text.startswith("\\left\\{"):
        return None
    values = [to_sympy(part) for part in top_level_parts(text)]
    if len(values) < 2 or any(value is None for value in values):
        return None
    if all(isinstance(v, sympy.Eq) and isinstance(v.lhs, sympy.Symbol) for v in values):
        # `y = 4, x = 3` names its coordinates: the point is (3, 4), in the names' order;
        # `x = 1, x = 2` (one name twice) is a set of roots, never an ordered pair
        names = [str(v.lhs) for v in values]
        if len(set(names)) != len(names):
            return None
        return sympy.Tuple(*(v.rhs for v in sorted(values, key=lambda v: str(v.lhs))))
    return sympy.Tuple(*values)


def named_listing_equal(gold: Any, pred: Any, ctx: Grading) -> bool:
    """`x = -5, p = 14/3` answered by `-5, 14/3`: the bare values, in the order the ground truth
    names them. The parsed sets have lost that order, so both texts are split where written."""
    named = isinstance(gold, sympy.FiniteSet) and all(
        isinstance(g, sympy.Eq) and is_name(g.lhs) for g in gold.args
    )
    bare = isinstance(pred, sympy.FiniteSet | sympy.Tuple) and not any(
        isinstance(p, Relational) for p in pred.args
    )
    if not (named and bare and len(gold.args) > 1):
        return False
    pred_latex = ctx.job.pred_latex
    gold_parts = top_level_parts(ctx.job.gold_latex)
    pred_parts = top_level_parts(
        _unwrapped(pred_latex) if isinstance(pred, sympy.Tuple) else pred_latex
    )
    if not len(gold_parts) == len(pred_parts) == len(gold.args):
        return False
    for gold_part, pred_part in zip(gold_parts, pred_parts, strict=True):
        equation, value = to_sympy(gold_part), to_sympy(pred_part)
        if not (isinstance(equation, sympy.Eq) and is_name(equation.lhs) and value is not None):
            return False
        if isinstance(value, Relational) or not ctx.equal(equation.rhs, value):
            return False
    return True


def _unwrapped(latex: str) -> str:
    """`(a, b)` or `\\left(a, b\\right)` -> `a, b`; `(a), (b)` stays as it is."""
    text = latex.strip()
    for left, right in (("\\left(", "\\right)"), ("(", ")")):
        if text.startswith(left) and text.endswith(right):
            inner = text[len(left) : len(text) - len(right)]
            depth = 0
            for char in inner:
                depth += (char in "([{") - (char in ")]}")
                if depth < 0:
                    return text  # the opening bracket closes before the end
            return inner
    return text
