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
- an identifier with non-ASCII characters right before a literal or comment (Lean's letter
  classes are followed here, but a mistake there must not hide code).

Doc comments (`/--`) and module docs (`/-!`) are not comments to Lean's scanner but tokens whose
body only a declaration's parser reads; after a parse error, Lean's recovery reads on token by
token and could take a command out of that body. So their bodies stay visible (searched).

Line breaks are kept, so line numbers of what the pre-check finds are the source's own; a
literal keeps its delimiters (`"#eval"` reads `"     "`), so a rule can still see that a string
stands somewhere (`prefix:max "√"` is a command, a variable `prefix` is not).
"""

from __future__ import annotations

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


def _blank(text: str) -> str:
    return "".join("\n" if c == "\n" else " " for c in text)


def _blank_inside(literal: str) -> str:
    """A literal with its delimiters kept (`"   "`): later rules may ask "is a string here?"."""
    return literal[0] + _blank(literal[1:-1]) + literal[-1]


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


def _string_end(text: str, start: int) -> int:
    """Index just past the `"` closing the string opened at `start`, or -1."""
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == '"':
            return i + 1
        else:
            i += 1
    return -1


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


def visible_code(text: str) -> str | None:
    """`text` with comments and literals blanked; None where Lean's reading could differ."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        before = text[i - 1] if i else " "
        if text.startswith("/--", i) or text.startswith("/-!", i):
            out.append(text[i : i + 3])  # a doc comment: its body is searched like code
            i += 3
        elif text.startswith("--", i) or text.startswith("/-", i):
            if before not in _SAFE_BEFORE and not is_id_rest(before):
                return None
            end = text.find("\n", i) if char == "-" else _block_comment_end(text, i)
            if char == "-" and end < 0:
                end = n
            if end < 0:
                return None
            out.append(_blank(text[i:end]))
            i = end
        elif char == '"':
            if before not in _SAFE_BEFORE and not is_id_rest(before):
                return None
            end = _string_end(text, i)
            if end < 0 or "{" in text[i:end]:
                return None
            out.append(_blank_inside(text[i:end]))
            i = end
        elif char == "'" and not text.startswith("''", i):
            end = _char_end(text, i)
            if end < 0:  # Lean: "missing end of character literal", an error; we keep it as code
                out.append(char)
                i += 1
                continue
            if before not in _SAFE_BEFORE and not before.isascii():
                return None
            if before not in _SAFE_BEFORE and not before.isalnum():
                return None
            out.append(_blank_inside(text[i:end]))
            i = end
        elif char == "«":
            end = text.find("»", i)
            if end < 0:
                return None
            out.append(text[i : end + 1])
            i = end + 1
        elif is_id_first(char):
            start = i
            while i < n and is_id_rest(text[i]):
                i += 1
            if text[start:i] == "r" and i < n and text[i] in '"#':
                return None  # a raw string literal
            if not text[start:i].isascii() and text.startswith(('"', "'", "--", "/-"), i):
                return None
            out.append(text[start:i])
        elif char.isascii() and char.isdigit():
            start = i
            while i < n and text[i].isascii() and (text[i].isalnum() or text[i] == "_"):
                i += 1
            out.append(text[start:i])
        else:
            out.append(char)
            i += 1
    return "".join(out)
