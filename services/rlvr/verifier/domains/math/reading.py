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
from fractions import Fraction

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


def _word_set(words: str) -> frozenset[str]:
    """A vocabulary written as words separated by blanks (long lists stay readable)."""
    return frozenset(words.split())


# unit words (and their singular forms): a number followed by one of these is a value with a unit
UNIT_WORDS = frozenset(
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
        "celsius",
        "fahrenheit",
        "dollar",
        "usd",
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
# Count nouns a word problem counts in (singular forms): `12 \\text{ apples}` is the number 12
# of apples. A word after a number that is none of these, no unit and no number word is not
# known to the reader, so the answer is not that number (`5 \\text{ tops}`, `5 \\text{
# sometimes}`) unless the ground truth or the problem names it (`judge.py`).
COUNT_NOUNS = _word_set(
    """
    apple orange banana pear peach grape lemon cherry strawberry melon fruit vegetable carrot
    potato tomato egg cookie cake cupcake pie muffin candy chocolate sandwich pizza slice bagel
    donut doughnut cracker bottle can jar cup glass bowl plate box bag basket crate packet pack
    package carton ticket stamp coin bill card book page notebook pencil pen crayon marker
    eraser sticker toy doll ball marble block brick tile bead button ribbon flower rose tulip
    tree plant seed leaf shell rock stone gem animal dog cat bird fish cow horse pig sheep goat
    chicken duck rabbit frog bee ant spider insect leg wheel car bus truck bike bicycle boat
    train plane seat chair table desk room house building floor window door step stair
    person people student child kid boy girl man woman adult teacher worker player member
    friend guest customer visitor passenger team group class family employee participant
    handshake game match round point goal run lap mile trip visit vote question problem answer
    test quiz puzzle word letter digit number integer solution root factor divisor multiple
    prime term way arrangement combination permutation outcome possibility choice option
    triangle square rectangle circle polygon side edge face vertex vertice corner angle diagonal
    line segment ray region cube sphere dot path route item piece object thing unit dozen pair
    set shirt sock shoe hat dress pant jacket song movie photo picture video gift present
    balloon candle envelope letter email message call hour minute day week month year
    time turn move roll flip toss draw shot attempt value pair triple tuple element subset
    """
)
# words that describe what is counted without changing how many (`5 \\text{ distinct values}`)
COUNT_ADJECTIVES = _word_set(
    """
    distinct different possible unique real total whole positive integer integral complex
    ordered unordered valid prime odd even nonzero rational irrational equal such
    """
)
# a percent word is read by the percent rule, not as a unit
_PERCENT_WORDS = frozenset(["percent", "percentage", "pct"])
# number words after a number multiply it (`2 \\text{ thousandths}` is 0.002, `12 \\text{ dozen}`
# 144): the answer is the product, never the bare number
MULTIPLIERS: dict[str, Fraction] = {
    "dozen": Fraction(12),
    "gross": Fraction(144),
    "score": Fraction(20),
    "hundred": Fraction(100),
    "thousand": Fraction(1000),
    "million": Fraction(10**6),
    "billion": Fraction(10**9),
    "trillion": Fraction(10**12),
    "half": Fraction(1, 2),
    "halve": Fraction(1, 2),
    "third": Fraction(1, 3),
    "quarter": Fraction(1, 4),
    "fourth": Fraction(1, 4),
    "fifth": Fraction(1, 5),
    "sixth": Fraction(1, 6),
    "seventh": Fraction(1, 7),
    "eighth": Fraction(1, 8),
    "ninth": Fraction(1, 9),
    "tenth": Fraction(1, 10),
    "hundredth": Fraction(1, 100),
    "thousandth": Fraction(1, 1000),
    "millionth": Fraction(1, 10**6),
}
_SQUARE_WORDS = frozenset(["square", "sq", "cubic"])
_NUMBER_VALUE_RE = re.compile(
    r"[+-]?(?:\d{0,12}\\sqrt\{\d+\}|\d{0,12} ?\\pi|\\frac\{\d+\}\{\d+\}|\d[\d,]*(?:\.\d+)?|\.\d+)"
)
_TEXT_COMMAND_RE = re.compile(
    r"\\(?:text|mbox|textrm|mathrm|textnormal|operatorname)\s?\{([^{}]*)\}"
)
# a unit written last in a text group, after a constant with no letters of its own
# (`\\frac{\\pi}{2} \\text{ radians}`): the constant is the value
_LAST_TEXT_GROUP_RE = re.compile(
    r"\\(?:text|mbox|textrm|mathrm|textnormal)\s?\{[^{}]*\}(?:\^\{?[23]\}?|[²³])?\.?$"
)
_UNIT_POWER_RE = re.compile(r"(?:\^\{?([23])\}?|([²³]))")
_LETTER_RUN_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]+")
_COMMAND_RE = re.compile(r"\\[A-Za-z]+")
_BARE_UNIT_RE = re.compile(r"([A-Za-z]+(?:/[A-Za-z]+)?)")
# one term of a compound quantity: `2\\text{ hours}`, `30 minutes`
_QUANTITY_TERM_RE = re.compile(
    r" ?(\d+(?:\.\d+)?) ?(?:\\(?:text|mathrm|mbox)\{ ?([A-Za-z]+) ?\}|([A-Za-z]+))(?: ?,)?"
    r"(?: ?(?:\\text\{ ?and ?\}|and))?"
)


