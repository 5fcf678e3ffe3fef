"""A parsed answer read as a typed value: its kind, decided by its structure, never by its text.

Both sides of a comparison are read the same way (`read_pair`): a membership `x \\in S` is the
set S, a set operation is evaluated to intervals and unions, and an inequality in one unknown
is read as an interval only against a set (`x < 2` answers `(-\\infty, 2)`, never `2`). The kind
of each side then chooses the comparer (`compare/dispatch.py`); nothing is erased to make two
values agree, and a left side stays part of an equation (`y = 3` is not `x = 3`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

import sympy
from sympy.core.function import AppliedUndef
from sympy.core.relational import Relational

Kind = Literal[
    "undefined",  # has zoo or nan: `12:00` read as 12/0 has no value to be equal to
    "relation",  # an equation or inequality (its left side kept)
    "matrix",
    "listing",  # a finite set, or a listing `1, 2` (unordered)
    "interval",
    "union",  # a union of intervals (or sets)
    "tuple",  # an ordered tuple or point
    "set",  # any other set (a complement, an intersection, the empty set)
    "scalar",  # a number or an expression
    "other",  # anything else SymPy built (a boolean, an `And`): equal only if identical
]

# The comparer of a pair is the first kind in this order that either side has: a relation
# against a number is decided as a relation (is it a named value?), a set against a number as
# a set (`{5}` answers `5`), and so on down to two scalars.
PRECEDENCE: tuple[Kind, ...] = (
    "undefined",
    "relation",
    "matrix",
    "listing",
    "interval",
    "union",
    "tuple",
    "set",
    "scalar",
    "other",
)


@dataclass(frozen=True, slots=True)
class Value:
    """One side of a comparison: its kind and the SymPy object that holds it."""

    kind: Kind
    obj: Any


def kind_of(obj: Any) -> Kind:
    """The kind of a SymPy object, by its structure."""
    if is_undefined(obj):
        return "undefined"
    if isinstance(obj, Relational):
        return "relation"
    if isinstance(obj, sympy.MatrixBase):
        return "matrix"
    if isinstance(obj, sympy.FiniteSet):
        return "listing"
    if isinstance(obj, sympy.Interval):
        return "interval"
    if isinstance(obj, sympy.Union):
        return "union"
    if isinstance(obj, sympy.Tuple):
        return "tuple"
    if isinstance(obj, sympy.Set):
        return "set"
    if isinstance(obj, sympy.Expr):
        return "scalar"
    return "other"


def deciding_kind(gold: Value, pred: Value) -> Kind:
    """The kind whose comparer decides the pair (see `PRECEDENCE`)."""
    kinds = {gold.kind, pred.kind}
    return next(kind for kind in PRECEDENCE if kind in kinds)


def read_pair(gold: Any, pred: Any) -> tuple[Value, Value]:
    """Both sides as typed values, each read in view of the other (see the module doc)."""
    if is_undefined(gold) or is_undefined(pred):
        return Value(kind_of(gold), gold), Value(kind_of(pred), pred)
    gold, pred = membership(gold), membership(pred)
    if isinstance(gold, sympy.Set):
        gold = evaluated_set(gold)  # `\\mathbb{R} \\setminus \\{2\\}`: intervals and unions
    if isinstance(pred, sympy.Set):
        pred = evaluated_set(pred)
    # `x < 2` reads as (-oo, 2) only against a set; `a < x < b` always
    against_set = set_like(gold) or set_like(pred)
    if against_set:
        gold, pred = inequalities_as_union(gold), inequalities_as_union(pred)
    gold, pred = as_interval(gold, against_set), as_interval(pred, against_set)
    return Value(kind_of(gold), gold), Value(kind_of(pred), pred)


def element_kind(value: Any) -> str:
    """The kind of an element of a structure: `interval` (also an open pair), `set`, `tuple`
    or `scalar` (a set inside a structure equals only a set)."""
    if isinstance(value, sympy.Interval):
        return "interval"
    if isinstance(value, sympy.Set):
        return "set"
    if isinstance(value, sympy.Tuple):
        return "tuple"
    return "scalar"


# ---- names and named values ---------------------------------------------------------------------


def is_name(expr: Any) -> bool:
    """A bare name: `x`, `f(x)`, or a tuple of names `(p, q)`."""
    if isinstance(expr, sympy.Symbol | AppliedUndef):
        return True
    return isinstance(expr, sympy.Tuple) and all(is_name(e) for e in expr)


def has_unknowns(expr: Any) -> bool:
    return bool(getattr(expr, "free_symbols", False))


def is_undefined(value: Any) -> bool:
    return isinstance(value, sympy.Basic) and value.has(sympy.zoo, sympy.nan)


def named_value(expr: Any) -> Any:
    """`x = 3`, `f(x) = x^2`, `(p, q) = (3, 2)`: a bare name on the left names the right side."""
    if isinstance(expr, sympy.Eq) and is_name(expr.lhs):
        return expr.rhs
    return expr


def gold_value(gold: Any) -> Any:
    """A ground-truth equation `AB = 4`, `|AB| = 1`, `V_1 : V_2 = 11 : 21` names its value.

    Not `a + 3z = 0`: a left side with a sum is a condition, not a name.
    """
    if (
        isinstance(gold, sympy.Eq)
        and not has_unknowns(gold.rhs)
        and has_unknowns(gold.lhs)
        and not gold.lhs.has(sympy.Add)
    ):
        return gold.rhs
    return named_value(gold)


def membership(value: Any) -> Any:
    """`x \\in S` (parsed as `Eq(x, S)`) answers with the set S."""
    if isinstance(value, sympy.Eq) and isinstance(value.rhs, sympy.Set) and is_name(value.lhs):
        return value.rhs
    return value


# ---- sets, intervals and the inequalities that describe them ------------------------------------


def set_like(value: Any) -> bool:
    """A set, or a pair with an infinite end (`(-\\infty, 2)` can only be an interval)."""
    if isinstance(value, sympy.Set):
        return True
    return (
        isinstance(value, sympy.Tuple)
        and len(value) == 2
        and any(end in (sympy.oo, -sympy.oo) for end in value)
    )


def evaluated_set(value: sympy.Set) -> Any:
    """A set operation evaluated (to intervals and unions), argument by argument."""
    if isinstance(value, sympy.Complement | sympy.Intersection | sympy.Union):
        return value.func(*(evaluated_set(arg) for arg in value.args))
    return value


def inequalities_as_union(value: Any) -> Any:
    """`x \\le -2 \\text{ or } x \\ge 2` (a listing of one-variable inequalities) against a set:
    the union of their intervals."""
    if not (isinstance(value, sympy.FiniteSet) and len(value) > 1):
        return value
    if len(set().union(*(getattr(item, "free_symbols", set()) for item in value.args))) != 1:
        return value  # `x \\le -2` or `y \\ge 2`: two unknowns, not one set
    intervals = [as_interval(item, True) for item in value.args]
    if all(isinstance(item, sympy.Interval) for item in intervals):
        return sympy.Union(*intervals)
    return value


def as_interval(value: Any, single: bool) -> Any:
    """`a < x <= b` (one variable between two constants) is the interval (a, b]; with `single`
    (against a set) `x < 2` is (-oo, 2) and `1 <= |z| <= 3/2` its real solutions."""
    if single and isinstance(value, Relational) and not isinstance(value, sympy.Eq | sympy.Ne):
        form = bound(value)
        if form is not None and isinstance(form[1], sympy.Symbol):
            side, _, end, is_open = form
            if side == "low":
                return sympy.Interval(end, sympy.oo, left_open=is_open, right_open=True)
            return sympy.Interval(-sympy.oo, end, left_open=True, right_open=is_open)
        return value
    if not isinstance(value, sympy.And) or len(value.args) != 2:
        return value
    if single and len(value.free_symbols) == 1:
        solved = _real_solutions(value)
        if isinstance(solved, sympy.Interval | sympy.Union):
            return solved
    bounds: dict[str, tuple[Any, bool]] = {}
    variable = None
    for rel in value.args:
        form = bound(rel)
        if form is None:
            return value
        side, term, end, is_open = form
        if variable is not None and term != variable:
            return value
        variable = term
        bounds[side] = (end, is_open)
    if set(bounds) != {"low", "high"}:
        return value
    (low, low_open), (high, high_open) = bounds["low"], bounds["high"]
    return sympy.Interval(low, high, left_open=low_open, right_open=high_open)


def _real_solutions(conjunction: sympy.And) -> Any:
    (symbol,) = conjunction.free_symbols
    try:
        return sympy.Intersection(
            *(sympy.solveset(rel, symbol, domain=sympy.S.Reals) for rel in conjunction.args)
        )
    except (NotImplementedError, TypeError, ValueError):
        return None


def bound(rel: Any) -> tuple[str, Any, Any, bool] | None:
    """`x > 2` -> ("low", x, 2, open): which end of the unknown the relation bounds."""
    if not isinstance(
        rel, sympy.StrictLessThan | sympy.LessThan | sympy.StrictGreaterThan | sympy.GreaterThan
    ):
        return None
    is_open = isinstance(rel, sympy.StrictLessThan | sympy.StrictGreaterThan)
    small, big = (
        (rel.lhs, rel.rhs)
        if isinstance(rel, sympy.StrictLessThan | sympy.LessThan)
        else (rel.rhs, rel.lhs)
    )
    if has_unknowns(big) and not has_unknowns(small):
        return "low", big, small, is_open
    if has_unknowns(small) and not has_unknowns(big):
        return "high", small, big, is_open
    return None


def shown(value: Any, latex: str) -> str:
    """How a value is shown in a verdict (at most 200 characters)."""
    if value is None:
        return latex[:200]
    try:
        return _shown(value, latex)
    except TypeError:  # an unhashable value: printed each time
        return _printed(value, latex)


@lru_cache(maxsize=256)
def _shown(value: Any, latex: str) -> str:
    """Printing a SymPy value is a sixth of a worker's time on the mixed benchmark, and one
    grading shows each side two or three times: printed once."""
    return _printed(value, latex)


def _printed(value: Any, latex: str) -> str:
    try:
        text = str(value)
    except ValueError:  # an integer too long to print (2006!): show what was written
        text = latex
    return text if len(text) <= 200 else text[:199] + "…"
