"""`detectable_content:*`: `[placeholder]`s and a postscript, by linear scanners.

IFEval's `\\[.*?\\]` rescans a line from every `[` (quadratic on `[[[[…`), and its postscript
pattern starts with an unanchored `\\s*` (quadratic on long whitespace); the scanners below
count the same matches in one pass.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rlvr.verifier.domains.ifeval.checks import Check

# The postscript patterns without IFEval's leading `\s*` and trailing `.*$`, which always match
# (an empty run; the rest of a line): whether any match exists is unchanged. Fixed length.
_PPS = re.compile(r"p\.\s?p\.\s?s")
_PS = re.compile(r"p\.\s?s\.")


def count_placeholders(text: str) -> int:
    """Matches of `\\[.*?\\]`: a `[`, then the nearest `]` on the same line. A `[` with no `]`
    after it on its line means no later `[` of that line has one either: skip the line."""
    count, at = 0, 0
    while True:
        start = text.find("[", at)
        if start < 0:
            return count
        line_end = text.find("\n", start)
        limit = len(text) if line_end < 0 else line_end
        close = text.find("]", start + 1, limit)
        if close < 0:
            at = limit + 1
            continue
        count += 1
        at = close + 1


def number_placeholders(text: str, kwargs: Mapping[str, Any]) -> Check:
    count, wanted = count_placeholders(text), kwargs["num_placeholders"]
    return Check(count >= wanted, f"{count} [placeholder]s; needed at least {wanted}")


def _marker_pattern(marker: str) -> re.Pattern[str]:
    """A marker other than P.S./P.P.S, read as IFEval reads it (a pattern), lower-cased: its `.`
    are wildcards; any other pattern syntax is taken literally (fixed length: linear)."""
    pieces = [re.escape(piece) for piece in marker.lower().split(".")]
    return re.compile(".".join(pieces))


def postscript(text: str, kwargs: Mapping[str, Any]) -> Check:
    marker = kwargs["postscript_marker"].strip()
    lowered = text.lower()
    if marker == "P.P.S":
        found = _PPS.search(lowered)
    elif marker == "P.S.":
        found = _PS.search(lowered)
    else:
        found = _marker_pattern(marker).search(lowered)
    if found:
        return Check(True, f"postscript {marker!r} found")
    return Check(False, f"no postscript starting with {marker!r}")