@dataclass(frozen=True, slots=True)
class ValueWithUnit:
    """`15 \\text{ cm}^2` -> value `15`, unit `cm^2`; `is_known` is False for a word the reader
    does not know (neither a unit nor a count noun): the caller refuses it unless the ground
    truth or the problem names it."""

    value: str
    unit: str | None
    is_known: bool = True


def qualifier_in(text: str) -> str | None:
    """The first qualifier word written in `text` outside LaTeX commands (`\\text{at least} 3`,
    `5 \\text{ maybe}`, `not 5`), or None: a qualified statement is not its bare value."""
    plain = _COMMAND_RE.sub(" ", _TEXT_COMMAND_RE.sub(r" \1 ", text))
    for match in _LETTER_RUN_RE.finditer(plain):
        word = match.group().lower()
        if word in QUALIFIERS and len(word) > 1:
            return word
    return None


def number_word_in(text: str) -> str | None:
    """A multiplier word (`thousand`, `halves`) still written in `text` once a unit was split
    off: it was not read as a multiple of a plain number, so the text is not a value."""
    plain = _COMMAND_RE.sub(" ", _TEXT_COMMAND_RE.sub(r" \1 ", text))
    for match in _LETTER_RUN_RE.finditer(plain):
        word = match.group().lower()
        if word in MULTIPLIERS or _singular_form(word) in MULTIPLIERS:
            return word
    return None


def split_unit(text: str) -> ValueWithUnit | None:
    """A plain constant followed by a unit (`5 \\text{ cm}`, `3m^3`, `15\\mbox{ cm}^2`,
    `12 \\text{ apples}`, `2\\text{ hours } 30\\text{ minutes}`) as value and unit; None when
    `text` is not a number with words after it. Number words multiply the value (`5 \\text{
    dozen}` is 60); a qualifier is not a unit (None: the caller refuses the reading)."""
    compound = _compound_quantity(text)
    if compound is not None:
        return compound
    match = _NUMBER_VALUE_RE.match(text)
    if match is not None and match.end() < len(text):
        value, rest = text[: match.end()], text[match.end() :].strip()
    else:
        last = _LAST_TEXT_GROUP_RE.search(text)
        if last is None or last.start() == 0:
            return None
        value, rest = text[: last.start()].strip(), text[last.start() :]
        if not value or _LETTER_RUN_RE.search(_COMMAND_RE.sub(" ", value)) or "=" in value:
            return None  # `x \\text{ cm}`: letters of its own, not a constant with a unit
    words, power = _unit_words(rest)
    if words is None:
        return None
    value, words = _multiplied(value.strip(), words)
    if not words:
        return ValueWithUnit(value, None)
    unit = _unit_key(words, power)
    if unit is None:
        return None
    return ValueWithUnit(value, unit[0], unit[1])


def _multiplied(value: str, words: list[str]) -> tuple[str, list[str]]:
    """Leading number words applied to a plain value (`5`, [`dozen`, `eggs`] -> `60`,
    [`eggs`]); a value that is not a plain number keeps its words (then refused)."""
    factor, used = Fraction(1), 0
    for word in words:
        lowered = word.lower().strip(".,")
        multiplier = MULTIPLIERS.get(lowered) or MULTIPLIERS.get(_singular_form(lowered))
        if multiplier is None:
            break
        factor *= multiplier
        used += 1
    if not used:
        return value, words
    number = _plain_number(value)
    if number is None:
        return value, words
    product = number * factor
    shown = str(product.numerator) if product.denominator == 1 else None
    if shown is None:
        shown = f"\\frac{{{abs(product.numerator)}}}{{{product.denominator}}}"
        shown = f"-{shown}" if product < 0 else shown
    return shown, words[used:]


def _plain_number(value: str) -> Fraction | None:
    text = value.replace(",", "").replace(" ", "")
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None


