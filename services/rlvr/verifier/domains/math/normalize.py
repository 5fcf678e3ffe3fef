"""Pure string normalisation of an answer: LaTeX spelling variants, units, percent, `x =` prefixes.

The result keeps the meaning (only spellings that cannot change a value are removed) so that two
answers with the same `key` are equal without SymPy. Every regex here is free of nested
quantifiers, so normalising is linear in the answer's length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rlvr.verifier.domains.commas import split_top_level
from rlvr.verifier.domains.math.extract import matching_braces, strip_math_delimiters

_WRAPPERS_RE = re.compile(
    r"\\(?:text|textbf|textit|textrm|textnormal|texttt|mathrm|mathbf|mathit|mathsf|mathtt|mbox|"
    r"operatorname|boldsymbol|bm|displaystyle|textstyle|emph|hbox)\s*\{([^{}]*)\}"
)
_SPACING_RE = re.compile(r"(?<!\\)\\[,;: ]|\\q?quad|\\(?:hspace|vspace)\*?\{[^{}]*\}|~")
# `\\frac` (an escaped backslash that leaked from a JSON or Python string) means `\frac`
_DOUBLED_COMMAND_RE = re.compile(
    r"\\\\(?=(?:frac|dfrac|tfrac|sqrt|pi|cdot|times|infty|leq?|geq?|left|right|text)\b)"
)
_EMPTY_SET_RE = re.compile(r"\\varnothing(?![A-Za-z])|^\\\{\s*\\\}$")
_NEG_SPACE_RE = re.compile(r"\\!\s*")
_AND_RE = re.compile(r"\s*,?\s*(?:\\text\{\s*(?:and|or)\s*\}|\band\b|\bor\b)\s*")
_SIZING_RE = re.compile(r"\\(?:left|right|big|Big|bigg|Bigg)(?:[lr])?(?![A-Za-z])\.?")
_STYLE_RE = re.compile(r"\\(?:displaystyle|textstyle|scriptstyle|limits|nolimits)(?![A-Za-z])")
_FRAC_RE = re.compile(r"\\[dtc]frac(?![A-Za-z])")
_BINOM_RE = re.compile(r"\\[dt]binom(?![A-Za-z])")
_SHORT_FRAC_RE = re.compile(r"\\frac\s*(\d)\s*(\d)")
_DEGREE_RE = re.compile(r"\^\s*\{?\s*\\circ\s*\}?|°|\\degree(?![A-Za-z])|\^\s*\{\s*\}")
_PERCENT_RE = re.compile(r"\s*(?:\\%|%|\\percent\b|\bpercent(?:age)?\b|\bpct\b)\s*$", re.I)
_CURRENCY_RE = re.compile(
    r"^\s*(?:\\\$|\$|€|£|¥|USD\b|\\text\{\s*\\\$\s*\})\s*|\s*(?:\\\$|€|£)\s*$"
)
_UNITS = (
    "mm|cm|km|m|meters?|metres?|centimeters?|kilometers?|millimeters?|inch(?:es)?|in|feet|foot|"
    "ft|yards?|yd|miles?|mi|units?|sq|square|cubic|degrees?|deg|radians?|rad|dollars?|cents?|"
    "euros?|seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?|"
    "kg|g|grams?|kilograms?|mg|lbs?|pounds?|ounces?|oz|liters?|litres?|l|ml|mph|kph|km/h|m/s|"
    "cm/s|people|persons?|students?|apples?|marbles?|ways?|times|points?|pieces?|items?|coins?|"
    "books?|boxes?|balls?|cards?|cups?|gallons?|quarts?|pints?|tons?|watts?|volts?|ohms?|"
    "calories?|pages?|steps?|votes?|trees?|cookies?|eggs?|cars?|dogs?|cats?|games?|numbers?"
)
_UNIT_TAIL_RE = re.compile(
    rf"(?<=[\d}}).\s])\s*(?:\\text\{{)?\s*(?:{_UNITS})(?:\^\{{?[23]\}}?|[²³])?\s*\}}?\s*\.?$",
    re.I,
)
_UNIT_SQ_RE = re.compile(r"(?<=[\d}])\s*(?:square|sq\.?|cubic)\s*$", re.I)
_THOUSANDS_BRACE_RE = re.compile(r"\{\s*,\s*\}")
_DIGIT_SPACE_RE = re.compile(r"(?<=\d)[ \u2009\u202f](?=\d{3}(?!\d))")
_LHS_RE = re.compile(r"^\s*[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?(?:\([A-Za-z]\))?\s*=(?!=)")
_COMMAND_RE = re.compile(r"\\[A-Za-z]+")
_NAME_RE = re.compile(r"[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?(?:\([A-Za-z]\))?")
_SEMICOLON_RE = re.compile(r"(?<!\\);")
# unicode spellings of operators the LaTeX parser knows (anything else unicode stays unknown)
_UNICODE = {
    "\u2212": "-",
    "\u00d7": "\\times ",
    "\u22c5": "\\cdot ",
    "\u00b7": "\\cdot ",
    "\u00f7": "\\div ",
    "\u03c0": "\\pi ",
    "\u221e": "\\infty ",
    "\u2264": "\\le ",
    "\u2265": "\\ge ",
    "\u2260": "\\ne ",
    "\u221a": "\\sqrt",
}
_UNICODE_RE = re.compile("|".join(_UNICODE))
_LETTER_RE = re.compile(r"[A-Za-z]")
_TRAILING = " \t\n.,;:"
_WS_RE = re.compile(r"\s+")
_CHOICE_RE = re.compile(r"^\(?\s*([A-Ja-j])\s*\)?$")
_CHOICE_LEAD_RE = re.compile(r"^(?i:option|choice|answer)?\s*\(?\s*([A-J])\s*(?:\)|\.|:|$|\s)")
# Another choice after the leading one (`(A) or (B)`, `(A), (B)`, `A / C.`): hedging.
_OTHER_CHOICE_RE = re.compile(r"\(\s*([A-J])\s*\)|(?:^|[\s,;/&])([A-J])(?=[).:,;/]|\s*$)")


@dataclass(frozen=True, slots=True)
class Normalized:
    """An answer after normalisation."""

    latex: str  # cleaned LaTeX for the SymPy parser
    key: str  # whitespace-free form: equal keys mean equal answers
    is_percent: bool
    had_equation: bool  # a leading `x =` was dropped


def normalize(answer: str) -> Normalized:
    # one space for every whitespace run first: the patterns below then never face a long run
    # of blanks (adjacent `\s*` on a long run is how a regex goes quadratic)
    text = _WS_RE.sub(" ", answer.strip())
    text = _DOUBLED_COMMAND_RE.sub(r"\\", text)
    text = _UNICODE_RE.sub(lambda m: _UNICODE[m.group()], text)
    text = peel_braces(strip_math_delimiters(text))
    text = _NEG_SPACE_RE.sub("", text)
    text = _SPACING_RE.sub(" ", text)
    text = _SIZING_RE.sub("", text)
    text = _STYLE_RE.sub("", text)
    text = _FRAC_RE.sub(r"\\frac", text)
    text = _EMPTY_SET_RE.sub(r"\\emptyset", text)
    text = _BINOM_RE.sub(r"\\binom", text)
    text = _DEGREE_RE.sub("", text)
    text = _THOUSANDS_BRACE_RE.sub(",", text)
    text = _semicolons(text)
    text = _DIGIT_SPACE_RE.sub("", text)
    text = text.replace("\\$", "$") if text.count("\\$") == 1 else text
    text = _CURRENCY_RE.sub("", text)
    if text.endswith("$") and text.count("$") == 1 and text[:-1].rstrip()[-1:].isdigit():
        text = text[:-1]  # `1,000.99$`: a price
    text = _strip_text_unit(text)
    for _ in range(3):  # \text{\textbf{x}}: peel a few levels
        text = _WRAPPERS_RE.sub(r"\1", text)
    text = text.rstrip(_TRAILING).strip()
    is_percent = bool(_PERCENT_RE.search(text))
    if is_percent:
        text = _PERCENT_RE.sub("", text)
    text = _strip_units(text)
    if re.search(r"[\d=]", text):
        text = _AND_RE.sub(", ", text)  # `12 and 13`, `x = 1 \text{ and } x = 2`: a list
    text, had_equation = _drop_equation_lhs(text)
    text = _SHORT_FRAC_RE.sub(r"\\frac{\1}{\2}", text)
    text = _WS_RE.sub(" ", text).strip()
    text = text.rstrip(_TRAILING).strip()
    key = text.replace(" ", "")
    return Normalized(latex=text, key=key, is_percent=is_percent, had_equation=had_equation)


def _semicolons(text: str) -> str:
    """`(0;-2;6)`, `-12;-11`: a semicolon separates like a comma; `p=5,q=2;p=7,q=2` (commas
    inside the parts) separates solutions, each a group."""
    if ";" not in text.replace("\\;", ""):
        return text
    parts = _SEMICOLON_RE.split(text)
    if len(parts) > 1 and all("," in part and "(" not in part for part in parts):
        return ",".join(f"({part.strip()})" for part in parts)
    return _SEMICOLON_RE.sub(",", text)


def peel_braces(text: str) -> str:
    """`{{{1}}}` -> `1`: braces that wrap the whole answer mean nothing (linear in its length)."""
    if not text.startswith("{"):
        return text
    pairs = matching_braces(text)
    start, end = 0, len(text) - 1
    while start < end and text[start] == "{" and pairs.get(start) == end:
        start, end = start + 1, end - 1
    return text[start : end + 1].strip()


_TEXT_UNIT_RE = re.compile(
    r"^([+-]?(?:\d[\d,]*(?:\.\d+)?|\\frac\{\d+\}\{\d+\}))\s*"
    r"\\(?:text|mbox|textrm|mathrm)\s*\{\s*([A-Za-z]+(?:[ -][A-Za-z]+)?)\s*\}\s*\.?$"
)
# words that change a value or offer another: never a unit
_NOT_UNITS = frozenset(
    [
        "or",
        "and",
        "not",
        "no",
        "nor",
        "approximately",
        "approx",
        "about",
        "around",
        "roughly",
        "nearly",
        "almost",
        "over",
        "under",
        "less",
        "more",
        "than",
        "least",
        "most",
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
        "percent",
    ]
)


def _strip_text_unit(text: str) -> str:
    """`5 \\text{ triangles}`: a plain number with a word or two of unit text is the number
    (words that change the value or add another, `\\text{ or more}`, `thousand`, stay)."""
    match = _TEXT_UNIT_RE.match(text)
    if match is None:
        return text
    words = re.split(r"[ -]", match.group(2).lower())
    if any(word in _NOT_UNITS for word in words):
        return text
    return match.group(1)


def _strip_units(text: str) -> str:
    for _ in range(2):  # "5 square feet"
        stripped = _UNIT_TAIL_RE.sub("", text).strip()
        stripped = _UNIT_SQ_RE.sub("", stripped).strip()
        if stripped == text or not stripped:
            break
        text = stripped
    return text


def _drop_equation_lhs(text: str) -> tuple[str, bool]:
    """`x = 3` -> `3`; `a = b = 11` -> `11`. Only a single-letter (or `f(x)`, `a_1`) left side."""
    if "=" not in text or any(op in text for op in ("\\leq", "\\geq", "\\le ", "\\ge ", "<", ">")):
        return text, False
    match = _LHS_RE.match(text)
    if not match:
        return text, False  # `2 + 2 = 4`, `4 = 3`: SymPy checks the left side equals the right
    rest = text[match.end() :]
    if "," in rest and _LHS_RE.search(rest.split(",", 1)[1]):
        return _drop_shared_names(text)
    *middle, value = (piece.strip() for piece in rest.split("="))
    if not all(_NAME_RE.fullmatch(piece) for piece in middle):
        return text, False  # `x = 4 = 3`: a chain that claims something; SymPy refuses it
    if _LETTER_RE.search(_COMMAND_RE.sub("", value)):
        return text, False  # `y = 2x + 3` is an equation: SymPy compares it as one
    return value, True


def _drop_shared_names(text: str) -> tuple[str, bool]:
    """`x_1 = a, x_2 = b` -> `a, b` (one unknown's values); `x = 1, y = 2` stays a system."""
    parts = [part.strip() for part in text.split(",")]
    values, bases = [], set()
    for part in parts:
        match = _LHS_RE.match(part)
        if not match:
            return text, False
        bases.add(part[0])
        values.append(part[match.end() :].strip())
    if len(bases) != 1 or any("=" in v for v in values):
        return text, False
    return ", ".join(values), True


def choice_letter(text: str) -> str | None:
    """`B`, `(B)`, `\\text{(B)}` -> `B` (the whole answer is one choice letter)."""
    match = _CHOICE_RE.match(text.strip())
    return match.group(1).upper() if match else None


def leading_choice_letter(text: str) -> str | None:
    """`(B) 42`, `B.`, `Option C` -> the letter a response chose; None if it does not lead."""
    text = text.strip()
    match = _CHOICE_LEAD_RE.match(text)
    if match is None:
        return None
    others = {a or b for a, b in _OTHER_CHOICE_RE.findall(text[match.end() :])}
    return None if others - {match.group(1)} else match.group(1)


def text_key(text: str) -> str:
    """Case-, space- and punctuation-insensitive form of a word answer."""
    lowered = text.lower().replace("\\", " ")
    return re.sub(r"[^a-z0-9]+", "", lowered)


def top_level_parts(latex: str) -> list[str]:
    """`a, (b, c), d` -> [`a`, `(b, c)`, `d`]: commas outside every bracket split."""
    return [part.strip() for part in split_top_level(latex)]
