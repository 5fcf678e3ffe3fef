"""A small, fast LaTeX-to-SymPy parser for scalar expressions (the common case), no ANTLR.

Covers numbers, single-letter (and subscripted) variables, + - * / ^ !, implicit products,
`\\frac`, `\\sqrt`, `\\sqrt[n]`, `\\binom`, `\\pi`, `\\infty`, `e`, `i`, `\\cdot`, `\\times`,
parentheses, `|x|`, `\\lceil x \\rceil`, `\\lfloor x \\rfloor` and `\\sin`-style functions.
Anything else (sets, intervals, relations, text, `\\pm`) raises `Unsupported` and the caller
falls back to latex2sympy2 (ANTLR, ~20x slower). Runs in the killable worker: SymPy evaluates
as it builds, so `10^{10^{10}}` may hang here, by design.
"""

from __future__ import annotations

import re
from typing import Any

import sympy


class Unsupported(Exception):
    """Outside this parser's subset; use the full parser."""


_TOKEN_RE = re.compile(
    r"\s*(?:(?P<num>\d+\.\d*|\.\d+|\d+)|(?P<esc>\\[{}])|(?P<cmd>\\[A-Za-z]+)|(?P<sym>[A-Za-z])|(?P<op>!=|<=|>=|[-+*/^!(){}\[\]_,|=<>:]))"
)
_FUNCTIONS = {
    "\\sin": sympy.sin,
    "\\cos": sympy.cos,
    "\\tan": sympy.tan,
    "\\cot": sympy.cot,
    "\\sec": sympy.sec,
    "\\csc": sympy.csc,
    "\\arcsin": sympy.asin,
    "\\arccos": sympy.acos,
    "\\arctan": sympy.atan,
    "\\ln": sympy.log,
    "\\exp": sympy.exp,
    "\\log": sympy.log,
}
# `\\sin^{-1}` names the inverse function (arcsin), never the reciprocal 1/sin
_INVERSES = {
    "\\sin": sympy.asin,
    "\\cos": sympy.acos,
    "\\tan": sympy.atan,
    "\\cot": sympy.acot,
    "\\sec": sympy.asec,
    "\\csc": sympy.acsc,
}
_GREEK = {
    "\\alpha",
    "\\beta",
    "\\gamma",
    "\\delta",
    "\\theta",
    "\\lambda",
    "\\mu",
    "\\phi",
    "\\varphi",
    "\\omega",
    "\\sigma",
    "\\tau",
    "\\rho",
}
_MAX_TOKENS = 400
_BRACKETS = {"\\lceil": ("\\rceil", sympy.ceiling), "\\lfloor": ("\\rfloor", sympy.floor)}
_MEMBER_RE = re.compile(r"^[A-Za-z](?:_\{?\w+\}?)?\s*\\in\s+(.+)$", re.DOTALL)
_OPENERS = ("(", "[", "{", "\\{")
_CLOSERS = (")", "]", "}", "\\}")
_MATRIX_RE = re.compile(
    r"^\\begin\{([pbBvV]?matrix|array)\}(?:\{[clr|]*\})?(.*)\\end\{\1\}$", re.DOTALL
)
_RELATIONS = {
    "=": sympy.Eq,
    "<": sympy.StrictLessThan,
    ">": sympy.StrictGreaterThan,
    "\\le": sympy.LessThan,
    "\\leq": sympy.LessThan,
    "\\ge": sympy.GreaterThan,
    "\\geq": sympy.GreaterThan,
    "\\lt": sympy.StrictLessThan,
    "\\gt": sympy.StrictGreaterThan,
    "<=": sympy.LessThan,
    ">=": sympy.GreaterThan,
    "!=": sympy.Ne,
    "\\neq": sympy.Ne,
    "\\ne": sympy.Ne,
}
_STRUCTURE_TOKENS = {",", "[", "]", "\\{", "\\}", "=", "<", ">", *_RELATIONS, "\\pm", "\\cup"}


