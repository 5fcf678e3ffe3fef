"""IFBench's families (its test set's ids), the ones covered so far: a word-count range, unique
words, exactly N numbers, no whitespace. Semantics are IFBench's checkers'."""

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
