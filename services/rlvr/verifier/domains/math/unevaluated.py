"""Is the answer an evaluated value? Decided on the parsed expression tree, before SymPy evaluates.

A policy asked "what is 17·23?" can restate the question (`(17)(23)`, `\\frac{17\\times 23}{1}`,
`17 \\times 23^{1}`, `\\int_0^1 x^2\\,dx` for 1/3) and, under a grader that evaluates
expressions, collect the reward without doing the work. So both sides are parsed once more with
SymPy's evaluation switched off, and the constructs each tree uses are listed (`arithmetic` on
literal numbers, `power`, `root`, each function, each calculus operator, the constants pi, e, i).
When the ground truth is a value (no unknowns), the answer may use only constructs the ground
truth uses, and no unknowns: `2\\sqrt{3}` answers `\\sqrt{12}`, `2^{-99}` answers
`\\frac{1}{2^{99}}`, but `2^{10}` does not answer 1024 and `17(23)` does not answer 391.
Canonical number spellings are not constructs: a fraction of two integers, a decimal,
scientific notation (`1.5 \\times 10^{3}`), a sign. An unevaluated integral, limit, sum, product
or derivative is refused whatever the ground truth, unless it uses the same operator.
"""

from __future__ import annotations

import re
from typing import Any

import sympy
from sympy.core.relational import Relational
from sympy.matrices.expressions import MatrixExpr

_CALCULUS = (
    sympy.Integral,
    sympy.Limit,
    sympy.Sum,
    sympy.Product,
    sympy.Derivative,
    sympy.Subs,
)
_CONSTANTS = {sympy.pi: "pi", sympy.E: "e", sympy.I: "i"}
_INEQUALITIES = (
    sympy.StrictLessThan,
    sympy.LessThan,
    sympy.StrictGreaterThan,
    sympy.GreaterThan,
)


def is_value(gold_value: Any) -> bool:
    """Whether an (evaluated) ground truth is a value: no unknowns once names are set aside."""
    if isinstance(gold_value, Relational | sympy.And):
        return False
    return not _free_symbols(_value_parts(gold_value))


def unevaluated_reason(
    gold_tree: Any,
    pred_tree: Any,
    value: bool,
    signs: tuple[bool, bool] = (False, False),
    form_rules: bool = True,
) -> str | None:
    """Why the answer (`pred_tree`, unevaluated) is not an evaluated answer, or None.

    `gold_tree` is the ground truth unevaluated; `value` says whether it is a value (see
    `is_value`). `pred_tree` None means the answer could not be read as written. `signs` says
    whether the ground truth and the answer, as written, stack signs (`stacked_signs`).
    """
    is_value = value
    if pred_tree is None:
        return "the response could not be read as written" if is_value else None
    gold_forms = forms(gold_tree) if gold_tree is not None else set()
    pred_forms = forms(pred_tree)
    calculus = {f for f in pred_forms - gold_forms if f.startswith("unevaluated ")}
    if calculus:
        return f"{sorted(calculus)[0]}: give its value, not the expression"
    if not is_value:
        return None
    parts = _value_parts(pred_tree)
    unknowns = _free_symbols(parts)
    if unknowns:
        names = ", ".join(sorted(str(s) for s in unknowns)[:3])
        return f"an expression in {names} where a value is expected"
    extra = set().union(*(forms(part) for part in parts)) - gold_forms if parts else set()
    if not form_rules:
        extra -= RELAXED_FOR_VALUES
    if signs[1] and not signs[0]:
        extra.add("a sign on a signed number")
    if extra:
        return (
            f"not an evaluated value (uses {', '.join(sorted(extra))}, which the ground truth "
            "does not): give the value, not the computation"
        )
    return None


# A unary sign (at the start, or after an opener, a relation or a comma) whose operand starts
# with another sign, through any grouping: `-(-3)`, `--3`, `-\\left(+3\\right)`. The parser folds
# such signs into the number, so the tree alone cannot show the computation.
_STACKED_SIGNS_RE = re.compile(
    r"(?:^|[({\[=,]|\\left[(\[])\s*[-+]\s*"
    r"(?:(?:(?:\\left)?[({\[]|\\[dt]?frac\s*\{)\s*)*[-+]"
)


