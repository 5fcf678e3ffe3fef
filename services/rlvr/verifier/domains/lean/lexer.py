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


def is_id_first(char: str) -> bool:
    return (char.isascii() and char.isalpha()) or char == "_" or is_letter_like(char)


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


# Lean's escapes only (`\\ \" \' \n \t \r \xHH \uHHHH`, and `\` before a line break): on any other,
# Lean reports an error mid-literal and its recovery may read the rest as code.
_ESCAPE = r"\\(?:[\\\"'ntr\n]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})"
_STRING = re.compile(f'"(?:[^"\\\\]|{_ESCAPE})*"')
_CHAR = re.compile(f"'(?:[^\\\\']|{_ESCAPE})'")


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
    append, search = out.append, _INTERESTING.search
    i, n, floor = 0, len(text), 0
    while True:
        found = search(text, i)
        if found is None:
            append(text[i:])
            return "".join(out)
        start, token = found.start(), found.group()
        append(text[i:start])
        run = ""
        if start and text[start - 1] not in _SAFE_BEFORE:
            run = _run_before(text, start, floor)
            if not run:  # after a symbol: Lean may read a longer token here (`<--`, `⁻¹'"'`)
                if token == "'" and _CHAR.match(text, start) is None:
                    append(token)  # a lone `'` (`f '' s`, `∑' i`): a token to Lean as to us
                    i = floor = start + 1
                    continue
                if token != "«":
                    return None
            elif not is_id_first(run[0]):
                if "'" in run:
                    return None  # `2'"'`: a char literal right after a number
            elif not _SURE.fullmatch(run) and token != "«":
                return None  # a mistake in Lean's rarer letter classes must not hide code
        if token == "'":
            literal = _CHAR.match(text, start)
            if literal is None:  # `''` (a token), or no literal: Lean errors there; kept as code
                append(token)
                i = floor = start + 1
                continue
            end = literal.end()
            append(_blank_inside(literal.group()))
        elif token == '"':
            literal = _STRING.match(text, start)
            if run == "r" or literal is None:
                return None  # a raw string, or unterminated, or an escape Lean rejects
            end = literal.end()
            if "{" in literal.group():
                return None  # possibly interpolated: its braces would hold code
            append(_blank_inside(literal.group()))
        elif token == "--":
            end = text.find("\n", start)
            end = n if end < 0 else end
            append(" " * (end - start))
        elif token == "«":
            end = text.find("»", start) + 1
            if end <= 0:
                return None
            append(text[start:end])
        elif text.startswith(("/--", "/-!"), start):
            end = start + 3
            append(text[start:end])  # a doc comment: its body is searched like code
        else:
            end = _block_comment_end(text, start)
            if end < 0:
                return None
            append(_blank(text[start:end]))
        i = floor = end
