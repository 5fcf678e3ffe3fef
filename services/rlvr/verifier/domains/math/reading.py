"""What an answer says besides its value, read as data and never deleted: its left side, its unit,
its qualifiers ("at least", "not", "maybe") and the words that make it text rather than a number.

`normalize` used to make two answers agree by deleting these (`y = 3` became `3`, `6 \\text{ km}`
became `6`, `3 \\text{ below zero}` became `3`); each deletion was a family of wrong answers that
passed. Here each one is split off and kept: a left side is compared with the ground truth's, a
unit with the ground truth's unit, and a qualifier or an unknown word refuses the reading.
Scanners and regexes without nested or adjacent overlapping quantifiers: linear in the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# words that change a value, negate it, or offer another: never a unit, never filler
QUALIFIERS = frozenset(
    [
        "not",
        "no",
        "nor",
        "never",
        "none",
        "neither",
        "either",
        "but",
        "if",
        "unless",
        "when",
        "whenever",
        "except",
        "otherwise",
        "else",
        "versus",
        "vs",
        "maybe",
        "perhaps",
        "possibly",
        "probably",
        "likely",
        "unlikely",
        "might",
        "could",
        "would",
        "should",
        "approximately",
        "approx",
        "about",
        "around",
        "roughly",
        "nearly",
        "almost",
        "circa",
        "over",
        "under",
        "above",
        "below",
        "beyond",
        "between",
        "within",
        "less",
        "more",
        "fewer",
        "greater",
        "larger",
        "smaller",
        "bigger",
        "higher",
        "lower",
        "least",
        "most",
        "than",
        "until",
        "plus",
        "minus",
        "times",
        "per",
        "thousand",
        "thousands",
        "million",
        "millions",
        "billion",
        "billions",
        "hundred",
        "hundreds",
        "dozen",
        "dozens",
        "half",
        "quarter",
        "squared",
        "cubed",
        "zero",
        "unknown",
        "undefined",
        "undetermined",
        "indeterminate",
        "cannot",
        "isnt",
        "wrong",
        "incorrect",
        "impossible",
        "something",
        "anything",
        "some",
        "any",
        "every",
        "many",
        "few",
        "several",
    ]
)
# unit words (and their singular forms): a number followed by one of these is a value with a unit
_UNIT_WORDS = frozenset(
    [
        "mm",
        "cm",
        "km",
        "m",
        "meter",
        "metre",
        "centimeter",
        "centimetre",
        "kilometer",
        "kilometre",
        "millimeter",
        "millimetre",
        "inch",
        "in",
        "feet",
        "foot",
        "ft",
        "yard",
        "yd",
        "mile",
        "mi",
        "unit",
        "sq",
        "square",
        "cubic",
        "degree",
        "deg",
        "radian",
        "rad",
        "dollar",
        "cent",
        "euro",
        "second",
        "sec",
        "s",
        "minute",
        "min",
        "hour",
        "hr",
        "h",
        "day",
        "week",
        "month",
        "year",
        "kg",
        "g",
        "gram",
        "kilogram",
        "mg",
        "lb",
        "pound",
        "ounce",
        "oz",
        "liter",
        "litre",
        "l",
        "ml",
        "mph",
        "kph",
        "km/h",
        "m/s",
        "cm/s",
        "gallon",
        "quart",
        "pint",
        "ton",
        "watt",
        "volt",
        "ohm",
        "calorie",
    ]
)
_SQUARE_WORDS = frozenset(["square", "sq", "cubic"])
# letter runs that are LaTeX-free names a reader knows (functions written without a backslash)
_NUMBER_VALUE_RE = re.compile(
    r"[+-]?(?:\d{0,12}\\sqrt\{\d+\}|\d{0,12} ?\\pi|\\frac\{\d+\}\{\d+\}|\d[\d,]*(?:\.\d+)?|\.\d+)"
)
_TEXT_COMMAND_RE = re.compile(
    r"\\(?:text|mbox|textrm|mathrm|textnormal|operatorname)\s?\{([^{}]*)\}"
)
_UNIT_POWER_RE = re.compile(r"(?:\^\{?([23])\}?|([²³]))")
_LETTER_RUN_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]+")
_COMMAND_RE = re.compile(r"\\[A-Za-z]+")
_BARE_UNIT_RE = re.compile(r"([A-Za-z]+(?:/[A-Za-z]+)?)")


@dataclass(frozen=True, slots=True)
class ValueWithUnit:
    """`15 \\text{ cm}^2` -> value `15`, unit `cm^2`; a bare value has unit None."""

    value: str
    unit: str | None


def qualifier_in(text: str) -> str | None:
    """The first qualifier word written in `text` outside LaTeX commands (`\\text{at least} 3`,
    `5 \\text{ maybe}`, `not 5`), or None: a qualified statement is not its bare value."""
    plain = _COMMAND_RE.sub(" ", _TEXT_COMMAND_RE.sub(r" \1 ", text))
    for match in _LETTER_RUN_RE.finditer(plain):
        word = match.group().lower()
        if word in QUALIFIERS and len(word) > 1:
            return word
    return None


def split_unit(text: str) -> ValueWithUnit | None:
    """A plain constant followed by a unit (`5 \\text{ cm}`, `3m^3`, `15\\mbox{ cm}^2`,
    `12 \\text{ apples}`) as value and unit; None when `text` is not a number with words after
    it. A word that is neither a unit nor a count noun, or a qualifier, is not a unit: the
    caller then refuses the reading (the answer is not that number)."""
    match = _NUMBER_VALUE_RE.match(text)
    if match is None or match.end() == len(text):
        return None
    value, rest = text[: match.end()], text[match.end() :].strip()
    words, power = _unit_words(rest)
    if words is None:
        return None
    unit = _unit_key(words, power)
    return None if unit is None else ValueWithUnit(value.strip(), unit)


def _unit_words(rest: str) -> tuple[list[str] | None, str]:
    """The words of a unit tail (`\\text{ cm}^2` -> ([cm], "2")), or None if it is not one."""
    power = ""
    text_match = _TEXT_COMMAND_RE.match(rest)
    if text_match is not None:
        inner, after = text_match.group(1), rest[text_match.end() :].strip().rstrip(".")
        power_match = _UNIT_POWER_RE.fullmatch(after) if after else None
        if after and power_match is None:
            return None, ""
        if power_match is not None:
            power = power_match.group(1) or ("2" if power_match.group(2) == "²" else "3")
        words = inner.replace("-", " ").split()
        return (words or None), power
    rest = rest.rstrip(".").strip()
    bare = _BARE_UNIT_RE.match(rest)
    if bare is None:
        return None, ""
    after = rest[bare.end() :].strip()
    power_match = _UNIT_POWER_RE.fullmatch(after) if after else None
    if after and power_match is None:
        # `5 square feet` (words without \text): each word must be a unit word
        words = rest.split()
        if all(w.lower() in _UNIT_WORDS or _singular(w.lower()) in _UNIT_WORDS for w in words):
            return words, ""
        return None, ""
    if power_match is not None:
        power = power_match.group(1) or ("2" if power_match.group(2) == "²" else "3")
    word = bare.group(1)
    if _singular(word.lower()) not in _UNIT_WORDS and word.lower() not in _UNIT_WORDS:
        return None, ""  # `5x`, `3k`: a product with an unknown, not a unit
    return [word], power


def _unit_key(words: list[str], power: str) -> str | None:
    """The canonical unit of its words (`square units` -> `unit^2`, `Apples` -> `apple`), or
    None when a word is a qualifier or the words are not a unit or a count noun."""
    lowered = [w.lower().strip(".,") for w in words if w.strip(".,")]
    if not lowered or len(lowered) > 3:
        return None
    if any(w in QUALIFIERS for w in lowered if w not in _UNIT_WORDS):
        return None
    last = lowered[-1]
    known = last in _UNIT_WORDS or _singular(last) in _UNIT_WORDS
    count_noun = len(last) >= 4 and last.endswith("s") and last.isalpha()
    if not (known or count_noun):
        return None  # `5 \\text{ maybe}`, `3 \\text{ below zero}`: not a unit
    if len(lowered) > 1 and lowered[0] in _SQUARE_WORDS:
        power = "2" if lowered[0] in ("square", "sq") else "3"
        lowered = lowered[1:]
    key = " ".join(_singular(w) for w in lowered)
    return f"{key}^{power}" if power else key


_ALIASES = {
    "meter": "m",
    "metre": "m",
    "centimeter": "cm",
    "centimetre": "cm",
    "kilometer": "km",
    "kilometre": "km",
    "millimeter": "mm",
    "millimetre": "mm",
    "foot": "ft",
    "inch": "in",
    "second": "s",
    "sec": "s",
    "minute": "min",
    "hour": "h",
    "hr": "h",
    "gram": "g",
    "kilogram": "kg",
    "degree": "deg",
    "radian": "rad",
    "liter": "l",
    "litre": "l",
    "mile": "mi",
    "yard": "yd",
    "pound": "lb",
}


def _singular(word: str) -> str:
    return _ALIASES.get(_singular_form(word), _singular_form(word))


def _singular_form(word: str) -> str:
    if word in ("feet",):
        return "foot"
    if word in _UNIT_WORDS:
        return word  # `m/s`, `cm/s` are not plurals
    if word.endswith("ches") or word.endswith("xes"):
        return word[:-2]
    if word.endswith("s") and len(word) > 2 and not word.endswith("ss"):
        return word[:-1]
    return word


def same_unit(gold: str | None, pred: str | None) -> bool:
    """Units compare as data: a bare value answers a ground truth with a unit and the reverse
    (the unit was the question's), but two different units never agree (`6 km` is not `6 m`)."""
    return gold is None or pred is None or gold == pred