def stacked_signs(latex: str) -> bool:
    """Whether the text applies a sign to a signed operand (a computation the parse hides)."""
    return bool(_STACKED_SIGNS_RE.search(latex))


def forms(tree: Any) -> set[str]:
    """The constructs a parsed (unevaluated) tree uses, beyond canonical number spellings."""
    found: set[str] = set()
    _walk(tree, found, 0)
    return found


def _walk(node: Any, found: set[str], depth: int) -> None:
    if depth > 200:
        found.add("deep nesting")
        return
    if isinstance(node, sympy.MatrixBase):
        for element in node:
            _walk(element, found, depth + 1)
        return
    if isinstance(node, MatrixExpr):
        found.add("matrix operation")
    if not isinstance(node, sympy.Basic):
        return
    if isinstance(node, _CALCULUS):
        found.add(f"unevaluated {type(node).__name__.lower()}")
        return
    if node in _CONSTANTS:
        found.add(_CONSTANTS[node])
        return
    if node.is_Atom:
        return
    if _is_plain(node):
        if _unreduced(node):
            found.add("unreduced fraction")
        return
    if isinstance(node, sympy.Mul) and len(node.args) == 2 and node.args[0] == -1:
        if _negated(node.args[1]):
            found.add("arithmetic")  # `-(-3)`: a sign on a sign is a computation
        _walk(node.args[1], found, depth + 1)  # a sign
        return
    if isinstance(node, sympy.Add | sympy.Mul):
        signs = [arg for arg in node.args if isinstance(node, sympy.Mul) and arg == -1][:1]
        if sum(_is_plain(arg) for arg in node.args) - len(signs) >= 2:
            found.add("arithmetic")
        constant_terms = [a for a in node.args if not _is_plain(a) and not _free_symbols([a])]
        powers = sum(isinstance(a, sympy.Pow) for a in constant_terms)
        if isinstance(node, sympy.Mul) and powers >= 2:
            found.add("a product of powers or roots")  # `2^{10} \cdot 2^{90}`, `\sqrt2\sqrt3`
        if isinstance(node, sympy.Mul) and _common_factor_quotient(node):
            found.add("a fraction with a common factor")  # `\frac{4x}{2}` for `2x`
        found |= _operations_left(node)
    elif isinstance(node, sympy.Pow):
        base, exponent = node.args
        if _is_plain(exponent):
            exponent = exponent.doit()  # `2^{1/2}`: the exponent written as a fraction
        if exponent.is_Rational and not exponent.is_Integer:
            found.add("root")
            if _unsimplified_root(base, exponent):
                found.add("an unsimplified radical")
        elif exponent != -1:
            found.add("power")
            if isinstance(base, sympy.Pow) and base.args[1] not in (-1, sympy.S.Half):
                found.add("a power of a power")  # `(2^{50})^2` for `2^{100}`
        if (exponent.is_negative or exponent == -1) and _has_root(base):
            found.add("a radical in a denominator")
        if (exponent.is_negative or exponent == -1) and base.has(sympy.I):
            found.add("i in a denominator")  # `\frac{1}{i}` for `-i`
    elif isinstance(node, sympy.Function | sympy.Max | sympy.Min):
        found.add(type(node).__name__)
    elif isinstance(node, sympy.Mod):
        found.add("Mod")
    for arg in node.args:
        _walk(arg, found, depth + 1)


# Operations that a written sum or product can still leave to do, whatever constructs it uses:
# the ground truth's own form decides whether it has done them (`2^{100}` has combined its
# powers, `2x` collected its terms, `6x` multiplied its numbers). Each is read on one node of
# the tree as written, its nested sums or products flattened first (`2\pi \cdot 3` is one
# product of three factors), so no grouping hides one.
LIKE_TERMS = "like terms not collected"
SAME_BASE = "powers of one base not combined"
NUMBERS_MULTIPLIED = "a product of numbers not evaluated"
SUMS_MULTIPLIED = "a product of sums of numbers not expanded"
NO_EFFECT = "an operation with no effect (a term 0, a factor 1)"


