"""`keywords:*`: keywords present, a keyword's frequency, forbidden words, a letter's frequency.

IFEval hands keywords to `re` as patterns, case-insensitively; the published keywords are
plain words, and here they are matched as literal text (a keyword such as `C++` would be a
broken pattern there, and a `.` a wildcard). Lower-casing both sides and `str.find` keeps each
search linear in the response.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rlvr.verifier.domains.ifeval.checks import Check, compare
from rlvr.verifier.domains.ifeval.text import has_boundary


def _occurrences(haystack: str, needle: str) -> int:
    """Non-overlapping occurrences, left to right (what `re.findall` of a literal counts)."""
    return haystack.count(needle) if needle else 0


def _has_whole_word(haystack: str, needle: str) -> bool:
    """Whether `\\bneedle\\b` matches: an occurrence with a word boundary at both ends."""
    start = haystack.find(needle)
    while start >= 0:
        if has_boundary(haystack, start) and has_boundary(haystack, start + len(needle)):
            return True
        start = haystack.find(needle, start + 1)
    return False


def existence(text: str, kwargs: Mapping[str, Any]) -> Check:
    lowered = text.lower()
    missing = [k for k in sorted(kwargs["keywords"]) if k.lower() not in lowered]
    if missing:
        return Check(False, f"missing keyword(s) {missing}")
    return Check(True, f"all of {sorted(kwargs['keywords'])} present")


def frequency(text: str, kwargs: Mapping[str, Any]) -> Check:
    keyword = kwargs["keyword"].strip()
    count = _occurrences(text.lower(), keyword.lower())
    return compare(count, kwargs["relation"], kwargs["frequency"], f"occurrence(s) of {keyword!r}")


def forbidden_words(text: str, kwargs: Mapping[str, Any]) -> Check:
    lowered = text.lower()
    used = [
        w for w in sorted(set(kwargs["forbidden_words"])) if _has_whole_word(lowered, w.lower())
    ]
    if used:
        return Check(False, f"uses forbidden word(s) {used}")
    return Check(True, "no forbidden word used")


def letter_frequency(text: str, kwargs: Mapping[str, Any]) -> Check:
    letter = kwargs["letter"].lower()
    count = text.lower().count(letter)
    return compare(count, kwargs["let_relation"], kwargs["let_frequency"], f"letter {letter!r}")
