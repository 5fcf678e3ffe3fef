"""SymPy equivalence of two normalised answers; runs inside a killable worker process.

Parsing is `parsing.py`. The answer is parsed as written (evaluation off) and must be in the
ground truth's form (`unevaluated.py`: an evaluated value against a value, factored against
factored, ...); only then is it evaluated. The comparison is our own and strict: rationals
compare exactly, floats are turned into the exact decimals they were written as, and exact
values and expressions with unknowns compare as `equality.py` says (exact differences,
unpredictable sampling points). Sets, tuples, intervals, matrices, equations and inequalities
compare element by element.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy
from sympy.core.function import AppliedUndef
from sympy.core.relational import Relational

from rlvr.verifier.domains.math.equality import (
    PRECISION_DIGITS,
    agree_at_random_points,
    differ,
    proportional,
)
from rlvr.verifier.domains.math.normalize import top_level_parts
from rlvr.verifier.domains.math.numbers import (
    GOLD_ROUNDED_DIGITS,
    Number,
    parse_number,
    rounds_to,
    shows_period,
)
from rlvr.verifier.domains.math.parsing import (
    fast_unevaluated_gold,
    parse_unevaluated,
    reevaluated,
    to_sympy,
    unevaluated,
    unevaluated_gold,
)
from rlvr.verifier.domains.math.unevaluated import (
    expression_form_reason,
    is_value,
    stacked_signs,
    unevaluated_reason,
)
from rlvr.verifier.domains.math.verdict import Conventions, SlowJob, Verdict

_DECIMAL_LITERAL_RE = re.compile(r"(?<![\d.])\d*\.\d+(?![\d.])")
# an unevaluated integral, sum, product, limit or derivative can only come from these spellings
_CALCULUS_RE = re.compile(
    r"\\(?:i*int|oint|sum|prod|lim|partial)(?![A-Za-z])|\\frac\s*\{\s*(?:\\mathrm\{)?d\b"
)
# SymPy raising on the answer's own content (a divergent sum, a singular matrix's inverse, a
# matrix plus a number): the answer is wrong, not the verifier
_ANSWER_FAULTS = (
    ValueError,
    TypeError,
    ArithmeticError,
    NotImplementedError,
    RecursionError,
    sympy.SympifyError,
)


@dataclass(frozen=True, slots=True)
class Grading:
    """One call's context, handed down the comparison instead of module globals: what is graded,
    the conventions, and the decimals each side was written with (by exact value), which let the
    rounding rule apply inside tuples, intervals and matrices."""

    job: SlowJob
    conv: Conventions
    gold_decimals: Mapping[Fraction, Number]
    pred_decimals: Mapping[Fraction, Number]

    @classmethod
    def of(cls, job: SlowJob, conv: Conventions) -> Grading:
        return cls(job, conv, decimal_literals(job.gold_latex), decimal_literals(job.pred_latex))

    def written_decimal(self, value: Fraction) -> bool:
        return value in self.gold_decimals or value in self.pred_decimals


def grade(job: SlowJob, conv: Conventions) -> Verdict:
    """Whether the response's answer means the same as the ground truth (the worker's entry).

    The answer's own faults (a divergent sum, the inverse of a singular matrix, a matrix added
    to a number) make it `failed`, not a verifier error: SymPy raising on the answer's content
    is a verdict about the answer.
    """
    ctx = Grading.of(job, conv)
    gold_latex, pred_latex = job.gold_latex, job.pred_latex
    gold = to_sympy(gold_latex)
    shown_gold = _show(gold, gold_latex)
    if gold is None:
        return Verdict(False, "could not parse the answer as math", shown_gold, pred_latex[:200])
    try:
        value = is_value(_gold_value(_membership(gold)))
        check_form = value or bool(_CALCULUS_RE.search(pred_latex))
        # the answer as written first: a refused form (`9^{9^{9^{9}}}` for 3) is never evaluated
        pred_tree = parse_unevaluated(pred_latex)
        if pred_tree is not None and check_form:
            signs = (stacked_signs(gold_latex), stacked_signs(pred_latex))
            refusal = unevaluated_reason(
                unevaluated_gold(gold_latex), pred_tree, value, signs, ctx.conv.form_rules
            )
            if refusal is not None:
                return Verdict(False, refusal, shown_gold, _show(pred_tree, pred_latex))
        if pred_tree is not None and not value:
            refusal = expression_form_reason(
                fast_unevaluated_gold(gold_latex), pred_tree, ctx.conv.form_rules
            )
            if refusal is not None:
                return Verdict(False, refusal, shown_gold, _show(pred_tree, pred_latex))
        if pred_tree is not None:
            pred = reevaluated(pred_tree)
        else:
            pred = to_sympy(pred_latex)
            if pred is not None and check_form:
                signs = (stacked_signs(gold_latex), stacked_signs(pred_latex))
                refusal = unevaluated_reason(
                    unevaluated_gold(gold_latex),
                    unevaluated(pred_latex),
                    value,
                    signs,
                    ctx.conv.form_rules,
                )
                if refusal is not None:
                    return Verdict(False, refusal, shown_gold, _show(pred, pred_latex))
        if pred is None:
            return Verdict(
                False, "could not parse the response as math", shown_gold, pred_latex[:200]
            )
        return _compare(gold, pred, ctx)
    except _ANSWER_FAULTS as exc:
        detail = f"the response's value cannot be compared: {type(exc).__name__}: {exc}"[:300]
        return Verdict(False, detail, shown_gold, pred_latex[:200])


def _compare(gold: Any, pred: Any, ctx: Grading) -> Verdict:
    job = ctx.job
    shown_gold = _show(gold, job.gold_latex)
    shown_pred = _show(pred, job.pred_latex)
    if isinstance(gold, sympy.Tuple) and isinstance(pred, sympy.FiniteSet):
        # an ordered answer: a listing `1, 3` answers `(1, 3)` in the order written (the parsed
        # set has lost it); a set `\\{3, 1\\}` does not answer an ordered pair
        pred = _ordered_listing(job.pred_latex)
        if pred is None:
            return Verdict(
                False, f"a set or listing for the ordered {shown_gold}", shown_gold, shown_pred
            )
    candidates = [(gold, pred)]
    hundredth = sympy.Rational(1, 100)
    if job.gold_pct and not job.pred_pct:
        candidates = [(_scale(gold, hundredth), pred)] + (
            [(gold, pred)] if ctx.conv.percent == "either" else []
        )
    elif job.pred_pct and not job.gold_pct:
        # a bare ground truth below 1 in size is a fraction: `0.5\%` is only 0.005 there
        either = ctx.conv.percent == "either" and not (
            isinstance(gold, sympy.Expr) and gold.is_number and bool(abs(gold) < 1)
        )
        candidates = [(gold, _scale(pred, hundredth))] + ([(gold, pred)] if either else [])
    for g, p in candidates:
        if equivalent(g, p, ctx):
            return Verdict(True, f"equivalent: {shown_pred} = {shown_gold}", shown_gold, shown_pred)
    if _named_listing_equal(gold, pred, ctx):
        return Verdict(
            True, f"{shown_pred} lists the values of {shown_gold} in order", shown_gold, shown_pred
        )
    if (
        job.pred_decimal is not None
        and not job.pred_pct
        and _rounds(gold, job.pred_decimal, ctx.conv)
    ):
        return Verdict(True, f"{shown_pred} is {shown_gold} rounded", shown_gold, shown_pred)
    if (
        job.gold_decimal is not None
        and not job.gold_pct
        and _rounds(pred, job.gold_decimal, ctx.conv, GOLD_ROUNDED_DIGITS)
        and not (
            isinstance(pred, sympy.Rational)
            and not shows_period(Fraction(int(pred.p), int(pred.q)), job.gold_decimal.decimals or 0)
        )
    ):
        return Verdict(True, f"{shown_gold} is {shown_pred} rounded", shown_gold, shown_pred)
    return Verdict(False, f"parsed {shown_pred}, expected {shown_gold}", shown_gold, shown_pred)


def grade_timed(job: SlowJob, conv: Conventions) -> tuple[Verdict, float]:
    """`grade` and the seconds it took in this worker."""
    started = time.perf_counter()
    verdict = grade(job, conv)
    return verdict, time.perf_counter() - started


def decimal_literals(latex: str) -> dict[Fraction, Number]:
    """Each decimal written in `latex` (`2.6667`), by exact value, with its written precision.

    Lets the rounding rule apply inside tuples, intervals and matrices, where SymPy would
    otherwise have forgotten how many places were written.
    """
    found: dict[Fraction, Number] = {}
    for match in _DECIMAL_LITERAL_RE.finditer(latex[:5000]):
        number = parse_number(match.group())
        if number is not None and number.decimals is not None:
            found[number.value] = number
    return found


def equivalent(gold: Any, pred: Any, ctx: Grading) -> bool:
    """Structural then numeric equivalence; never true for two distinct exact numbers."""
    if _undefined(gold) or _undefined(pred):
        return False  # `12:00` is 12/0: no value to be equal to
    gold, pred = _membership(gold), _membership(pred)
    if isinstance(gold, sympy.Set):
        gold = _evaluated_set(gold)  # `\\mathbb{R} \\setminus \\{2\\}`: intervals and unions
    if isinstance(pred, sympy.Set):
        pred = _evaluated_set(pred)
    # `x < 2` reads as (-oo, 2) only against a set; `a < x < b` always
    against_set = _set_like(gold) or _set_like(pred)
    if against_set:
        gold, pred = _inequalities_as_union(gold), _inequalities_as_union(pred)
    gold, pred = _as_interval(gold, against_set), _as_interval(pred, against_set)
    if isinstance(gold, Relational) or isinstance(pred, Relational):
        return _relational_equal(gold, pred, ctx)
    if isinstance(gold, sympy.MatrixBase) or isinstance(pred, sympy.MatrixBase):
        if not (isinstance(gold, sympy.MatrixBase) and isinstance(pred, sympy.MatrixBase)):
            return False
        if gold.shape != pred.shape:
            return False
        return all(_element_equal(a, b, ctx) for a, b in zip(gold, pred, strict=True))
    if isinstance(gold, sympy.FiniteSet) or isinstance(pred, sympy.FiniteSet):
        return _set_equal(gold, pred, ctx)
    if isinstance(gold, sympy.Interval) or isinstance(pred, sympy.Interval):
        return _interval_equal(gold, pred, ctx)
    if isinstance(gold, sympy.Union) or isinstance(pred, sympy.Union):
        if not (isinstance(gold, sympy.Union) and isinstance(pred, sympy.Union)):
            return False
        return _unordered_equal(list(gold.args), list(pred.args), ctx)
    if isinstance(gold, sympy.Tuple) or isinstance(pred, sympy.Tuple):
        if not (isinstance(gold, sympy.Tuple) and isinstance(pred, sympy.Tuple)):
            return False
        return len(gold) == len(pred) and all(
            _element_equal(a, b, ctx) for a, b in zip(gold, pred, strict=True)
        )
    if isinstance(gold, sympy.Set) or isinstance(pred, sympy.Set):
        return _sets_equal(gold, pred)
    if isinstance(gold, sympy.Expr) and isinstance(pred, sympy.Expr):
        return expressions_equal(gold, pred, ctx)
    return bool(gold == pred)


def expressions_equal(gold: sympy.Expr, pred: sympy.Expr, ctx: Grading) -> bool:
    if gold == pred:
        return True
    if _rounded_decimal(
        gold, pred, ctx, ctx.gold_decimals, GOLD_ROUNDED_DIGITS
    ) or _rounded_decimal(pred, gold, ctx, ctx.pred_decimals, ctx.conv.min_rounded_digits):
        return True
    if gold.is_Rational and pred.is_Rational:
        return False  # exact, and already unequal
    if gold.has(sympy.zoo, sympy.nan) or pred.has(sympy.zoo, sympy.nan):
        return False
    if gold.is_infinite or pred.is_infinite:
        return bool(gold == pred)
    symbols = gold.free_symbols | pred.free_symbols
    if not symbols:
        return _constants_equal(gold, pred, ctx)
    if sympy.expand(gold - pred) == 0:
        return True
    # identity testing at exact random points, 80 digits: faster than simplify() and it sees
    # branches (sqrt(x^2) is not x: negative points differ)
    ordered = sorted(symbols, key=str)
    rel_tol = ctx.conv.rel_tol
    return agree_at_random_points(gold, pred, ordered, rel_tol) and agree_at_random_points(
        gold, pred, ordered, rel_tol, seed=1
    )


def _rounded_decimal(
    decimal: sympy.Expr,
    exact: sympy.Expr,
    ctx: Grading,
    written: Mapping[Fraction, Number],
    digits: int,
) -> bool:
    """`decimal` was written as a decimal (in `written`, one side's) and is `exact` (not one)
    rounded, with at least `digits` significant digits."""
    if not decimal.is_Rational or exact.free_symbols:
        return False
    number = written.get(Fraction(int(decimal.p), int(decimal.q)))
    if number is None:
        return False
    if exact.is_Rational and ctx.written_decimal(Fraction(int(exact.p), int(exact.q))):
        return False  # two written decimals compare exactly
    return _rounds(exact, number, ctx.conv, digits)


def _constants_equal(gold: sympy.Expr, pred: sympy.Expr, ctx: Grading) -> bool:
    if gold.is_rational and pred.is_rational:
        # exact values stay exact: 10^50 + 1 is not 10^50, 1/2004! is not 1/2006!
        exact_gold, exact_pred = gold.doit(), pred.doit()
        if exact_gold.is_Rational and exact_pred.is_Rational:
            return bool(exact_gold == exact_pred)
        return bool(sympy.simplify(exact_gold - exact_pred) == 0)
    if not (gold.is_number and pred.is_number):
        return False
    return not differ(gold, pred, ctx.conv.rel_tol)


def _relational_equal(gold: Any, pred: Any, ctx: Grading) -> bool:
    if not isinstance(pred, Relational):
        value = _gold_value(gold)  # `AB = 4`, `(p, q) = (3, 2)`: the ground truth's value
        return not isinstance(value, Relational) and equivalent(value, pred, ctx)
    if not isinstance(gold, Relational):
        value = _named_value(pred)  # `x = 3` against `3`; not `x + 1 = 3`
        if isinstance(value, sympy.Eq) and not _free(value.lhs) and not _free(value.rhs):
            # `\\frac{1}{2} + 3 = \\frac{7}{2}`: its result, if the equation is true (`4 = 3`
            # is not)
            if not equivalent(value.lhs, value.rhs, ctx):
                return False
            value = value.rhs
        return not isinstance(value, Relational) and equivalent(gold, value, ctx)
    if isinstance(gold, sympy.Eq) and isinstance(pred, sympy.Eq):
        if equivalent(gold.lhs, pred.lhs, ctx) and equivalent(gold.rhs, pred.rhs, ctx):
            return True
        if equivalent(gold.lhs, pred.rhs, ctx) and equivalent(gold.rhs, pred.lhs, ctx):
            return True
        return proportional(gold.lhs - gold.rhs, pred.lhs - pred.rhs, positive=False)
    gold_form, pred_form = _inequality_form(gold), _inequality_form(pred)
    if gold_form is None or pred_form is None:
        return type(gold) is type(pred) and proportional(
            gold.lhs - gold.rhs, pred.lhs - pred.rhs, positive=False
        )
    (gold_expr, gold_strict), (pred_expr, pred_strict) = gold_form, pred_form
    return gold_strict == pred_strict and proportional(gold_expr, pred_expr, positive=True)


def _inequality_form(rel: Relational) -> tuple[sympy.Expr, bool] | None:
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


def _gold_value(gold: Any) -> Any:
    """A ground-truth equation `AB = 4`, `|AB| = 1`, `V_1 : V_2 = 11 : 21` names its value.

    Not `a + 3z = 0`: a left side with a sum is a condition, not a name.
    """
    if (
        isinstance(gold, sympy.Eq)
        and not _free(gold.rhs)
        and _free(gold.lhs)
        and not gold.lhs.has(sympy.Add)
    ):
        return gold.rhs
    return _named_value(gold)


def _named_value(expr: Any) -> Any:
    """`x = 3`, `f(x) = x^2`, `(p, q) = (3, 2)`: a bare name on the left names the right side."""
    if isinstance(expr, sympy.Eq) and _is_name(expr.lhs):
        return expr.rhs
    return expr


def _is_name(expr: Any) -> bool:
    if isinstance(expr, sympy.Symbol | AppliedUndef):
        return True
    return isinstance(expr, sympy.Tuple) and all(_is_name(e) for e in expr)


def _free(expr: Any) -> bool:
    return bool(getattr(expr, "free_symbols", False))


def _undefined(value: Any) -> bool:
    return isinstance(value, sympy.Basic) and value.has(sympy.zoo, sympy.nan)


def _membership(value: Any) -> Any:
    """`x \\in S` (parsed as `Eq(x, S)`) answers with the set S."""
    if isinstance(value, sympy.Eq) and isinstance(value.rhs, sympy.Set) and _is_name(value.lhs):
        return value.rhs
    return value


def _set_like(value: Any) -> bool:
    """A set, or a pair with an infinite end (`(-\\infty, 2)` can only be an interval)."""
    if isinstance(value, sympy.Set):
        return True
    return (
        isinstance(value, sympy.Tuple)
        and len(value) == 2
        and any(end in (sympy.oo, -sympy.oo) for end in value)
    )


def _inequalities_as_union(value: Any) -> Any:
    """`x \\le -2 \\text{ or } x \\ge 2` (a listing of one-variable inequalities) against a set:
    the union of their intervals."""
    if not (isinstance(value, sympy.FiniteSet) and len(value) > 1):
        return value
    if len(set().union(*(getattr(item, "free_symbols", set()) for item in value.args))) != 1:
        return value  # `x \\le -2` or `y \\ge 2`: two unknowns, not one set
    intervals = [_as_interval(item, True) for item in value.args]
    if all(isinstance(item, sympy.Interval) for item in intervals):
        return sympy.Union(*intervals)
    return value


def _as_interval(value: Any, single: bool) -> Any:
    """`a < x <= b` (one variable between two constants) is the interval (a, b]; `x < 2` is
    (-oo, 2)."""
    if single and isinstance(value, Relational) and not isinstance(value, sympy.Eq | sympy.Ne):
        form = _bound(value)
        if form is not None and isinstance(form[1], sympy.Symbol):
            side, _, bound, is_open = form
            if side == "low":
                return sympy.Interval(bound, sympy.oo, left_open=is_open, right_open=True)
            return sympy.Interval(-sympy.oo, bound, left_open=True, right_open=is_open)
        return value
    if not isinstance(value, sympy.And) or len(value.args) != 2:
        return value
    if single and len(value.free_symbols) == 1:
        # `1 <= |z| <= 3/2` against a set: the real solutions, as a union of intervals
        (symbol,) = value.free_symbols
        try:
            solved = sympy.Intersection(
                *(sympy.solveset(rel, symbol, domain=sympy.S.Reals) for rel in value.args)
            )
        except (NotImplementedError, TypeError, ValueError):
            solved = None
        if isinstance(solved, sympy.Interval | sympy.Union):
            return solved
    bounds: dict[str, tuple[Any, bool]] = {}
    variable = None
    for rel in value.args:
        form = _bound(rel)
        if form is None:
            return value
        side, term, bound, is_open = form
        if variable is not None and term != variable:
            return value
        variable = term
        bounds[side] = (bound, is_open)
    if set(bounds) != {"low", "high"}:
        return value
    (low, low_open), (high, high_open) = bounds["low"], bounds["high"]
    return sympy.Interval(low, high, left_open=low_open, right_open=high_open)


def _bound(rel: Any) -> tuple[str, Any, Any, bool] | None:
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
    if _free(big) and not _free(small):
        return "low", big, small, is_open
    if _free(small) and not _free(big):
        return "high", small, big, is_open
    return None


def _set_equal(gold: Any, pred: Any, ctx: Grading) -> bool:
    if isinstance(gold, sympy.Tuple) and isinstance(pred, sympy.FiniteSet):
        # an ordered answer is matched by a listing only in that order (`1, 3` for `(1, 3)`)
        return len(gold) == len(pred) and all(
            _element_equal(a, b, ctx) for a, b in zip(gold, pred.args, strict=True)
        )
    gold_items = _as_items(gold)
    pred_items = _as_items(pred)
    if gold_items is None or pred_items is None:
        return False
    return _unordered_equal(gold_items, pred_items, ctx)


def _element_equal(gold: Any, pred: Any, ctx: Grading) -> bool:
    """Two elements of a set, tuple or matrix: `{5}` answers `5` only at the top level, so a
    set inside a structure equals only a set (`\\{1, \\{2\\}\\}` is not `\\{1, 2\\}`)."""
    kinds = {_element_kind(gold), _element_kind(pred)}
    if len(kinds) > 1 and kinds != {"interval", "tuple"}:
        return False  # an open pair `(a, b)` may be either; nothing else changes kind
    return equivalent(gold, pred, ctx)


def _element_kind(value: Any) -> str:
    """`interval` (also an open pair), `set`, `tuple` or `scalar`."""
    if isinstance(value, sympy.Interval):
        return "interval"
    if isinstance(value, sympy.Set):
        return "set"
    if isinstance(value, sympy.Tuple):
        return "tuple"
    return "scalar"


def _sets_equal(gold: Any, pred: Any) -> bool:
    """Other sets (`\\mathbb{R} \\setminus \\{2\\}`, intersections): compared once SymPy has
    evaluated them to intervals and unions, exactly."""
    if not (isinstance(gold, sympy.Set) and isinstance(pred, sympy.Set)):
        return False
    return bool(_evaluated_set(gold) == _evaluated_set(pred))


def _evaluated_set(value: sympy.Set) -> Any:
    if isinstance(value, sympy.Complement | sympy.Intersection | sympy.Union):
        return value.func(*(_evaluated_set(arg) for arg in value.args))
    return value


def _as_items(value: Any) -> list[Any] | None:
    if isinstance(value, sympy.FiniteSet):
        return list(value.args)
    if isinstance(value, sympy.Tuple):
        return list(value.args)  # `(-2, 1)` listing the roots `{-2, 1}`
    if isinstance(value, sympy.Expr):
        return [value]  # `{5}` vs `5`
    return None


def _unordered_equal(gold: list[Any], pred: list[Any], ctx: Grading) -> bool:
    if len(gold) != len(pred):
        return False
    for named, other in ((gold, pred), (pred, gold)):
        names = {g.lhs for g in named if isinstance(g, sympy.Eq) and _is_name(g.lhs)}
        if len(names) > 1 and not all(isinstance(p, sympy.Eq) for p in other):
            return False  # `x = 3, y = 2` against bare values: which value is which is unknown
    unused = list(pred)
    for item in gold:
        for index, other in enumerate(unused):
            if _element_equal(item, other, ctx):
                del unused[index]
                break
        else:
            return False
    return True


def _named_listing_equal(gold: Any, pred: Any, ctx: Grading) -> bool:
    """`x = -5, p = 14/3` answered by `-5, 14/3`: the bare values, in the order the ground truth
    names them. The parsed sets have lost that order, so both texts are split where written."""
    named = isinstance(gold, sympy.FiniteSet) and all(
        isinstance(g, sympy.Eq) and _is_name(g.lhs) for g in gold.args
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
        if not (isinstance(equation, sympy.Eq) and _is_name(equation.lhs) and value is not None):
            return False
        if isinstance(value, Relational) or not equivalent(equation.rhs, value, ctx):
            return False
    return True


def _ordered_listing(latex: str) -> Any:
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


def _interval_equal(gold: Any, pred: Any, ctx: Grading) -> bool:
    if isinstance(gold, sympy.Interval) and isinstance(pred, sympy.Interval):
        return (
            gold.left_open == pred.left_open
            and gold.right_open == pred.right_open
            and equivalent(gold.left, pred.left, ctx)
            and equivalent(gold.right, pred.right, ctx)
        )
    # `(a, b)` is both an open interval and a pair: accept the pair against the open interval
    interval, other = (gold, pred) if isinstance(gold, sympy.Interval) else (pred, gold)
    if isinstance(other, sympy.Tuple) and len(other) == 2:
        return (
            bool(interval.left_open and interval.right_open)
            and equivalent(interval.left, other[0], ctx)
            and equivalent(interval.right, other[1], ctx)
        )
    return False


def _rounds(exact: Any, decimal: Number, conv: Conventions, digits: int | None = None) -> bool:
    """A decimal written to d places that is `exact` rounded (the documented rule), with at
    least `digits` significant digits (the response's setting unless given)."""
    if not isinstance(exact, sympy.Expr) or exact.free_symbols or not exact.is_real:
        return False
    try:
        value = exact.evalf(PRECISION_DIGITS)
        fraction = Fraction(str(sympy.Rational(str(value))))
    except (TypeError, ValueError):
        return False
    needed = conv.min_rounded_digits if digits is None else min(digits, conv.min_rounded_digits)
    return rounds_to(fraction, decimal, needed)


def _scale(value: Any, factor: sympy.Rational) -> Any:
    if isinstance(value, sympy.Expr):
        return value * factor
    return value


def _show(value: Any, latex: str) -> str:
    if value is None:
        return latex[:200]
    try:
        text = str(value)
    except ValueError:  # an integer too long to print (2006!): show what was written
        text = latex
    return text if len(text) <= 200 else text[:199] + "…"