def _operations_left(node: Any) -> set[str]:
    """The operations left to do in one sum or product (see `LIKE_TERMS` and the others)."""
    found: set[str] = set()
    if isinstance(node, sympy.Add):
        terms = _terms(node)
        if _has_like_terms(terms):
            found.add(LIKE_TERMS)  # `x + x`, `2\pi + 4\pi`, `2(x+1) - 2`, `(1+2i)+(3-i)`
        if any(term == 0 for term in terms):
            found.add(NO_EFFECT)  # `x + 0`
        return found
    factors = _factors(node)
    if _numbers_multiplied(factors):
        found.add(NUMBERS_MULTIPLIED)  # `3 \cdot 2x`, `2\pi \cdot 3`
    if _numbers_with_common_factor(factors):
        found.add("a fraction with a common factor")  # `\frac{6\pi}{2}`, `6 \cdot \frac{\pi}{2}`
    if any(factor == 1 or factor == sympy.Pow(1, -1, evaluate=False) for factor in factors):
        found.add(NO_EFFECT)  # `1 \cdot x`, `\frac{x}{1}`
    bases = [base for base in map(_power_base, factors) if base is not None]
    if len(set(bases)) < len(bases):
        found.add(SAME_BASE)  # `2 \cdot 2^{99}`, `4 \cdot 2^{98}`, `\pi \cdot \pi`, `x^2 x^3`
    constant_sums = [f for f in factors if isinstance(f, sympy.Add) and not _free_symbols([f])]
    if len(constant_sums) >= 2:
        found.add(SUMS_MULTIPLIED)  # `(3+2i)(1-i)` for `5-i`
    return found


def _factors(node: Any) -> list[Any]:
    """The factors of a product as written, nested products flattened; a number as one writes
    it (`\\frac{3}{2}`, `1.5 \\times 10^{3}`) stays one factor."""
    if isinstance(node, sympy.Mul) and not _is_plain(node):
        return [factor for arg in node.args for factor in _factors(arg)]
    return [node]


def _terms(node: Any) -> list[Any]:
    """The terms of a sum as written, nested sums flattened and a number times a sum
    distributed (`2(x+1) - 2` -> `x`, `1`, `-2`, coefficients aside: only the terms' kinds
    matter)."""
    if isinstance(node, sympy.Add):
        return [term for arg in node.args for term in _terms(arg)]
    if isinstance(node, sympy.Mul):
        factors = _factors(node)
        sums = [f for f in factors if isinstance(f, sympy.Add)]
        if len(sums) == 1 and all(f is sums[0] or _is_plain(f) for f in factors):
            return _terms(sums[0])
    return [node]


def _has_like_terms(terms: list[Any]) -> bool:
    """Two terms that differ only in their numeric coefficient (two numbers included)."""
    seen: set[tuple[str, ...]] = set()
    for term in terms:
        kind = tuple(sorted(str(f) for f in _factors(term) if not _is_number_factor(f)))
        if kind in seen:
            return True
        seen.add(kind)
    return False


def _is_number_factor(node: Any) -> bool:
    return isinstance(node, sympy.Number) or _is_plain(node)


def _numbers_multiplied(factors: list[Any]) -> bool:
    """Two numbers in one product, where one number would do: two multipliers (`3 \\cdot 2x`)
    or two divisors (`\\frac{x}{2} \\cdot \\frac{1}{3}`). One of each is a fraction written
    around the rest (`\\frac{3x}{2}`), and a sign is not a number."""
    multipliers = divisors = 0
    for factor in factors:
        if factor == -1 or not _is_number_factor(factor):
            continue
        if isinstance(factor, sympy.Pow) and factor.args[1] == -1:
            divisors += 1
        else:
            multipliers += 1
    return multipliers >= 2 or divisors >= 2


def _numbers_with_common_factor(factors: list[Any]) -> bool:
    """One integer multiplier and one integer divisor that share a factor (`\\frac{6\\pi}{2}`):
    a fraction left to reduce, however the rest of the product is written."""
    multipliers = [f for f in factors if isinstance(f, sympy.Integer) and abs(int(f)) > 1]
    divisors = [
        f.args[0]
        for f in factors
        if isinstance(f, sympy.Pow) and f.args[1] == -1 and isinstance(f.args[0], sympy.Integer)
    ]
    if len(multipliers) != 1 or len(divisors) != 1:
        return False
    return sympy.igcd(abs(int(multipliers[0])), abs(int(divisors[0]))) > 1


