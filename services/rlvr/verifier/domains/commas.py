"""Split text at the commas outside every bracket: a math answer's listing, a Lean attribute list.

One scanner for both domains. Brackets are `()[]{}` and need not match (a half-open interval
`[1, 2)` is one part); LaTeX's `\\{` counts as a bracket like `{`. With `strings`, commas inside
a `"…"` literal (backslash escapes honoured) do not split either, as in Lean source.
"""

from __future__ import annotations

import re

# only these characters can change the split: the scan visits them and skips the rest
_PLAIN_RE = re.compile(r"[()\[\]{},]")
_WITH_STRINGS_RE = re.compile(r'[()\[\]{},"\\]')


def split_top_level(text: str, *, strings: bool = False) -> list[str]:
    """`a, (b, c), d` -> [`a`, ` (b, c)`, ` d`]: the parts as written (not stripped)."""
    parts: list[str] = []
    depth, start, escaped_until, in_string = 0, 0, 0, False
    for match in (_WITH_STRINGS_RE if strings else _PLAIN_RE).finditer(text):
        index = match.start()
        if index < escaped_until:
            continue  # the character after a backslash inside a string literal
        char = text[index]
        if in_string:
            if char == "\\":
                escaped_until = index + 2
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return parts