def parse_answer(latex: str) -> Any:
    """A scalar, a relation (`y = 2x + 3`, `x \\geq 5`), `a \\pm b`, or a flat list/tuple/set/
    interval of scalars (`(1, 2)`, `[0, 1)`, `\\{1, 2\\}`, `-2, 1`); `Unsupported` otherwise."""
    text = latex.strip()
    member = _MEMBER_RE.match(text)
    if member:
        value = parse_answer(member.group(1))  # `x \\in [-2, 7]` answers with the set
        if isinstance(value, sympy.Tuple) and len(value) == 2:
            value = sympy.Interval.open(value[0], value[1])  # `x \\in (a, b)`: an interval
        if not isinstance(value, sympy.Set):
            raise Unsupported("membership of a non-set")
        return value
    if text[:1] in "([" and text[-1:] in ")]" and _MATRIX_RE.match(text[1:-1].strip()):
        text = text[1:-1].strip()  # `[\\begin{array}...\\end{array}]`
    matrix = _MATRIX_RE.match(text)
    if matrix:
        return _parse_matrix(matrix.group(2))
    tokens = _tokenize(latex)
    relations = [i for i, t in enumerate(tokens) if t in _RELATIONS]
    if relations:
        if len(relations) > 1 or any(t in {"[", "]", "|"} for t in tokens):
            raise Unsupported("chained relation or relation of intervals")
        at = relations[0]
        if at >= 2 and tokens[0].isalpha() and tokens[1] == "(" and "," not in tokens[:at]:
            raise Unsupported("function on the left: f(x) = ...")
        if "," in tokens:  # `(p, q) = (3, 2)`
            if tokens[at] != "=":
                raise Unsupported("inequality of tuples")
            lhs, rhs = _parse_list(tokens[:at]), _parse_list(tokens[at + 1 :])
        else:
            lhs, rhs = _parse_all(tokens[:at]), _parse_all(tokens[at + 1 :])
        return _RELATIONS[tokens[at]](lhs, rhs, evaluate=False)
    if "\\cup" in tokens:
        return sympy.Union(*(_parse_part(part) for part in _split_top(tokens, "\\cup")))
    if "\\pm" in tokens:
        at = tokens.index("\\pm")
        if tokens.count("\\pm") > 1 or any(t in _STRUCTURE_TOKENS - {"\\pm"} for t in tokens):
            raise Unsupported("pm inside a structure")
        left = _parse_all(tokens[:at]) if at else sympy.Integer(0)
        right = _parse_all(tokens[at + 1 :])
        return sympy.FiniteSet(left + right, left - right)
    if "," not in tokens:
        if (
            len(tokens) > 2
            and tokens[0] == "\\{"
            and tokens[-1] == "\\}"
            and not any(t in _STRUCTURE_TOKENS for t in tokens[1:-1])
        ):
            return sympy.FiniteSet(_parse_all(tokens[1:-1]))  # `\\{5\\}`
        if any(t in _STRUCTURE_TOKENS for t in tokens):
            raise Unsupported("structure")
        return _parse_all(tokens)
    return _parse_list(tokens)


def _split_top(tokens: list[str], separator: str) -> list[list[str]]:
    parts: list[list[str]] = [[]]
    for token in tokens:
        if token == separator:
            parts.append([])
        else:
            parts[-1].append(token)
    if any(not part for part in parts):
        raise Unsupported(f"empty side of {separator}")
    return parts


def _parse_part(tokens: list[str]) -> Any:
    """One operand of a union: an interval or a set."""
    if tokens[0] == "\\{" and tokens[-1] == "\\}" and "," not in tokens:
        return sympy.FiniteSet(_parse_all(tokens[1:-1]))
    value = _parse_list(tokens)
    if isinstance(value, sympy.Tuple) and len(value) == 2:
        value = sympy.Interval.open(value[0], value[1])  # `(a, b)` in a union is an interval
    if not isinstance(value, sympy.Set):
        raise Unsupported("union of non-sets")
    return value


def _parse_matrix(body: str) -> Any:
    rows = [row for row in body.split("\\\\") if row.strip()]
    if not rows or len(rows) > 50:
        raise Unsupported("matrix shape")
    cells = [[_parse_all(_tokenize(cell)) for cell in row.split("&")] for row in rows]
    if len({len(row) for row in cells}) != 1:
        raise Unsupported("ragged matrix")
    return sympy.Matrix(cells)