def _power_base(factor: Any) -> Any:
    """The base a factor is a power of, for combining powers (`2^{99}` and `2` -> 2, `4` -> 2,
    `\\pi` -> pi, `x^3` -> x); None for a sign, a root (`\\frac{\\sqrt2}{2}` has nothing to
    combine) or a number that is no integer power."""
    base, exponent = factor.args if isinstance(factor, sympy.Pow) else (factor, sympy.S.One)
    if isinstance(exponent, sympy.Rational) and not exponent.is_Integer:
        return None
    if isinstance(base, sympy.Number):
        if not (base.is_Integer and base > 1) or base > 10**12:
            return None
        perfect = sympy.perfect_power(int(base))
        return sympy.Integer(perfect[0]) if perfect else base
    return base


def _unsimplified_root(base: Any, exponent: Any) -> bool:
    """`\\sqrt{50}`, `\\sqrt[3]{16}`: an integer under a root with a perfect-power factor."""
    if not (isinstance(base, sympy.Integer) and exponent.q > 1) or abs(int(base)) > 10**12:
        return False
    factors = sympy.factorint(abs(int(base)), limit=10**4)
    return any(power >= exponent.q for power in factors.values())


def _has_root(node: Any) -> bool:
    if not isinstance(node, sympy.Basic):
        return False
    return any(
        isinstance(sub, sympy.Pow) and sub.args[1].is_Rational and not sub.args[1].is_Integer
        for sub in sympy.preorder_traversal(node)
    )


# the form rules that a setting (`form_rules`) relaxes for a ground truth that is a value: how
# a value is written (radicals, denominators), not whether it was computed
RELAXED_FOR_VALUES = frozenset(
    [
        "an unsimplified radical",
        "a radical in a denominator",
        "i in a denominator",
        "a product of powers or roots",
        "a power of a power",
        "a fraction with a common factor",
    ]
)
# the form rules that hold for every ground truth, values or expressions: an answer may not
# use one of these when the ground truth does not (for a value ground truth, every construct
# it does not use is refused, these included)
FORM_RULES_FOR_EXPRESSIONS = RELAXED_FOR_VALUES | {
    LIKE_TERMS,
    SAME_BASE,
    NUMBERS_MULTIPLIED,
    SUMS_MULTIPLIED,
    NO_EFFECT,
}


def expression_form_reason(gold_tree: Any, pred_tree: Any, form_rules: bool = True) -> str | None:
    """Why an answer with unknowns cannot answer the ground truth as written, or None.

    Always: a piecewise function, or a function against a function-free ground truth, or an
    unknown the ground truth lacks (equality a sampler cannot be trusted with). With
    `form_rules` (the default): expanded against a factored ground truth (`x^2+5x+6` for
    `(x+2)(x+3)`), a product of sums against an expanded one, a denominator with unknowns the
    ground truth lacks, or one of `FORM_RULES_FOR_EXPRESSIONS` the ground truth is free of.
    """
    if gold_tree is None or pred_tree is None:
        return None
    pred_forms, gold_forms = forms(pred_tree), forms(gold_tree)
    # `\\min(x, 100)`, `x + \\lfloor x^2/200 \\rfloor`: a piecewise function the ground truth is
    # free of can agree with it wherever a sampler looks and differ elsewhere; and a ground truth
    # free of functions is not answered by functions (`e^{\\ln x}` for x), while one with
    # functions may be answered by others (`\\sec^2 y` for `\\tan^2 y + 1`)
    gold_has_functions = any(_is_function(f) for f in gold_forms)
    piecewise = {
        f
        for f in pred_forms - gold_forms
        if f in PIECEWISE_FORMS or (_is_function(f) and not gold_has_functions)
    }
    if "root" in gold_forms:
        piecewise.discard("Abs")  # `|x|` for `\\sqrt{x^2}`: an even root is an absolute value
    if piecewise:
        return f"uses {', '.join(sorted(piecewise))}, which the ground truth does not"
    if _free_symbols([pred_tree]) - _free_symbols([gold_tree]):
        return "an unknown the ground truth does not have"
    if not form_rules:
        return None  # the rules above are about equality; those below about form (a setting)
    if _factored(gold_tree) and isinstance(pred_tree, sympy.Add):
        return "an expanded expression where the ground truth is factored: factor it"
    if _factored(gold_tree) and _factor_count(pred_tree) < _factor_count(gold_tree):
        # `1 \cdot (x^2-4)`, `-(4-x^2)` for `(x-2)(x+2)`; `(x^2-4)(x^2+4)` for three factors
        return "not factored as far as the ground truth: fewer factors with unknowns"
    expanded_gold = isinstance(gold_tree, sympy.Add) and not _has_product_of_sums(gold_tree)
    if expanded_gold and _has_product_of_sums(pred_tree):
        return "a product of sums where the ground truth is expanded: expand it"
    if _has_denominator_with_unknowns(pred_tree) and not _has_denominator_with_unknowns(gold_tree):
        return "a fraction left to simplify (the ground truth has no denominator with unknowns)"
    extra = (pred_forms - gold_forms) & FORM_RULES_FOR_EXPRESSIONS
    if extra:
        return f"not in the ground truth's form (uses {', '.join(sorted(extra))})"
    return None


