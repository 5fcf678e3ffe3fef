"""`length_constraints:*`: sentences, words, `***`-separated paragraphs, the nth paragraph's first
word (paragraphs separated by a blank line)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rlvr.verifier.domains.ifeval.checks import Check, compare
from rlvr.verifier.domains.ifeval.text import count_sentences, count_words

# One optional whitespace, `***`, one optional whitespace: fixed length, linear to search.
_DIVIDER = re.compile(r"\s?\*\*\*\s?")
_FIRST_WORD_STOPS = frozenset(".,?!'\"")


def number_sentences(text: str, kwargs: Mapping[str, Any]) -> Check:
    return compare(count_sentences(text), kwargs["relation"], kwargs["num_sentences"], "sentences")


def number_words(text: str, kwargs: Mapping[str, Any]) -> Check:
    return compare(count_words(text), kwargs["relation"], kwargs["num_words"], "words")


def number_paragraphs(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Exactly `num_paragraphs` parts between `***` dividers; an empty part is allowed only at
    the very start or end (a divider there), never in the middle."""
    parts = _DIVIDER.split(text)
    count = len(parts)
    for index, part in enumerate(parts):
        if not part.strip():
            if index in (0, len(parts) - 1):
                count -= 1
            else:
                return Check(False, f"an empty paragraph between dividers (part {index + 1})")
    wanted = kwargs["num_paragraphs"]
    return Check(count == wanted, f"{count} paragraphs separated by ***; needed exactly {wanted}")


def _first_word(paragraph: str) -> str:
    """IFEval's first word: the first whitespace-separated token, quotes stripped from its front,
    cut at the first punctuation mark, lower-cased."""
    word = paragraph.split()[0].strip().lstrip("'").lstrip('"')
    letters = []
    for char in word:
        if char in _FIRST_WORD_STOPS:
            break
        letters.append(char.lower())
    return "".join(letters)


def nth_paragraph_first_word(text: str, kwargs: Mapping[str, Any]) -> Check:
    paragraphs = text.split("\n\n")
    count = sum(1 for p in paragraphs if p.strip())
    nth, wanted_count = kwargs["nth_paragraph"], kwargs["num_paragraphs"]
    wanted_word = kwargs["first_word"].lower()
    if nth > count:
        return Check(False, f"{count} paragraphs; there is no paragraph {nth}")
    # IFEval indexes the split list, empty parts included (an empty one there fails)
    paragraph = paragraphs[nth - 1].strip()
    if not paragraph:
        return Check(False, f"paragraph {nth} is empty")
    first = _first_word(paragraph)
    if count != wanted_count:
        return Check(False, f"{count} paragraphs separated by a blank line; needed {wanted_count}")
    if first != wanted_word:
        return Check(False, f"paragraph {nth} starts with {first!r}, not {wanted_word!r}")
    return Check(True, f"{count} paragraphs; paragraph {nth} starts with {wanted_word!r}")