def _parse_list(tokens: list[str]) -> Any:
    opener, closer = tokens[0], tokens[-1]
    inner = tokens
    if opener in _OPENERS and closer in _CLOSERS and _close_of(tokens, 0) == len(tokens) - 1:
        inner = tokens[1:-1]
    else:
        opener = closer = ""  # `(2, 1), (1, 2)`: a bare list of tuples
    parts: list[list[str]] = [[]]
    depth = 0
    for token in inner:
        if token in _OPENERS:
            depth += 1
        elif token in _CLOSERS:
            depth -= 1
        if token == "," and depth == 0:
            parts.append([])
        else:
            parts[-1].append(token)
    if depth != 0 or any(not part for part in parts):
        raise Unsupported("unbalanced list")
    values = [_parse_element(part) for part in parts]
    if opener == "\\{" and closer == "\\}":
        return sympy.FiniteSet(*values)
    if opener == "(" and closer == ")":
        return sympy.Tuple(*values)
    if opener in ("(", "[") and closer in (")", "]") and len(values) == 2:
        return sympy.Interval(
            values[0], values[1], left_open=opener == "(", right_open=closer == ")"
        )
    if opener == "":
        return sympy.FiniteSet(*values)  # `-2, 1`: the listed values
    raise Unsupported("bracket list")


def _parse_element(tokens: list[str]) -> Any:
    """One element of a list: a scalar, or itself a bracketed list (`(2, 1)`)."""
    if tokens[0] in _OPENERS and _close_of(tokens, 0) == len(tokens) - 1 and "," in tokens:
        value = _parse_list(tokens)
        if isinstance(value, sympy.Interval):
            raise Unsupported("interval inside a list")  # `[1, 2]` there may be a vector
        return value
    if any(t in _STRUCTURE_TOKENS for t in tokens):
        raise Unsupported("nested structure")
    return _parse_all(tokens)


def _close_of(tokens: list[str], start: int) -> int:
    depth = 0
    for index in range(start, len(tokens)):
        if tokens[index] in _OPENERS:
            depth += 1
        elif tokens[index] in _CLOSERS:
            depth -= 1
            if depth == 0:
                return index
    return -1


def _parse_all(tokens: list[str]) -> Any:
    if not tokens:
        raise Unsupported("empty")
    parser = _Parser(tokens)
    value = parser.expression()
    if parser.position != len(tokens):
        raise Unsupported(f"unexpected {tokens[parser.position]!r}")
    return value


def _tokenize(latex: str) -> list[str]:
    tokens: list[str] = []
    position = 0
    text = latex.strip()
    while position < len(text):
        match = _TOKEN_RE.match(text, position)
        if match is None or match.end() == position:
            if text[position:].strip() == "":
                break
            raise Unsupported(f"character {text[position]!r}")
        tokens.append(match.group().strip())
        position = match.end()
        if len(tokens) > _MAX_TOKENS:
            raise Unsupported("too long for the fast parser")
    return tokens


