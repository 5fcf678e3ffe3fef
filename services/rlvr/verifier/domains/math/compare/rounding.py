"""The documented decimal rule: a decimal written to d places answers the exact value it rounds.

Only a written decimal is forgiven, never an exact value (`\\frac{22}{7}` is not 3.14), and two
written decimals compare exactly; the decimal needs enough significant digits (the setting
`min_rounded_digits`, or fewer for a ground truth written as a decimal).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import sympy

from rlvr.verifier.domains.math.equality import PRECISION_DIGITS
from rlvr.verifier.domains.math.numbers import Number, parse_number, rounds_to
from rlvr.verifier.domains.math.verdict import Conventions

if TYPE_CHECKING:
    from rlvr.verifier.domains.math.compare.context import Grading

_DECIMAL_LITERAL_RE = re.compile(r"(?<![\d.])\d*\.\d+(?![\d.])")


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


def rounded_decimal(
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
    return rounds(exact, number, ctx.conv, digits)


def rounds(exact: Any, decimal: Number, conv: Conventions, digits: int | None = None) -> bool:
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
