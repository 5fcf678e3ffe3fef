"""Pure string normalisation of an answer: LaTeX spelling variants, and the parts that are data.

The result keeps the meaning: only spellings that cannot change a value are removed, so two
answers with the same `key` are equal without SymPy. What an answer says besides its value (a
left side, a unit, a qualifier) is split off into fields by `reading.py` and compared, never
deleted. Whitespace runs are collapsed after every step that can make one, and no regex here has
nested or adjacent overlapping quantifiers, so normalising is linear in the answer's length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rlvr.verifier.domains.commas import split_top_level
from rlvr.verifier.domains.math.extract import matching_braces, strip_math_delimiters
from rlvr.verifier.domains.math.reading import number_word_in, qualifier_in, split_unit

_WRAPPERS_RE = re.compile(
    r"\\(?:text|textbf|textit|textrm|textnormal|texttt|mathrm|mathbf|mathit|mathsf|mathtt|mbox|"
    r"operatorname|boldsymbol|bm|displaystyle|textstyle|emph|hbox)\s*\{([^{}]*)\}"
)
_SPACING_RE = re.compile(r"(?<!\\)\\[,;: ]|\\q?quad|\\(?:hspace|vspace)\*?\{[^{}]*\}|~")
# a thin space between digit groups is a thousands separator (`1\,000`); any other spacing
# between digits separates two numbers (`1 \quad 2` is not 12)
_THIN_THOUSANDS_RE = re.compile(r"(?<=\d)(?:\\,|\u2009|\u202f)(?=\d{3}(?!\d))")
_GROUPED_NUMBER_RE = re.compile(r"[+-]?\d{1,3}(?: \d{3})+(?:\.\d+)?")
# a space between two digits (`1 000`, `3 5`) is two numbers, unless the first is a whole
# one-character script (`\log_2 3`, `x^2 3`: TeX reads `_2` then `3`, as `\log_{2} 3`)
_DIGITS_APART_RE = re.compile(r"(?<![_^])\d \d")
# `\\frac` (an escaped backslash that leaked from a JSON or Python string) means `\frac`
_DOUBLED_COMMAND_RE = re.compile(
    r"\\\\(?=(?:frac|dfrac|tfrac|sqrt|pi|cdot|times|infty|leq?|geq?|left|right|text)\b)"
)
_EMPTY_SET_RE = re.compile(r"\\varnothing(?![A-Za-z])|^\\\{\s*\\\}$")
_NEG_SPACE_RE = re.compile(r"\\!\s*")
# `and`/`or` between parts, found from a literal or a word boundary (fast), then the commas and
# spaces around it folded into one `, `
_TEXT_JOINER_RE = re.compile(r"\\text\{ ?(and|or) ?\}")
_AND_RE = re.compile(r"\b(?:and|or)\b")
_COMMA_RUN_RE = re.compile(r" ?,(?: ?,)* ?")
_SIZING_RE = re.compile(r"\\(?:left|right|big|Big|bigg|Bigg)(?:[lr])?(?![A-Za-z])\.?")
_STYLE_RE = re.compile(r"\\(?:displaystyle|textstyle|scriptstyle|limits|nolimits)(?![A-Za-z])")
_FRAC_RE = re.compile(r"\\[dtc]frac(?![A-Za-z])")
_BINOM_RE = re.compile(r"\\[dt]binom(?![A-Za-z])")
_SHORT_FRAC_RE = re.compile(r"\\frac\s*(\d)\s*(\d)")
_DEGREE_RE = re.compile(r"\^\s*\{?\s*\\circ\s*\}?|°|\\degree(?![A-Za-z])|\^\s*\{\s*\}")
# a degree sign that ends the answer is its unit; a scale letter after it names a temperature
_TRAILING_DEGREE_RE = re.compile(
    r"(?:\^ ?\{? ?\\circ ?\}?|°|\\degree(?![A-Za-z]))"
    r" ?(?:\\(?:text|mathrm|textrm)\{ ?([CF]) ?\}|([CF]))?$"
)
_FUNCTION_COMMAND_RE = re.compile(
    r"\\(?:a?(?:sin|cos|tan|cot|sec|csc)h?|arc[a-z]+|log|ln|exp)(?![A-Za-z])"
)
# a currency sign: the answer's unit (`\\$50` is 50 dollars, not 50 of whatever was asked)
_CURRENCY_UNITS = {"$": "dollar", "usd": "dollar", "€": "euro", "£": "gbp", "¥": "yen"}
_PERCENT_RE = re.compile(r"\s*(?:\\%|%|\\percent\b|\bpercent(?:age)?\b|\bpct\b)\s*$", re.I)
_CURRENCY_RE = re.compile(
    r"^\s*(?:\\\$|\$|€|£|¥|USD\b|\\text\{\s*\\\$\s*\})\s*|\s*(?:\\\$|€|£)\s*$"
)
_THOUSANDS_BRACE_RE = re.compile(r"\{\s*,\s*\}")
_LHS_RE = re.compile(r"^\s*[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?(?:\([A-Za-z]\))?\s*=(?!=)")
# a left side that names the value on the right: `AB`, `\angle A`, `m\angle ABC`, `f'(x)`,
# `f^{-1}(x)`, `a_{10}`, `\frac{dy}{dx}`, `|AB|` (its key is compared with the ground truth's)
_NAMED_LHS_RE = re.compile(
    r"^ ?(?:(?:m ?)?\\angle ?|\\overline\{|\|)?[A-Za-z]{1,4}\}?\|?"
    r"(?:_\{?[A-Za-z0-9]{1,4}\}?)?'{0,3}(?:\^\{?-1\}?)?(?:\([A-Za-z]\))? ?=(?!=)"
    r"|^ ?\\frac\{d ?[A-Za-z]?\}\{d ?[A-Za-z]\} ?=(?!=)"
)
_NAME_ON_RIGHT_RE = re.compile(r"^([^=<>a-zA-Z]+?) ?= ?([A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?)$")
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
    had_equation: bool  # a leading `x =` was split off (into `lhs`)
    lhs: str | None = None  # the name on the left (`x`, `AB`, `f'(x)`), compared, never dropped
    named_value: str | None = None  # the right side of `name = expression`, kept as data
    unit: str | None = None  # `cm^2`, `apple`: compared with the ground truth's unit
    unit_known: bool = True  # False: a word after the number the reader does not know
    refusal: str | None = None  # why this cannot be read as a value (a qualifier, two numbers)
    is_roots: bool = False  # `x = 1, x = 2`: values of one unknown (a set, not a point)


def normalize(answer: str) -> Normalized:
    # one space for every whitespace run first: the patterns below then never face a long run
    # of blanks (adjacent `\s*` on a long run is how a regex goes quadratic)
    text = _WS_RE.sub(" ", answer.strip())
    text = _DOUBLED_COMMAND_RE.sub(r"\\", text)
    text = _UNICODE_RE.sub(lambda m: _UNICODE[m.group()], text)
    text = peel_braces(strip_math_delimiters(text))
    text = _NEG_SPACE_RE.sub("", text)
    if "\\," in text or "\u2009" in text or "\u202f" in text:
        text = _THIN_THOUSANDS_RE.sub("", text)
    # spacing commands become spaces: collapse again, or `1~~~...~2` is a run of 500 blanks
    if "\\" in text or "~" in text:
        text = _WS_RE.sub(" ", _SPACING_RE.sub(" ", text))
    text = _SIZING_RE.sub("", text)
    text = _STYLE_RE.sub("", text)
    text = _FRAC_RE.sub(r"\\frac", text)
    text = _EMPTY_SET_RE.sub(r"\\emptyset", text)
    text = _BINOM_RE.sub(r"\\binom", text)
    text, degree_unit = _trailing_degree(text)
    text = _DEGREE_RE.sub("", text)
    text = _THOUSANDS_BRACE_RE.sub(",", text)
    text = _semicolons(text)
    if _GROUPED_NUMBER_RE.fullmatch(text.strip()):
        text = text.replace(" ", "")  # `1 000 000`: one number in groups of three
    text = text.replace("\\$", "$") if text.count("\\$") == 1 else text
    currency = _currency(text)
    text = _CURRENCY_RE.sub("", text)
    if text.endswith("$") and text.count("$") == 1 and text[:-1].rstrip()[-1:].isdigit():
        text = text[:-1]  # `1,000.99$`: a price
    text = _WS_RE.sub(" ", text).strip()
    text = _word_answer(text)
    refusal = _refusal(text)
    text, unit, unit_known = _split_unit(text.rstrip(_TRAILING).strip())
    for _ in range(3):  # \text{\textbf{x}}: peel a few levels
        text = _WRAPPERS_RE.sub(r"\1", text)
    text = _WS_RE.sub(" ", text).rstrip(_TRAILING).strip()
    is_percent = ("%" in text or "p" in text) and bool(_PERCENT_RE.search(text))
    if is_percent:
        text = _PERCENT_RE.sub("", text)
    if unit is None:
        text, unit, unit_known = _split_unit(text)
    if unit is None:
        unit = degree_unit or currency
    elif currency is not None and unit != currency:
        refusal = refusal or f"a currency sign and the unit {unit!r}: not one quantity"
    number_word = number_word_in(text)
    if number_word is not None and refusal is None:
        refusal = f"the number word {number_word!r} is not read as part of a plain number"
    text, and_refusal = (
        _intersect_inequalities(text) if "and" in text or "\\" in text else (text, None)
    )
    refusal = refusal or and_refusal
    if ("and" in text or "or" in text) and re.search(r"[\d=]", text):
        text = _TEXT_JOINER_RE.sub(r" \1 ", text) if "\\text" in text else text
        text = _COMMA_RUN_RE.sub(
            ", ", _AND_RE.sub(",", text)
        )  # `12 and 13`, `x = 1 \text{ or } x = 2`: a list
    text = _swap_name_on_right(text)
    text, lhs, named_value, is_roots = _split_equation_lhs(text)
    text = _set_forms(_plus_minus(text))
    text = _SHORT_FRAC_RE.sub(r"\\frac{\1}{\2}", text)
    text = _WS_RE.sub(" ", text).strip()
    text = text.rstrip(_TRAILING).strip()
    if refusal is None and _DIGITS_APART_RE.search(text):
        refusal = "two numbers side by side (a space between digits): not one value"
    key = text.replace(" ", "")
    return Normalized(
        latex=text,
        key=key,
        is_percent=is_percent,
        had_equation=lhs is not None or is_roots,
        lhs=lhs,
        named_value=named_value,
        unit=unit,
        unit_known=unit_known,
        refusal=refusal,
        is_roots=is_roots,
    )


# whole answers in words that name a set: read as that set (before the qualifier check, which
# would refuse the "no" of "no solution")
_WORD_SETS = {
    "all real numbers": "(-\\infty, \\infty)",
    "all reals": "(-\\infty, \\infty)",
    "all real x": "(-\\infty, \\infty)",
    "every real number": "(-\\infty, \\infty)",
    "all real values": "(-\\infty, \\infty)",
    "all x": "(-\\infty, \\infty)",
    "\\mathbb{r}": "(-\\infty, \\infty)",
    "\\mathbb r": "(-\\infty, \\infty)",
    "no solution": "\\emptyset",
    "no solutions": "\\emptyset",
    "no real solution": "\\emptyset",
    "no real solutions": "\\emptyset",
    "no real roots": "\\emptyset",
    "no real values": "\\emptyset",
    "\\{\\}": "\\emptyset",
    "\\emptyset": "\\emptyset",
}
_WORD_WRAPPER_RE = re.compile(r"^\\(?:text|textbf|mathrm|textrm|mbox)\{([^{}]*)\}$")
_SET_BUILDER_RE = re.compile(
    r"^\\\{ ?([A-Za-z])(?: ?\\in ?\\mathbb\{?R\}?)? ?(?:\\mid|\||:|\\vert) ?([^{}]*?) ?\\\}$"
)
_NOT_EQUAL_RE = re.compile(r"^([A-Za-z]) ?(?:\\neq?|\\not ?=|!=) ?([^=<>a-zA-Z,!]+)$")
_ABS_BOUND_RE = re.compile(r"^\|([A-Za-z])\| ?(<|\\le|\\leq|\\leqslant) ?([^=<>a-zA-Z,|]+)$")


def _word_answer(text: str) -> str:
    """`\\text{all real numbers}` -> `(-\\infty, \\infty)`; `\\text{no solution}`: empty."""
    wrapped = _WORD_WRAPPER_RE.match(text)
    inner = (wrapped.group(1) if wrapped else text).strip().rstrip(".").strip().lower()
    number = number_from_words(inner)
    if number is not None:
        return str(number)  # `\\text{twenty-five}`: the number it names
    return _WORD_SETS.get(inner, text)


_SMALL_NUMBERS = {
    word: value
    for value, word in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
        ]
    )
}
_TENS = {
    word: 10 * value
    for value, word in enumerate(
        ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], start=2
    )
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}


def number_from_words(text: str) -> int | None:
    """`five` -> 5, `twenty-five` -> 25, `one hundred and two` -> 102, `negative three` -> -3:
    a whole answer that is an integer in English words, or None (any other word: not one)."""
    words = text.replace("-", " ").replace(",", " ").split()
    if not words or len(words) > 12:
        return None
    sign = 1
    if words[0] in ("negative", "minus"):
        sign, words = -1, words[1:]
    total, group, seen = 0, 0, False
    for word in words:
        if word in _SMALL_NUMBERS:
            group += _SMALL_NUMBERS[word]
        elif word in _TENS:
            group += _TENS[word]
        elif word == "hundred" and group:
            group *= 100
        elif word in _SCALES and group:
            total, group = total + group * _SCALES[word], 0
        elif word == "and" and seen:
            continue
        else:
            return None
        seen = True
    return sign * (total + group) if seen else None


def _plus_minus(text: str) -> str:
    """`\\pm 3` -> `3, -3`: the two values it names (only a leading `\\pm` of the whole answer)."""
    if not text.startswith("\\pm") or text[3:4].isalpha():
        return text
    rest = text[3:].strip()
    if not rest or any(c in rest for c in ",=<>") or "\\pm" in rest or "\\mp" in rest:
        return text
    negated = f"-({rest})" if re.search(r"(?<=.)[-+]", rest) else f"-{rest}"
    return f"{rest}, {negated}"


def _set_forms(text: str) -> str:
    """Set-builder, `x \\neq c` and `|x| \\le c` as the sets they describe."""
    builder = _SET_BUILDER_RE.match(text)
    if builder is not None and builder.group(1) in builder.group(2):
        text = builder.group(2)  # `\\{x \\mid x > 3\\}`: the condition on x, read as below
    not_equal = _NOT_EQUAL_RE.match(text)
    if not_equal is not None:
        value = not_equal.group(2).strip()
        return f"(-\\infty, {value}) \\cup ({value}, \\infty)"
    bound = _ABS_BOUND_RE.match(text)
    if bound is not None:
        variable, op, value = bound.group(1), bound.group(2), bound.group(3).strip()
        op = "<" if op == "<" else "\\le"
        return f"-{value} {op} {variable} {op} {value}"
    return text


def _refusal(text: str) -> str | None:
    """A qualifier in the answer (`\\text{at least } 3`, `5 \\text{ maybe}`): not a bare value."""
    word = qualifier_in(text)
    if word is None:
        return None
    return f"the answer is qualified ({word!r}): a qualified statement is not the bare value"


def _split_unit(text: str) -> tuple[str, str | None, bool]:
    found = split_unit(text)
    if found is None:
        return text, None, True
    return found.value, found.unit, found.is_known


def _trailing_degree(text: str) -> tuple[str, str | None]:
    """`60^\\circ` -> (`60`, `deg`), `5^\\circ C` -> (`5`, `degC`): a degree sign that ends a
    single value is its unit (an angle is not a radian measure; a temperature has a scale).
    Inside an expression (`\\sin 30^\\circ`) or a listing the sign is left to `_DEGREE_RE`."""
    if "circ" not in text and "°" not in text and "degree" not in text:
        return text, None
    match = _TRAILING_DEGREE_RE.search(text)
    if match is None:
        return text, None
    value = text[: match.start()].strip()
    if not value or "," in value or "circ" in value or "°" in value:
        return text, None
    if _FUNCTION_COMMAND_RE.search(value):
        return text, None  # `\\sin 30^\\circ`: the degrees of an argument, not a unit
    scale = match.group(1) or match.group(2)
    return value, {"C": "degC", "F": "degF"}.get(scale or "", "deg")


def _currency(text: str) -> str | None:
    """The currency a sign names (`\\$50`, `50 €`, `USD 5`), or None."""
    match = _CURRENCY_RE.search(text)
    if match is None:
        return None
    sign = match.group().strip().replace("\\text{", "").replace("}", "").replace("\\", "").strip()
    return _CURRENCY_UNITS.get(sign.lower())


_AND_ONLY_RE = re.compile(r" ?,? ?(?:\\text\{ ?and ?\}|\band\b|\\land\b|\\wedge\b) ?")
_RELATION_RE = re.compile(r"<|>|\\l(?:eq?|eqslant|t)\b|\\g(?:eq?|eqslant|t)\b")
_OPS = {"<": "<", ">": ">", "\\lt": "<", "\\gt": ">"}
_OPS.update({f"\\{c}": "\\le" for c in ("le", "leq", "leqslant")})
_OPS.update({f"\\{c}": "\\ge" for c in ("ge", "geq", "geqslant")})
_BOUND_RE = re.compile(
    r"^([A-Za-z]) ?(<|>|\\l(?:eq?|eqslant|t)|\\g(?:eq?|eqslant|t))(?![A-Za-z]) ?([^<>=a-zA-Z]+)$"
    r"|^([^<>=a-zA-Z]+?) ?(<|>|\\l(?:eq?|eqslant|t)|\\g(?:eq?|eqslant|t))(?![A-Za-z]) ?([A-Za-z])$"
)


def _intersect_inequalities(text: str) -> tuple[str, str | None]:
    """`x > 0 \\text{ and } x < 5` -> `0 < x < 5`: an "and" of two bounds on one unknown is their
    intersection (never a listing, which would read as a union). Any other "and" of relations
    cannot be read: refused."""
    parts = _AND_ONLY_RE.split(text)
    if len(parts) < 2 or not all(_RELATION_RE.search(part) for part in parts):
        return text, None
    if len(parts) == 2:
        first, second = (_bound_of(part.strip()) for part in parts)
        if first is not None and second is not None and first[0] == second[0]:
            (_, side_a, op_a, value_a), (_, side_b, op_b, value_b) = first, second
            if {side_a, side_b} == {"low", "high"}:
                low = (op_a, value_a) if side_a == "low" else (op_b, value_b)
                high = (op_a, value_a) if side_a == "high" else (op_b, value_b)
                variable = first[0]
                return f"{low[1]} {low[0]} {variable} {high[0]} {high[1]}", None
    return text, "an 'and' of relations that are not two bounds on one unknown: cannot read it"


def _bound_of(part: str) -> tuple[str, str, str, str] | None:
    """`x > 0` -> (x, low, <, 0) (written as `0 < x`); `x \\le 3` -> (x, high, \\le, 3)."""
    match = _BOUND_RE.match(part)
    if match is None:
        return None
    if match.group(1):
        variable, value = match.group(1), match.group(3)
        op = _OPS.get(match.group(2), match.group(2))
        if op in (">", "\\ge"):
            return variable, "low", "<" if op == ">" else "\\le", value.strip()
        return variable, "high", op, value.strip()
    value, op, variable = match.group(4), _OPS.get(match.group(5), match.group(5)), match.group(6)
    if op in ("<", "\\le"):
        return variable, "low", op, value.strip()
    return variable, "high", "<" if op == ">" else "\\le", value.strip()


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


def _split_equation_lhs(text: str) -> tuple[str, str | None, str | None, bool]:
    """`x = 3` -> (`3`, `x`); `AB = 5` -> (`5`, `AB`); `a = b = 11` -> (`11`, `a`).

    The left side is split off as data (the caller compares it with the ground truth's left
    side), never dropped. `y = 2x + 3` stays an equation for SymPy, with its right side kept as
    `named_value` for a ground truth that is a bare expression (`f'(x) = 6x^2` against `6x^2`).
    Returns (text, lhs, named_value, is_roots).
    """
    if "=" not in text or any(op in text for op in ("\\leq", "\\geq", "\\le ", "\\ge ", "<", ">")):
        return text, None, None, False
    match = _NAMED_LHS_RE.match(text)
    if not match:
        return text, None, None, False  # `2 + 2 = 4`, `4 = 3`: SymPy checks the left side
    lhs = text[: match.end()].rstrip("= ").replace(" ", "")
    rest = text[match.end() :]
    if "," in rest and _LHS_RE.search(rest.split(",", 1)[1]):
        values, is_roots = _drop_shared_names(text)
        return values, None, None, is_roots
    *middle, value = (piece.strip() for piece in rest.split("="))
    if not all(_NAME_RE.fullmatch(piece) for piece in middle):
        return text, None, None, False  # `x = 4 = 3`: a chain that claims something
    if _LETTER_RE.search(_COMMAND_RE.sub("", value)):
        # `y = 2x + 3` is an equation: SymPy compares it as one
        return text, None, value if not middle else None, False
    if len(top_level_parts(value)) > 1 and not middle and _NAME_RE.fullmatch(lhs):
        return value, None, None, True  # `x = 1, 2`: the values of one unknown (its roots)
    return value, lhs, None, False


def _swap_name_on_right(text: str) -> str:
    """`3 = x` -> `x = 3`: a value named on the right is the same statement."""
    match = _NAME_ON_RIGHT_RE.match(text)
    if match is None or "," in text:
        return text
    return f"{match.group(2)} = {match.group(1).strip()}"


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