class _Parser:
    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.position = 0

    def peek(self) -> str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise Unsupported(f"expected {expected!r}, got {token!r}")
        self.position += 1
        return token

    def expression(self) -> Any:
        value = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            right = self.term()
            value = value + right if op == "+" else value - right
        return value

    def term(self) -> Any:
        value = self.signed()
        while True:
            token = self.peek()
            if token in ("*", "\\cdot", "\\times"):
                self.take()
                value = value * self.signed()
            elif token in ("/", ":"):  # `7:32` is the ratio 7/32
                self.take()
                value = value / self.signed()
            elif token is not None and self._starts_atom(token):
                value = value * self.power()  # implicit product: 2x, 3\sqrt{2}
            else:
                return value

    def signed(self) -> Any:
        if self.peek() == "-":
            self.take()
            return -self.signed()
        if self.peek() == "+":
            self.take()
            return self.signed()
        return self.power()

    def power(self) -> Any:
        base = self.postfix()
        if self.peek() == "^":
            self.take()
            exponent = self.exponent()
            return base**exponent
        return base

    def exponent(self) -> Any:
        if self.peek() == "{":
            return self.group()
        if self.peek() == "-":
            self.take()
            return -self.postfix()
        return self.atom_single()

    def postfix(self) -> Any:
        value = self.atom()
        while self.peek() == "!":
            self.take()
            value = sympy.factorial(value)
        return value

    def group(self) -> Any:
        self.take("{")
        value = self.expression()
        self.take("}")
        return value

    def atom_single(self) -> Any:
        """One token as an exponent/argument: `2^3`, `\\sqrt2`, `\\frac12`."""
        token = self.peek()
        if token is not None and token.isdigit():
            self.take()
            return sympy.Integer(token[0]) if len(token) == 1 else self._digit_split(token)
        return self.atom()

    def _digit_split(self, token: str) -> Any:
        # `2^34` in LaTeX is 2^3 followed by 4: refuse rather than guess
        raise Unsupported("multi-digit bare exponent")

    def atom(self) -> Any:
        token = self.peek()
        if token is None:
            raise Unsupported("unexpected end")
        if token == "(":
            self.take()
            value = self.expression()
            self.take(")")
            return value
        if token == "{":
            return self.group()
        if token[0].isdigit() or token[0] == ".":
            self.take()
            return sympy.Rational(token) if "." in token else sympy.Integer(token)
        if token.isalpha() and len(token) == 1:
            self.take()
            return self._symbol(token)
        if token == "\\frac":
            self.take()
            numerator = self.braced_or_single()
            denominator = self.braced_or_single()
            return numerator / denominator
        if token == "\\sqrt":
            self.take()
            if self.peek() == "[":
                raise Unsupported("nth root")
            return sympy.sqrt(self.braced_or_single())
        if token == "\\binom":
            self.take()
            top = self.braced_or_single()
            bottom = self.braced_or_single()
            return sympy.binomial(top, bottom)
        if token == "|":  # `|x - 1|`: an absolute value (a bar elsewhere is unexpected)
            self.take()
            value = self.expression()
            self.take("|")
            return sympy.Abs(value)
        if token in _BRACKETS:
            self.take()
            value = self.expression()
            self.take(_BRACKETS[token][0])
            return _BRACKETS[token][1](value)
        if token == "\\pi":
            self.take()
            return sympy.pi
        if token == "\\infty":
            self.take()
            return sympy.oo
        if token in _GREEK:
            self.take()
            return sympy.Symbol(token[1:])
        if token in _FUNCTIONS:
            return self.function()
        raise Unsupported(f"token {token!r}")

    def function(self) -> Any:
        name = self.take()
        power = None
        if self.peek() == "^":  # \sin^2 x
            self.take()
            power = self.exponent()
        if name == "\\log" and self.peek() == "_":
            self.take()
            base = self.braced_or_single()
            argument = self.function_argument()
            value = sympy.log(argument, base)
        elif power is not None and power == -1 and name in _INVERSES:
            return _INVERSES[name](self.function_argument())  # `\\sin^{-1} x` is arcsin x
        else:
            value = _FUNCTIONS[name](self.function_argument())
        return value**power if power is not None else value

    def function_argument(self) -> Any:
        if self.peek() in ("(", "{"):
            return self.atom()
        # `\sin x`, `\ln 2`: one implicit-product term without further functions
        value = self.postfix()
        while (token := self.peek()) is not None and self._starts_atom(token):
            if token in _FUNCTIONS:
                break
            value = value * self.postfix()
        return value

    def braced_or_single(self) -> Any:
        if self.peek() == "{":
            return self.group()
        return self.atom_single()

    def _symbol(self, letter: str) -> Any:
        if self.peek() == "_":
            self.take()
            subscript = self.take()
            if subscript == "{":
                parts = []
                while self.peek() not in ("}", None):
                    parts.append(self.take())
                self.take("}")
                subscript = "".join(parts)
            if not subscript.isalnum():
                raise Unsupported("subscript")
            return sympy.Symbol(f"{letter.lower()}_{subscript}")
        if letter == "e":
            return sympy.E
        if letter == "i":
            return sympy.I
        return sympy.Symbol(letter.lower())  # as latex2sympy2 does: `B` and `b` are one name

    @staticmethod
    def _starts_atom(token: str) -> bool:
        return (
            token[0].isdigit()
            or token[0] == "."
            or (token.isalpha() and len(token) == 1)
            or token in ("(", "{", "\\frac", "\\sqrt", "\\binom", "\\pi", "\\infty", *_BRACKETS)
            or token in _GREEK
            or token in _FUNCTIONS
        )
