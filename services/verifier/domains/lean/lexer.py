"""What Lean reads as code: the source with comments and string/char literals blanked out.

The pre-check searches only the code Lean will parse, so that a word in a comment (`-- prefix
sums`) or a string (`"#eval"`) is not refused. That is safe only where this reading agrees with
Lean's own scanner (`Lean.Parser.Basic`: `whitespace`, `strLitFnAux`, `charLitFnAux`,
`identFnAux` with `isIdFirst`/`isIdRest`/`isLetterLike`/`isSubScriptAlnum`): a place where we
see a comment or a literal but Lean sees code would hide that code from the pre-check. So the
reading follows Lean's rules, and wherever they could differ it gives up (`None`) and the caller
searches the whole text, comments and strings included, as before:

- a comment, string or char literal that starts right after a symbol character (Lean reads the
  longest token of its token table first, so `<--`, `⁻¹'"'` are tokens to Lean, not a comment
  or a char literal to us);
- a string containing `{` (it may be interpolated, `s!"{code}"`: its braces hold code);
- raw strings (`r"..."`, `r#"..."#`), unterminated comments, strings, char literals or `«»`;
- an identifier with characters of Lean's rarer letter classes (Coptic, polytonic Greek,
  mathematical alphanumerics, letter subscripts) right before a literal or comment: the classes
  are followed here, but a mistake there must not hide code.

Doc comments (`/--`) and module docs (`/-!`) are not comments to Lean's scanner but tokens whose
body only a declaration's parser reads; after a parse error, Lean's recovery reads on token by
token and could take a command out of that body. So their bodies stay visible (searched).

Line breaks are kept, so line numbers of what the pre-check finds are the source's own; a
literal keeps its delimiters (`"#eval"` reads `"     "`), so a rule can still see that a string
stands somewhere (`prefix:max "√"` is a command, a variable `prefix` is not).
"""

from __future__ import annotations

import re

_SAFE_BEFORE = set(" \t\r\n()[]{},")


def is_letter_like(char: str) -> bool:
    code = ord(char)
    return (
        (0x3B1 <= code <= 0x3C9 and code != 0x3BB)  # lower Greek, not λ
        or (0x391 <= code <= 0x3A9 and code not in (0x3A0, 0x3A3))  # upper Greek, not Π Σ
        or 0x3CA <= code <= 0x3FB  # Coptic
        or 0x1F00 <= code <= 0x1FFE  # polytonic Greek
        or 0x2100 <= code <= 0x214F  # letter-like symbols (ℕ ℝ ...)
        or 0x1D49C <= code <= 0x1D59F  # script, double-struck, Fraktur
    )


def is_subscript_alnum(char: str) -> bool:
    code = ord(char)
    return 0x2080 <= code <= 0x2089 or 0x2090 <= code <= 0x209C or 0x1D62 <= code <= 0x1D6A


def is_id_first(char: str) -> bool:
    return (char.isascii() and char.isalpha()) or char == "_" or is_letter_like(char)


def is_id_rest(char: str) -> bool:
    return (
        (char.isascii() and char.isalnum())
        or char in "_'!?"
        or is_letter_like(char)
        or is_subscript_alnum(char)
    )


_NOT_NEWLINE = re.compile(r"[^\n]")


def _blank(text: str) -> str:
    return _NOT_NEWLINE.sub(" ", text)


def _blank_inside(literal: str) -> str:
    """A literal with its delimiters kept (`"   "`): later rules may ask "is a string here?"."""
    inside = literal[1:-1]
    blank = " " * len(inside) if "\n" not in inside else _blank(inside)
    return literal[0] + blank + literal[-1]


def _block_comment_end(text: str, start: int) -> int:
    """Index just past the `-/` closing the (nested) comment opened at `start`, or -1."""
    depth, i = 1, start + 2
    while i < len(text):
        if text.startswith("/-", i):
            depth, i = depth + 1, i + 2
        elif text.startswith("-/", i):
            depth, i = depth - 1, i + 2
            if depth == 0:
                return i
        else:
            i += 1
    return -1


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def _string_end(text: str, start: int) -> int:
    """Index just past the `"` closing the string opened at `start`, or -1."""
    found = _STRING.match(text, start)
    return found.end() if found else -1


