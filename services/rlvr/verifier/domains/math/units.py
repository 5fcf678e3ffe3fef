"""Units as data that converts: `6 km` answers `6000 m`, never `6 m`; `cm^2` never answers `cm^3`.

A unit (as `reading.py` keys it: `km`, `cm^2`, `km/h`) is its factor to SI and its dimension
(the exponents of metre, kilogram and second). The factors are exact fractions, the
definitions of `sympy.physics.units` (a test checks every one against that library; it is not
imported here, which would cost the service process a second). Two units of one dimension
convert; different dimensions, or a unit outside the table (a count noun, degrees), never do;
a currency converts to its own cents (`MONEY`). Angles are left out: degrees to radians is the
irrational pi/180, and an angle's unit is part of how it was asked.
"""

from __future__ import annotations

from fractions import Fraction

Dimension = tuple[int, int, int]  # exponents of (metre, kilogram, second)

_LENGTH, _MASS, _TIME, _VOLUME = (1, 0, 0), (0, 1, 0), (0, 0, 1), (3, 0, 0)

# unit key -> (factor to SI, dimension), from sympy.physics.units (see the module doc)
SI: dict[str, tuple[Fraction, Dimension]] = {
    "m": (Fraction(1), _LENGTH),
    "cm": (Fraction(1, 100), _LENGTH),
    "mm": (Fraction(1, 1000), _LENGTH),
    "km": (Fraction(1000), _LENGTH),
    "in": (Fraction(127, 5000), _LENGTH),
    "ft": (Fraction(381, 1250), _LENGTH),
    "yd": (Fraction(1143, 1250), _LENGTH),
    "mi": (Fraction(201168, 125), _LENGTH),
    "kg": (Fraction(1), _MASS),
    "g": (Fraction(1, 1000), _MASS),
    "mg": (Fraction(1, 1_000_000), _MASS),
    "lb": (Fraction(45359237, 100_000_000), _MASS),
    "s": (Fraction(1), _TIME),
    "min": (Fraction(60), _TIME),
    "h": (Fraction(3600), _TIME),
    "day": (Fraction(86400), _TIME),
    "l": (Fraction(1, 1000), _VOLUME),
    "ml": (Fraction(1, 1_000_000), _VOLUME),
}
# money: a currency converts only to its own subunit (rates between currencies are not facts)
MONEY: dict[str, tuple[str, Fraction]] = {
    "dollar": ("dollar", Fraction(1)),
    "cent": ("dollar", Fraction(1, 100)),
    "euro": ("euro", Fraction(1)),
}
# names of speeds that are one word
_SPEEDS = {"mph": "mi/h", "kph": "km/h"}
_MAX_POWER = 3


def in_si(unit: str) -> tuple[Fraction, Dimension] | None:
    """A unit key's factor to SI and its dimension: `cm^2` -> (1/10000, (2, 0, 0)); `km/h` ->
    (5/18, (1, 0, -1)); None for a unit outside the table."""
    unit = _SPEEDS.get(unit, unit)
    numerator, slash, denominator = unit.partition("/")
    top = _power_in_si(numerator)
    if not slash:
        return top
    bottom = _power_in_si(denominator)
    if top is None or bottom is None:
        return None
    (top_factor, top_dim), (bottom_factor, bottom_dim) = top, bottom
    dimension = (top_dim[0] - bottom_dim[0], top_dim[1] - bottom_dim[1], top_dim[2] - bottom_dim[2])
    return top_factor / bottom_factor, dimension


def _power_in_si(unit: str) -> tuple[Fraction, Dimension] | None:
    base, caret, power_text = unit.partition("^")
    power = int(power_text) if caret and power_text.isdigit() else (1 if not caret else 0)
    if base not in SI or not 1 <= power <= _MAX_POWER:
        return None
    factor, (length, mass, time) = SI[base]
    return factor**power, (length * power, mass * power, time * power)


def conversion_factor(from_unit: str, to_unit: str) -> Fraction | None:
    """What a value in `from_unit` is multiplied by to be in `to_unit` (`km` -> `m`: 1000), or
    None when the two do not convert (other dimensions, or a unit outside the table)."""
    if from_unit in MONEY and to_unit in MONEY:
        (source_currency, source_factor), (target_currency, target_factor) = (
            MONEY[from_unit],
            MONEY[to_unit],
        )
        return source_factor / target_factor if source_currency == target_currency else None
    source, target = in_si(from_unit), in_si(to_unit)
    if source is None or target is None or source[1] != target[1]:
        return None
    return source[0] / target[0]
