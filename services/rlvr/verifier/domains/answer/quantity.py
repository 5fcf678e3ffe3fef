"""Answers that are quantities: a number (sign, currency, thousands separators, `million`) and
an optional unit, compared exactly as rationals."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction

# A whole answer: `$1,234.50`, `-3.5 %`, `2 million`, `1 000 km`, `12.5 kg/m`. Grouped digits
# need groups of exactly three (`1,5` is not a number here: a decimal comma is ambiguous).
_QUANTITY_RE = re.compile(
    r"(?P<currency>[$€£¥])?\s{0,2}(?P<sign>[-+−])?\s{0,2}(?P<currency2>[$€£¥])?"
    r"(?P<number>\d{1,3}(?:(?P<sep>[,\u00a0\u202f' _])\d{3})(?:(?P=sep)\d{3}){0,8}(?:\.\d{1,30})?"
    r"|\d{1,40}(?:\.\d{1,30})?|\.\d{1,30})"
    r"(?:\s{0,2}(?P<scale>thousand|million|billion|trillion))?"
    r"(?:\s{0,2}(?P<unit>%|°\s?[cf]?|[^\W\d_][^\W\d_/.]{0,20}(?:\s?/\s?[^\W\d_]{1,10})?"
    r"(?:\s[^\W\d_]{1,20}){0,2}))?\s{0,2}\.?",
    re.IGNORECASE,
)
_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
# Spellings of one unit (a small table: conversions between units are refused by design).
_UNIT_SPELLINGS = {
    "%": "%",
    "percent": "%",
    "per cent": "%",
    "km": "km",
    "kilometer": "km",
    "kilometers": "km",
    "kilometre": "km",
    "kilometres": "km",
    "m": "m",
    "meter": "m",
    "meters": "m",
    "metre": "m",
    "metres": "m",
    "cm": "cm",
    "centimeters": "cm",
    "centimetres": "cm",
    "mm": "mm",
    "kg": "kg",
    "kilogram": "kg",
    "kilograms": "kg",
    "g": "g",
    "gram": "g",
    "grams": "g",
    "s": "s",
    "sec": "s",
    "second": "s",
    "seconds": "s",
    "min": "min",
    "minute": "min",
    "minutes": "min",
    "h": "h",
    "hr": "h",
    "hour": "h",
    "hours": "h",
    "mi": "mi",
    "mile": "mi",
    "miles": "mi",
    "ft": "ft",
    "foot": "ft",
    "feet": "ft",
    "lb": "lb",
    "lbs": "lb",
    "pound": "lb",
    "pounds": "lb",
    "$": "usd",
    "usd": "usd",
    "dollar": "usd",
    "dollars": "usd",
    "€": "eur",
    "eur": "eur",
    "euro": "eur",
    "euros": "eur",
    "£": "gbp",
    "gbp": "gbp",
    "¥": "jpy",
    "yen": "jpy",
    "year": "year",
    "years": "year",
    "day": "day",
    "days": "day",
    "°c": "°c",
    "° c": "°c",
    "°f": "°f",
    "° f": "°f",
}


@dataclass(frozen=True, slots=True)
class Quantity:
    value: Fraction
    unit: str | None  # canonical spelling, or the unit as written (lowercased)


def parse_quantity(text: str) -> Quantity | None:
    """The quantity a whole answer is, or None (it must be nothing but a quantity)."""
    text = unicodedata.normalize("NFKC", text).strip()
    if not text or len(text) > 120:
        return None
    match = _QUANTITY_RE.fullmatch(text)
    if match is None:
        return None
    number = match.group("number")
    separator = match.group("sep")
    if separator:
        number = number.replace(separator, "")
    value = Fraction(number)
    if match.group("scale"):
        value *= _SCALES[match.group("scale").lower()]
    if match.group("sign") in ("-", "−"):
        value = -value
    currency = match.group("currency") or match.group("currency2")
    unit = match.group("unit")
    if currency and unit:
        return None  # `$5 km`
    written = (currency or unit or "").casefold().strip()
    canonical = _UNIT_SPELLINGS.get(" ".join(written.split()), written) if written else None
    return Quantity(value, canonical or None)


def same_quantity(response: Quantity, reference: Quantity) -> bool:
    """Equal values, and equal units where both sides name one (a bare number matches a
    reference with a unit and the other way round: the question usually fixes the unit)."""
    if response.value != reference.value:
        return False
    return response.unit is None or reference.unit is None or response.unit == reference.unit