def _char_end(text: str, start: int) -> int:
    """Index just past a char literal at `start` (`'a'`, `'\\n'`, `'\\x41'`, `'\\u{41}'`), or -1."""
    i = start + 1
    if i >= len(text):
        return -1
    if text[i] == "\\":
        if text.startswith("x", i + 1):
            i += 4
        elif text.startswith("u{", i + 1):
            close = text.find("}", i + 3)
            if close < 0 or close - i > 10:
                return -1
            i = close + 1
        else:
            i += 2
    else:
        i += 1
    return i + 1 if text.startswith("'", i) else -1


_LETTER_LIKE = (
    "\u03b1-\u03ba\u03bc-\u03c9\u0391-\u039f\u03a1\u03a2\u03a4-\u03a9\u03ca-\u03fb"
    "\u1f00-\u1ffe\u2100-\u214f\U0001d49c-\U0001d59f"
)
_ID_REST = re.compile(f"[A-Za-z0-9_'!?{_LETTER_LIKE}\u2080-\u2089\u2090-\u209c\u1d62-\u1d6a]+")
# Identifier characters whose class in Lean is beyond doubt (ASCII, Greek, ₀-₉, ℕℝ...).
_SURE = re.compile("[A-Za-z0-9_'!?\u0391-\u03c9\u2080-\u2089\u2100-\u214f]*")
# Where a literal or comment could start: everything between is copied as it is.
# A `'` right after an identifier character continues that identifier (`h₁'`) and is skipped
# here; after a number it would start a char literal, which the checks below account for.
_INTERESTING = re.compile(
    f"--|/-|[\"«]|(?<![A-Za-z0-9_'!?{_LETTER_LIKE}\u2080-\u2089\u2090-\u209c\u1d62-\u1d6a])'"
)


def _run_before(text: str, index: int, floor: int) -> str:
    """The identifier-like run (Lean's `isIdRest` characters) that ends just before `index`."""
    start = index
    while start > floor and _ID_REST.match(text, start - 1, start):
        start -= 1
    return text[start:index]


def visible_code(text: str) -> str | None:
    """`text` with comments and literals blanked; None where Lean's reading could differ."""
    out: list[str] = []
    i, n, floor = 0, len(text), 0
    while True:
        found = _INTERESTING.search(text, i)
        if found is None:
            out.append(text[i:])
            return "".join(out)
        start = found.start()
        out.append(text[i:start])
        before = text[start - 1] if start else " "
        run = "" if before in _SAFE_BEFORE else _run_before(text, start, floor)
        is_ident = bool(run) and is_id_first(run[0])
        if run and not is_ident and "'" in run:
            return None  # `2'"'`: a char literal after a number, skipped above
        if is_ident and not _SURE.fullmatch(run) and found.group(0) != "«":
            return None  # a mistake in Lean's rarer letter classes must not hide code
        token = found.group(0)
        if token == "'" and is_ident:  # `h'`: part of an identifier
            rest = _ID_REST.match(text, start)
            end = rest.end() if rest else start + 1
            out.append(text[start:end])
            i = floor = end
            continue
        if token == "«":
            end = text.find("»", start)
            if end < 0:
                return None
            out.append(text[start : end + 1])
            i = floor = end + 1
            continue
        if before not in _SAFE_BEFORE and not (run and _ID_REST.match(before)):
            if token != "'" or _char_end(text, start) >= 0:
                return None  # after a symbol: Lean may read a longer token here
            out.append(token)  # a lone `'` (`f '' s`, `∑'`): Lean reads a token, so do we
            i = floor = start + 1
            continue
        if token == "/-" and text.startswith(("/--", "/-!"), start):
            out.append(text[start : start + 3])  # a doc comment: its body is searched like code
            i = floor = start + 3
            continue
        if token == "--":
            end = text.find("\n", start)
            end = n if end < 0 else end
            out.append(_blank(text[start:end]))
        elif token == "/-":
            end = _block_comment_end(text, start)
            if end < 0:
                return None
            out.append(_blank(text[start:end]))
        elif token == '"':
            if run == "r":
                return None  # a raw string literal
            end = _string_end(text, start)
            if end < 0 or "{" in text[start:end]:
                return None
            out.append(_blank_inside(text[start:end]))
        else:  # a char literal, after a number, a bracket or a space
            if text.startswith("''", start):
                out.append("''")
                i = floor = start + 2
                continue
            end = _char_end(text, start)
            if end < 0:  # Lean: "missing end of character literal", an error; kept as code
                out.append(token)
                i = floor = start + 1
                continue
            out.append(_blank_inside(text[start:end]))
        i = floor = end
