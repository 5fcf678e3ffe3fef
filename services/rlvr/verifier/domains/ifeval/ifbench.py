"""IFBench's families (its test set's ids), the ones covered so far: a word-count range, unique
words, exactly N numbers, no whitespace, keywords 1/2/3/5/7 times, palindromes, every
punctuation mark. Semantics are IFBench's checkers'."""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Any

from rlvr.verifier.domains.ifeval.checks import Check
from rlvr.verifier.domains.ifeval.text import count_words

_PUNCTUATION = string.punctuation
_WORD_EDGES = _PUNCTUATION + " "
_NO_PUNCTUATION = str.maketrans("", "", _PUNCTUATION)
_DIGIT_RUN = re.compile(r"\d+")  # one class run: linear


def word_count_range(text: str, kwargs: Mapping[str, Any]) -> Check:
    count, low, high = count_words(text), kwargs["min_words"], kwargs["max_words"]
    return Check(low <= count <= high, f"{count} words; needed between {low} and {high}")


def unique_word_count(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Distinct lower-cased whitespace-separated tokens, ASCII punctuation stripped from their
    ends (IFBench's reading: a token of only punctuation counts as the empty word)."""
    unique = {token.strip(_WORD_EDGES) for token in text.lower().split()}
    wanted = kwargs["N"]
    return Check(len(unique) >= wanted, f"{len(unique)} unique words; needed at least {wanted}")


def numbers(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Digit runs once ASCII punctuation is removed (so `3.14` and `1,000` are one number)."""
    count = sum(1 for _ in _DIGIT_RUN.finditer(text.translate(_NO_PUNCTUATION)))
    wanted = kwargs["N"]
    return Check(count == wanted, f"{count} numbers; needed exactly {wanted}")


def no_whitespace(text: str, kwargs: Mapping[str, Any]) -> Check:
    spaces = sum(1 for char in text if char.isspace())
    return Check(spaces == 0, f"{spaces} whitespace character(s)" if spaces else "no whitespace")


#: `keyword1` .. `keyword5` must occur exactly this many times (IFBench's fixed counts).
KEYWORD_COUNTS = (1, 2, 3, 5, 7)


def keywords_multiple(text: str, kwargs: Mapping[str, Any]) -> Check:
    lowered = text.lower()
    for index, wanted in enumerate(KEYWORD_COUNTS, start=1):
        keyword = kwargs[f"keyword{index}"].strip()
        count = lowered.count(keyword.lower())
        if count != wanted:
            return Check(False, f"{keyword!r} occurs {count} time(s); needed exactly {wanted}")
    return Check(True, "every keyword occurs its number of times (1, 2, 3, 5, 7)")


def palindrome(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Whitespace tokens, ASCII punctuation removed, lower-cased, read the same both ways,
    at least 5 characters: at least 10 of them (repeats count)."""
    tokens = text.translate(_NO_PUNCTUATION).lower().split()
    count = sum(1 for token in tokens if len(token) >= 5 and token == token[::-1])
    return Check(count >= 10, f"{count} palindromes of 5+ letters; needed at least 10")


_MARKS = frozenset(".,!?;:")


def punctuation(text: str, kwargs: Mapping[str, Any]) -> Check:
    """An interrobang (`?!`, `!?` or `‽`) and each of `. , ! ? ; :` besides the first `?!` (or,
    when there is none, the first `!?`) that made the interrobang."""
    if not ("!?" in text or "?!" in text or "\u203d" in text):
        return Check(False, "no interrobang (?!, !? or \u203d)")
    rest = text.replace("?!", "", 1)
    if len(rest) == len(text):
        rest = text.replace("!?", "", 1)
    missing = sorted(_MARKS - set(rest))
    if missing:
        return Check(False, f"missing punctuation {missing}")
    return Check(True, "every punctuation mark and an interrobang")
