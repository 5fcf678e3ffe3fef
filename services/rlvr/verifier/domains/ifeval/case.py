"""`change_case:*` and `punctuation:no_comma`: capital words, all upper or lower case English,
no commas."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rlvr.verifier.domains.ifeval.checks import Check, compare
from rlvr.verifier.domains.ifeval.language import detect_language
from rlvr.verifier.domains.ifeval.text import word_tokens


def capital_word_frequency(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Words in capitals among NLTK's word tokens (`DON'T` is two, `WELL-KNOWN` one)."""
    count = sum(1 for token in word_tokens(text) if token.isupper())
    return compare(count, kwargs["capital_relation"], kwargs["capital_frequency"], "capital words")


def _english(text: str, case: str) -> Check:
    found = detect_language(text)
    if found is None:
        return Check(False, f"{case}, but no language could be detected (no letters)")
    if found != "en":
        return Check(False, f"{case}, but detected language {found!r}, not English")
    return Check(True, f"English, {case}")


def english_capital(text: str, kwargs: Mapping[str, Any]) -> Check:
    if not text.isupper():
        return Check(False, "not all capital letters")
    return _english(text, "all capital letters")


def english_lowercase(text: str, kwargs: Mapping[str, Any]) -> Check:
    if not text.islower():
        return Check(False, "not all lowercase letters")
    return _english(text, "all lowercase letters")


def no_comma(text: str, kwargs: Mapping[str, Any]) -> Check:
    count = text.count(",")
    return Check(count == 0, f"{count} comma(s)" if count else "no commas")