# functions whose value is piecewise: never sampled into equality unless the ground truth has one
PIECEWISE_FORMS = frozenset(["Min", "Max", "floor", "ceiling", "frac", "sign", "Abs", "Mod"])


def _is_function(form: str) -> bool:
    """Whether a form is a SymPy function's name (`sin`, `exp`, `log`), as `_walk` records."""
    return isinstance(getattr(sympy, form, None), sympy.FunctionClass)


def _has_denominator_with_unknowns(tree: Any) -> bool:
    if not isinstance(tree, sympy.Basic):
        return False
    return any(
        isinstance(sub, sympy.Pow)
        and (sub.args[1].is_negative or sub.args[1] == -1)
        and bool(_free_symbols([sub.args[0]]))
        for sub in sympy.preorder_traversal(tree)
    )


def _sum_with_unknowns(node: Any) -> bool:
    return isinstance(node, sympy.Add) and bool(_free_symbols([node]))


def _factored(tree: Any) -> bool:
    """A product of sums of unknowns (`(x+2)(x+3)`, `x(x+1)`) or a power of one (`(x-1)^2`).

    A single sum scaled by a constant (`2(x+1)`, `\\frac{x+2}{7}`) is not factored: its
    expansion (`2x+2`, `\\frac{x}{7}+\\frac{2}{7}`) is as simple a form of it.
    """
    if isinstance(tree, sympy.Pow):
        exponent = tree.args[1]
        return _sum_with_unknowns(tree.args[0]) and bool(exponent.is_Integer and exponent > 1)
    if isinstance(tree, sympy.Mul):
        with_unknowns = [arg for arg in tree.args if _free_symbols([arg])]
        has_sum = any(
            _sum_with_unknowns(arg) or (isinstance(arg, sympy.Pow) and _factored(arg))
            for arg in with_unknowns
        )
        return has_sum and (
            len(with_unknowns) >= 2 or any(isinstance(a, sympy.Pow) for a in with_unknowns)
        )
    return False


def _factor_count(tree: Any) -> int:
    """How many factors with unknowns a product has, powers counted with their exponent:
    `(x-2)(x+2)` 2, `x^2(x+1)` 3, `-(4-x^2)` 1, a constant 0."""
    if not isinstance(tree, sympy.Basic) or not _free_symbols([tree]):
        return 0
    if isinstance(tree, sympy.Mul):
        return sum(_factor_count(arg) for arg in tree.args)
    if isinstance(tree, sympy.Pow):
        base, exponent = tree.args
        if exponent.is_Integer and exponent > 0:
            return int(min(exponent, 64)) * _factor_count(base)
    return 1


def _common_factor_quotient(node: Any) -> bool:
    """A quotient by an integer that shares a factor with its numerator's integer content
    (`\frac{4x}{2}`, `\frac{2x+4}{6}`): a fraction left to reduce."""
    reciprocals = [
        arg
        for arg in node.args
        if isinstance(arg, sympy.Pow)
        and arg.args[1] == -1
        and isinstance(arg.args[0], sympy.Integer)
        and abs(int(arg.args[0])) > 1
    ]
    if len(reciprocals) != 1:
        return False
    rest = [arg for arg in node.args if arg is not reciprocals[0]]
    if not _free_symbols(rest):
        return False  # a number: the plain-number rules judge it
    try:
        content, _ = sympy.Mul(*rest).as_content_primitive()
    except (TypeError, ValueError, AttributeError):
        return False
    if not isinstance(content, sympy.Rational) or content.q != 1:
        return False
    denominator = abs(int(reciprocals[0].args[0]))
    return sympy.igcd(abs(int(content.p)), denominator) > 1


