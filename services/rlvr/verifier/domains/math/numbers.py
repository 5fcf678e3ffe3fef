"""Plain numbers as exact fractions (no SymPy): integers, decimals, fractions, scientific notation.

`parse_number` reads a normalised key; `numbers_equal` compares two numbers exactly, with the one
documented leniency that a decimal written to d places matches an exact value whose rounding to
d places it is (at least `min_rounded_digits` significant digits).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

MAX_EXPONENT = 400  # 10^400 is still cheap as a Fraction; bigger goes to the killable pool
MAX_DIGITS = 400
GOLD_ROUNDED_DIGITS = 3  # a ground truth written as 0.333 stands for 1/3

_SIGN = r"[+-]?"
_INT_RE = re.compile(rf"^({_SIGN})(\d+)$")
_THOUSANDS_RE = re.compile(rf"^({_SIGN})([1-9]\d{{0,2}}(?:,\d{{3}})+)(\.\d+)?$")
_DECIMAL_RE = re.compile(rf"^({_SIGN})(\d*)\.(\d+)$")
_INT_DOT_RE = re.compile(rf"^({_SIGN})(\d+)\.$")
_SCI_RE = re.compile(
    rf"^({_SIGN}(?:\d+(?:\.\d*)?|\.\d+))"
    r"(?:[eE]([+-]?\d+)|(?:\\times|\\cdot|\*|x)10\^(?:\{([+-]?\d+)\}|([+-]?\d)))$"
)
_POW10_RE = re.compile(r"^10\^(?:\{([+-]?\d+)\}|([+-]?\d))$")
_FRAC_RE = re.compile(rf"^({_SIGN})\\frac\{{({_SIGN}\d+)\}}\{{({_SIGN}\d+)\}}$")
_SLASH_RE = re.compile(rf"^({_SIGN})\(?({_SIGN}\d+)\)?/\(?({_SIGN}\d+)\)?$")
# `0.\overline{3}`, `0.1\overline{6}`, `0.(3)`, `1.\dot{3}`: a repeating decimal (exact)
_REPEATING_RE = re.compile(
    rf"^({_SIGN})(\d*)\.(\d*)(?:\\overline\{{(\d+)\}}|\\overline(\d)|\((\d+)\)|\\dot\{{(\d)\}}|\\dot(\d))$"
)
_MIXED_RE = re.compile(rf"^({_SIGN})(\d+)\\frac\{{(\d+)\}}\{{(\d+)\}}$")


@dataclass(frozen=True, slots=True)
class Number:
    value: Fraction
    decimals: int | None  # places written after the point, when written as a decimal
    significant: int  # significant digits as written (for the rounding rule)
    reduced: bool = True  # False for a fraction written unreduced (`\\frac{10}{2}`, `6/8`)


def parse_number(key: str) -> Number | None:
    """A plain number written in `key` (whitespace-free), or None if it is anything else."""
    if len(key) > MAX_DIGITS + 20:
        return None
    if m := _INT_RE.match(key):
        return Number(_signed(m.group(1), Fraction(int(m.group(2)))), None, len(m.group(2)))
    if m := _THOUSANDS_RE.match(key):
        return _decimal(m.group(1), m.group(2).replace(",", ""), (m.group(3) or ".")[1:])
    if m := _DECIMAL_RE.match(key):
        return _decimal(m.group(1), m.group(2) or "0", m.group(3))
    if m := _INT_DOT_RE.match(key):
        return Number(_signed(m.group(1), Fraction(int(m.group(2)))), None, len(m.group(2)))
    if m := _FRAC_RE.match(key):
        return _fraction(m.group(1), m.group(2), m.group(3))
    if m := _SLASH_RE.match(key):
        return _fraction(m.group(1), m.group(2), m.group(3))
    if m := _REPEATING_RE.match(key):
        return _repeating(
            m.group(1), m.group(2) or "0", m.group(3), next(filter(None, m.groups()[3:]))
        )
    if m := _MIXED_RE.match(key):
        # 3\frac{1}{2} is the mixed number 7/2 (never 3 * 1/2 in an answer)
        whole, num, den = int(m.group(2)), int(m.group(3)), int(m.group(4))
        if den == 0:
            return None
        return Number(_signed(m.group(1), whole + Fraction(num, den)), None, 0)
    if m := _SCI_RE.match(key):
        exponent = int(m.group(2) or m.group(3) or m.group(4))
        mantissa = parse_number(m.group(1))
        if mantissa is None or abs(exponent) > MAX_EXPONENT:
            return None
        return Number(mantissa.value * Fraction(10) ** exponent, None, mantissa.significant)
    if m := _POW10_RE.match(key):
        exponent = int(m.group(1) or m.group(2))
        if abs(exponent) > MAX_EXPONENT:
            return None
        return Number(Fraction(10) ** exponent, None, 1)
    return None


_DECIMAL_COMMA_RE = re.compile(r"^[+-]?\d+,\d+$")


def decimal_comma_equal(gold: str, pred: str) -> bool:
    """An answer `1,22` for a ground truth `1.22`: the answer's comma read as a decimal separator.

    Only for a comma that cannot be a thousands separator (`1,22`, `0,111`, `1000,99`), and only
    that way round: a ground truth `1,2` is a listing of 1 and 2, which `1.2` does not answer.
    """
    for comma, point in ((pred, gold),):
        if (
            _DECIMAL_COMMA_RE.match(comma)
            and not _THOUSANDS_RE.match(comma)
            and _DECIMAL_RE.match(point)
            and comma.replace(",", ".") == point
        ):
            return True
    return False


def numbers_equal(
    gold: Number, pred: Number, min_rounded_digits: int, decimal_for_exact: bool = False
) -> bool:
    """Exact equality, or an exact answer that a decimal ground truth rounds.

    An exact ground truth is matched exactly: a decimal answer is not its value, however many
    places it shows (`decimal_for_exact` relaxes this: then a decimal answer with
    `min_rounded_digits` significant digits may round it). A decimal ground truth stands for an
    exact answer it rounds with `GOLD_ROUNDED_DIGITS` (an exact answer is more precise than a
    ground truth rounded to 0.333, never a guess).
    """
    if gold.value == pred.value:
        return True
    if pred.decimals is not None and gold.decimals is None:
        return decimal_for_exact and rounds_to(gold.value, pred, min_rounded_digits)
    if gold.decimals is not None and pred.decimals is None:
        if not shows_period(pred.value, gold.decimals):
            return False  # `\\frac{22}{7}` is not the 3.14 of a ground truth (1/3 is 0.333)
        return rounds_to(pred.value, gold, min(GOLD_ROUNDED_DIGITS, min_rounded_digits))
    return False


def shows_period(value: Fraction, decimals: int) -> bool:
    """Whether a decimal with `decimals` places shows the repeating part of `value` twice.

    A ground truth 0.333 stands for 1/3 and 0.1667 for 1/6, but 3.14 does not stand for 22/7
    (period 142857): a fraction whose period the ground truth does not show is another number
    that happens to round the same way. A terminating `value` must be equal, never rounded.
    """
    denominator = value.denominator
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    if denominator == 1:
        return False
    period, remainder = 1, 10 % denominator
    while remainder != 1:
        remainder = remainder * 10 % denominator
        period += 1
        if period > decimals:
            return False
    return decimals >= max(twos, fives) + 2 * period


def rounds_to(exact: Fraction, decimal: Number, min_rounded_digits: int) -> bool:
    """Whether `decimal` is `exact` rounded half-away-from-zero to `decimal.decimals` places."""
    if decimal.decimals is None or decimal.significant < min_rounded_digits:
        return False
    scale = 10**decimal.decimals
    scaled = abs(exact) * scale
    rounded = int(scaled + Fraction(1, 2))
    if exact < 0:
        rounded = -rounded
    return Fraction(rounded, scale) == decimal.value


def _decimal(sign: str, whole: str, frac: str) -> Number | None:
    if len(whole) + len(frac) > MAX_DIGITS:
        return None
    value = Fraction(int(whole + frac), 10 ** len(frac)) if frac else Fraction(int(whole))
    digits = (whole + frac).lstrip("0")
    return Number(_signed(sign, value), len(frac) if frac else None, len(digits))


def _repeating(sign: str, whole: str, fixed: str, period: str) -> Number | None:
    """`w.f(p)` = w.f + 0.0..0p repeating: exact, like a fraction (no rounding rule applies)."""
    if len(whole) + len(fixed) + len(period) > MAX_DIGITS:
        return None
    value = Fraction(int(whole + fixed), 10 ** len(fixed)) + Fraction(
        int(period), (10 ** len(period) - 1) * 10 ** len(fixed)
    )
    return Number(_signed(sign, value), None, 0)


def _fraction(sign: str, num: str, den: str) -> Number | None:
    denominator = int(den)
    if denominator == 0 or len(num) + len(den) > MAX_DIGITS:
        return None
    if sign and num[:1] in ("+", "-"):
        return None  # `-\frac{-3}{4}`: a sign on a signed number is a computation (SymPy decides)
    reduced = math.gcd(int(num), denominator) == 1 and abs(denominator) != 1
    return Number(_signed(sign, Fraction(int(num), denominator)), None, 0, reduced)


def _signed(sign: str, value: Fraction) -> Fraction:
    return -value if sign == "-" else value


def format_number(value: Fraction) -> str:
    """A short human form for `detail`: `7/2`, `-5`."""
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "…"
