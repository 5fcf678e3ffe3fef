"""Unit conversion (`units.py`): the table agrees with `sympy.physics.units`, and conversions
are exact and refuse other dimensions."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
import sympy.physics.units as u
from sympy.physics.units import convert_to

from rlvr.verifier.domains.math.units import SI, conversion_factor, in_si

LIBRARY_NAMES = {
    "m": u.meter,
    "cm": u.centimeter,
    "mm": u.millimeter,
    "km": u.kilometer,
    "in": u.inch,
    "ft": u.foot,
    "yd": u.yard,
    "mi": u.mile,
    "kg": u.kilogram,
    "g": u.gram,
    "mg": u.milligram,
    "lb": u.pound,
    "s": u.second,
    "min": u.minute,
    "h": u.hour,
    "day": u.day,
    "l": u.liter,
    "ml": u.milliliter,
}


@pytest.mark.parametrize("unit", sorted(SI))
def test_every_factor_is_the_units_librarys_definition(unit: str) -> None:
    factor, (length, mass, time) = SI[unit]
    in_base = convert_to(LIBRARY_NAMES[unit], [u.meter, u.kilogram, u.second])
    expected = sympy.Rational(factor.numerator, factor.denominator)
    assert (
        sympy.simplify(in_base - expected * u.meter**length * u.kilogram**mass * u.second**time)
        == 0
    )


def test_the_table_covers_exactly_the_library_names() -> None:
    assert set(SI) == set(LIBRARY_NAMES)


@pytest.mark.parametrize(
    ("source", "target", "factor"),
    [
        ("km", "m", Fraction(1000)),
        ("m^2", "cm^2", Fraction(10000)),
        ("l", "cm^3", Fraction(1000)),
        ("km/h", "m/s", Fraction(5, 18)),
        ("mph", "km/h", Fraction(201168, 125000)),
        ("h", "min", Fraction(60)),
    ],
)
def test_units_of_one_dimension_convert_exactly(source: str, target: str, factor: Fraction) -> None:
    assert conversion_factor(source, target) == factor


@pytest.mark.parametrize(
    ("source", "target"),
    [
        ("cm", "kg"),
        ("cm^2", "cm^3"),
        ("m", "m/s"),
        ("apple", "apple"),
        ("deg", "rad"),
        ("m^9", "m"),
    ],
)
def test_other_dimensions_and_unknown_units_never_convert(source: str, target: str) -> None:
    assert conversion_factor(source, target) is None


def test_a_unit_outside_the_table_has_no_si_form() -> None:
    assert in_si("dollar") is None and in_si("cm^x") is None and in_si("km/") is None