def _compound_quantity(text: str) -> ValueWithUnit | None:
    """`2\\text{ hours } 30\\text{ minutes}` -> 2.5 hours: two or more terms, each a number and a
    known unit of one dimension, summed in the first term's unit; None for anything else."""
    from rlvr.verifier.domains.math.units import conversion_factor

    terms, at = [], 0
    while at < len(text):
        term = _QUANTITY_TERM_RE.match(text, at)
        if term is None or term.end() == at:
            return None
        terms.append((term.group(1), term.group(2) or term.group(3)))
        at = term.end()
    if len(terms) < 2:
        return None
    first_unit = _unit_key([terms[0][1]], "")
    if first_unit is None or not first_unit[1]:
        return None
    total = Fraction(0)
    for number, word in terms:
        unit = _unit_key([word], "")
        factor = None if unit is None else conversion_factor(unit[0], first_unit[0])
        if factor is None:
            return None
        total += Fraction(number) * factor
    shown = str(total.numerator) if total.denominator == 1 else None
    if shown is None:
        shown = f"\\frac{{{total.numerator}}}{{{total.denominator}}}"
    return ValueWithUnit(shown, first_unit[0])


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
        # `5 square feet`, `5 dozen eggs` (words without \text): each word a word
        words = rest.split()
        if all(w.isalpha() for w in words):
            return words, ""
        return None, ""
    if power_match is not None:
        power = power_match.group(1) or ("2" if power_match.group(2) == "²" else "3")
    word = bare.group(1)
    lowered = word.lower()
    if (
        _singular(lowered) not in UNIT_WORDS
        and lowered not in UNIT_WORDS
        and lowered not in MULTIPLIERS
        and _singular_form(lowered) not in MULTIPLIERS
        and len(word) < 3
    ):
        return None, ""  # `5x`, `3k`: a product with an unknown, not a unit
    return [word], power


_DEGREE_SCALES = {"celsius": "degC", "fahrenheit": "degF", "c": "degC", "f": "degF"}


def _unit_key(words: list[str], power: str) -> tuple[str, bool] | None:
    """The canonical unit of its words (`square units` -> `unit^2`, `Apples` -> `apple`) and
    whether the reader knows it (a unit or a count noun), or None when a word is a qualifier."""
    lowered = [w.lower().strip(".,") for w in words if w.strip(".,")]
    if not lowered or len(lowered) > 3:
        return None
    if any(w in QUALIFIERS for w in lowered if w not in UNIT_WORDS):
        return None
    if any(not w.replace("/", "").isalpha() for w in lowered) or lowered[0] in _PERCENT_WORDS:
        return None
    if len(lowered) == 2 and _singular(lowered[0]) == "deg" and lowered[1] in _DEGREE_SCALES:
        return _DEGREE_SCALES[lowered[1]], True  # `degrees Celsius`
    if len(lowered) == 1 and lowered[0] in ("celsius", "fahrenheit"):
        return _DEGREE_SCALES[lowered[0]], True
    if len(lowered) > 1 and lowered[0] in _SQUARE_WORDS:
        power = "2" if lowered[0] in ("square", "sq") else "3"
        lowered = lowered[1:]
    singular = [_singular(w) for w in lowered]
    last = lowered[-1]
    unit_word = last in UNIT_WORDS or singular[-1] in UNIT_WORDS
    known = (unit_word and len(lowered) == 1) or (
        singular[-1] in COUNT_NOUNS and all(w in COUNT_ADJECTIVES for w in lowered[:-1])
    )
    key = " ".join(singular) if not known else singular[-1]  # `distinct values`: values
    return (f"{key}^{power}" if power else key), known


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
    "usd": "dollar",
}


def _singular(word: str) -> str:
    return _ALIASES.get(_singular_form(word), _singular_form(word))


def _singular_form(word: str) -> str:
    """The singular of a plural the reader may know (`cookies`, `boxes`, `halves`, `feet`)."""
    if word in ("feet",):
        return "foot"
    if word in UNIT_WORDS or word in COUNT_NOUNS or word in ("people",):
        return word  # `m/s`, `cm/s`, `people` are not plurals
    if not word.endswith("s") or len(word) <= 2 or word.endswith("ss"):
        return word
    candidates = [word[:-1], word[:-2]]
    if word.endswith("ies"):
        candidates.append(word[:-3] + "y")
    if word.endswith("ves"):
        candidates += [word[:-3] + "f", word[:-3] + "fe"]
    for candidate in candidates:
        if candidate in UNIT_WORDS or candidate in COUNT_NOUNS or candidate in MULTIPLIERS:
            return candidate
    return word[:-1]


def same_unit(gold: str | None, pred: str | None) -> bool:
    """Units compare as data: a bare value answers a ground truth with a unit and the reverse
    (the unit was the question's), but two different units never agree (`6 km` is not `6 m`)."""
    return gold is None or pred is None or gold == pred