def _has_product_of_sums(tree: Any) -> bool:
    if not isinstance(tree, sympy.Basic):
        return False
    return any(
        isinstance(sub, sympy.Mul | sympy.Pow) and _factored(sub)
        for sub in sympy.preorder_traversal(tree)
    )


def _is_plain(node: Any) -> bool:
    """A number as one writes a value: integer, decimal, `p/q`, `a \\times 10^k`, with a sign."""
    if isinstance(node, sympy.Number):
        return True  # integers, decimals, and the infinities (`\\infty - 1` is arithmetic)
    if isinstance(node, sympy.Pow):
        base, exponent = node.args
        if isinstance(base, sympy.Number) and exponent == -1:
            return base != 0
        return bool(base == 10 and isinstance(exponent, sympy.Integer))
    if isinstance(node, sympy.Mul) and len(node.args) == 2:
        first, second = node.args
        if first == -1:
            return _is_plain(second) and not _negated(second)
        if isinstance(first, sympy.Number) and isinstance(second, sympy.Pow):
            base, exponent = second.args
            if isinstance(base, sympy.Number) and exponent == -1:
                return base != 0  # p/q
            return bool(base == 10 and isinstance(exponent, sympy.Integer))  # a x 10^k
    return False


def _negated(node: Any) -> bool:
    """A negative literal or a signed term: another sign on it is arithmetic, not a spelling."""
    if isinstance(node, sympy.Number):
        return bool(node.is_negative)
    return isinstance(node, sympy.Mul) and len(node.args) >= 1 and node.args[0] == -1


def _unreduced(node: Any) -> bool:
    """`\\frac{10}{2}`, `\\frac{6}{8}`, `\\frac{5}{1}`: not in lowest terms."""
    if isinstance(node, sympy.Mul) and len(node.args) == 2 and node.args[0] == -1:
        return _unreduced(node.args[1])
    if not (isinstance(node, sympy.Mul) and len(node.args) == 2):
        return False
    numerator, reciprocal = node.args
    if not (isinstance(reciprocal, sympy.Pow) and reciprocal.args[1] == -1):
        return False
    denominator = reciprocal.args[0]
    if not (isinstance(numerator, sympy.Integer) and isinstance(denominator, sympy.Integer)):
        return False
    return abs(int(denominator)) == 1 or sympy.gcd(numerator, denominator) != 1


def _value_parts(tree: Any) -> list[Any]:
    """The parts of an answer that carry its value: `x = 3` -> [3], `x \\in [1, 2]` -> the set,
    `x < 2` -> [2], `\\{x = 1, y = 2\\}` -> [1, 2]; the names on the left are not unknowns."""
    if isinstance(tree, sympy.Eq):
        lhs, rhs = tree.args
        if _is_name(lhs) or not _free_symbols([lhs]):
            return _value_parts(rhs)
        return [tree]
    if isinstance(tree, _INEQUALITIES):
        lhs, rhs = tree.args
        if isinstance(lhs, sympy.Symbol) and not _free_symbols([rhs]):
            return [rhs]
        if isinstance(rhs, sympy.Symbol) and not _free_symbols([lhs]):
            return [lhs]
        return [tree]
    if isinstance(tree, sympy.And):
        return [part for arg in tree.args for part in _value_parts(arg)]
    if isinstance(tree, sympy.FiniteSet | sympy.Tuple):
        return [part for arg in tree.args for part in _value_parts(arg)]
    if isinstance(tree, Relational):
        return [tree]
    return [tree]


def _is_name(value: Any) -> bool:
    from sympy.core.function import AppliedUndef

    if isinstance(value, sympy.Symbol | AppliedUndef):
        return True
    return isinstance(value, sympy.Tuple) and all(_is_name(v) for v in value)


def _free_symbols(parts: list[Any]) -> set[Any]:
    found: set[Any] = set()
    for part in parts:
        if isinstance(part, sympy.MatrixBase):
            for element in part:
                found |= getattr(element, "free_symbols", set())
        else:
            found |= getattr(part, "free_symbols", set())
    return found
