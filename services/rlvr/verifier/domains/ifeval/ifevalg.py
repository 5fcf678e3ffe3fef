"""open-instruct's IFEvalG additions (the 29 IFBench training families): copying, sentence and
answer first/last words, paragraphs, brackets, punctuation bans, counting.

Semantics are IFEvalG's checkers' (read from open-instruct's `IFEvalG/instructions.py`). Where
they hand a keyword or phrase word to `re` as a pattern, it is matched here as literal text
(as `keywords:*` does), which keeps every search linear in the response.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import pairwise
from typing import Any

from rlvr.verifier.domains.ifeval.checks import Check, compare
from rlvr.verifier.domains.ifeval.text import split_sentences, word_tokens

# --- copying ----------------------------------------------------------------------------------


def _same_text(a: str, b: str) -> bool:
    return a.strip().lower() == b.strip().lower()


def copy(text: str, kwargs: Mapping[str, Any]) -> Check:
    """The request, verbatim (ignoring case and outer whitespace)."""
    met = _same_text(text, kwargs["prompt_to_repeat"])
    return Check(met, "the request, verbatim" if met else "not the request verbatim")


def copying_multiple(text: str, kwargs: Mapping[str, Any]) -> Check:
    """The request N times, separated by `******`."""
    copies, wanted = text.split("******"), kwargs["N"]
    if len(copies) != wanted:
        return Check(False, f"{len(copies)} part(s) between '******'; needed {wanted}")
    met = all(_same_text(part, kwargs["prompt_to_repeat"]) for part in copies)
    return Check(met, f"the request {wanted} times" if met else "a part is not the request")


def copy_span_idx(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Characters n_start to n_end of the request (a slice), ignoring case and outer space."""
    span = kwargs["prompt_to_repeat"][kwargs["n_start"] : kwargs["n_end"]]
    met = _same_text(text, span)
    return Check(met, "the span, exactly" if met else f"not the span {span.strip()[:60]!r}")


def _phrase_matches(text: str, first: str, last: str) -> list[str]:
    """What `re.findall(f"{first} .*? {last}", text)` finds, the words taken literally: from
    each `first ` the shortest run to ` last` on the same line; a line with none is skipped
    whole (no later start on it can reach a ` last` either)."""
    found: list[str] = []
    at, head, tail = 0, first + " ", " " + last
    while True:
        start = text.find(head, at)
        if start < 0:
            return found
        line_end = text.find("\n", start)
        line_end = len(text) if line_end < 0 else line_end
        end = text.find(tail, start + len(head), line_end)
        if end < 0:
            at = line_end + 1
            continue
        found.append(text[start : end + len(tail)])
        at = end + len(tail)


def repeat_phrase(text: str, kwargs: Mapping[str, Any]) -> Check:
    """The phrase N times, each with its words but one the same (IFEvalG: every copy at most one
    word changed, the last exactly one)."""
    reference = kwargs["phrase"].strip().split()
    found = _phrase_matches(text, reference[0], reference[-1])
    wanted = kwargs["small_n"]
    if len(found) != wanted:
        return Check(False, f"{len(found)} cop(ies) of the phrase; needed {wanted}")
    differences = 0
    for number, phrase in enumerate(found, start=1):
        words = phrase.split()
        if len(words) != len(reference):
            return Check(False, f"copy {number} has {len(words)} words, not {len(reference)}")
        differences = sum(1 for a, b in zip(words, reference, strict=True) if a != b)
        if differences > 1:
            return Check(False, f"copy {number} changes {differences} words; at most one")
    if differences != 1:
        return Check(False, "the last copy changes no word; needed exactly one")
    return Check(True, f"the phrase {wanted} times, one word changed")


# --- words ------------------------------------------------------------------------------------


def sentence_hyphens(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Sentences joined by hyphens with no spaces: each `-` piece is a whole sentence (as the
    splitter finds them with hyphens read as spaces) with no outer whitespace."""
    gold = split_sentences(text.replace("-", " "))
    for number, (piece, sentence) in enumerate(zip(text.split("-"), gold, strict=False), start=1):
        if piece.strip() != piece or piece != sentence:
            return Check(False, f"piece {number} {piece[:40]!r} is not one bare sentence")
    return Check(True, "sentences joined by hyphens")


def no_adjacent_consecutive(text: str, kwargs: Mapping[str, Any]) -> Check:
    tokens = text.split()
    for a, b in pairwise(tokens):
        first, second = a[0].lower(), b[0].lower()
        if len(first) != 1 or len(second) != 1:
            return Check(False, f"{a!r} or {b!r} starts with a letter that lower-cases to two")
        if ord(second) - ord(first) == 1:
            return Check(False, f"{a!r} then {b!r}: consecutive first letters")
    return Check(True, "no adjacent words with consecutive first letters")


def square_brackets(text: str, kwargs: Mapping[str, Any]) -> Check:
    bad = next((t for t in text.split() if not (t.startswith("[") and t.endswith("]"))), None)
    return Check(bad is None, "every word in brackets" if bad is None else f"{bad[:40]!r}")


def _count(text: str, keyword: str) -> int:
    """Occurrences of the keyword, any case, as literal text (IFEvalG: `re.findall`, IGNORECASE)."""
    needle = keyword.lower()
    return text.lower().count(needle) if needle else 0


def word_once(text: str, kwargs: Mapping[str, Any]) -> Check:
    keyword = kwargs["keyword"].strip()
    count = _count(text, keyword)
    return Check(count == 1, f"{keyword!r} occurs {count} time(s); needed once")


def word_count_different_numbers(text: str, kwargs: Mapping[str, Any]) -> Check:
    keyword = kwargs["keyword"].strip()
    count = _count(text, keyword)
    return compare(count, kwargs["relation"], kwargs["frequency"], f"occurrence(s) of {keyword!r}")


def exclude_word_harder(text: str, kwargs: Mapping[str, Any]) -> Check:
    """The keyword never appears between two spaces (IFEvalG's test, exactly)."""
    keyword = kwargs["keyword"].strip()
    met = f" {keyword} " not in text
    return Check(met, f"{keyword!r} not used" if met else f"uses {keyword!r}")


def count_increment_word(text: str, kwargs: Mapping[str, Any]) -> Check:
    one, two = kwargs["keyword1"].strip(), kwargs["keyword2"].strip()
    counts = _count(text, one), _count(text, two)
    met = counts == (1, 2)
    return Check(met, f"{one!r} {counts[0]} time(s), {two!r} {counts[1]}; needed 1 and 2")


def palindrome_basic(text: str, kwargs: Mapping[str, Any]) -> Check:
    """A whitespace token that reads the same backwards (one character is enough, as in
    IFEvalG)."""
    found = next((t for t in text.split() if t == t[::-1]), None)
    return Check(found is not None, f"palindrome {found!r}" if found else "no palindrome")


def keyword_specific_position(text: str, kwargs: Mapping[str, Any]) -> Check:
    keyword, n, m = kwargs["keyword"], kwargs["n"], kwargs["m"]
    sentences = split_sentences(text)
    if len(sentences) < n:
        return Check(False, f"{len(sentences)} sentences; needed at least {n}")
    tokens = word_tokens(sentences[n - 1])
    if len(tokens) < m:
        return Check(False, f"sentence {n} has {len(tokens)} words; needed at least {m}")
    met = tokens[m - 1] == keyword
    return Check(met, f"word {m} of sentence {n} is {tokens[m - 1]!r}; needed {keyword!r}")


def start_end(text: str, kwargs: Mapping[str, Any]) -> Check:
    tokens = word_tokens(text)
    if len(tokens) < 2:
        return Check(False, f"{len(tokens)} word(s)")
    met = tokens[0].lower() == tokens[-1].lower()
    return Check(met, f"starts {tokens[0]!r}, ends {tokens[-1]!r}")


def first_word_sent(text: str, kwargs: Mapping[str, Any]) -> Check:
    wanted = kwargs["first_word"].lower()
    for number, sentence in enumerate(split_sentences(text), start=1):
        if not sentence.strip() or sentence.split()[0].strip().lower() != wanted:
            return Check(False, f"sentence {number} does not start with {wanted!r}")
    return Check(True, f"every sentence starts with {wanted!r}")


def first_word_answer(text: str, kwargs: Mapping[str, Any]) -> Check:
    tokens, wanted = text.split(), kwargs["first_word"].lower()
    met = bool(tokens) and tokens[0].lower() == wanted
    return Check(met, f"starts with {tokens[0][:40]!r}" if tokens else "no words")


_NOT_WORD = re.compile(r"[^\w\s]")


def last_word_sent(text: str, kwargs: Mapping[str, Any]) -> Check:
    wanted = kwargs["last_word"].lower()
    for number, sentence in enumerate(split_sentences(text), start=1):
        if not sentence.strip():
            return Check(False, f"sentence {number} is empty")
        last = _NOT_WORD.sub("", sentence.split()[-1].strip())
        if last.lower() != wanted:
            return Check(False, f"sentence {number} ends with {last[:40]!r}, not {wanted!r}")
    return Check(True, f"every sentence ends with {wanted!r}")


def last_word_answer(text: str, kwargs: Mapping[str, Any]) -> Check:
    tokens, wanted = text.split(), kwargs["last_word"].lower()
    if not tokens:
        return Check(False, "no words")
    last = _NOT_WORD.sub("", tokens[-1].strip())
    return Check(last.lower() == wanted, f"ends with {last[:40]!r}; needed {wanted!r}")


def bigram_wrapping(text: str, kwargs: Mapping[str, Any]) -> Check:
    tokens = text.split()
    for index in range(0, len(tokens) - 1, 2):
        if not (tokens[index].startswith("<<") and tokens[index + 1].endswith(">>")):
            return Check(False, f"words {index + 1}-{index + 2} are not wrapped in << >>")
    return Check(True, "every bigram wrapped in << >>")


# --- paragraphs and counts --------------------------------------------------------------------

_DIVIDER = re.compile(r"\s?\*\*\*\s?")


def _paragraphs(pieces: list[str]) -> int | None:
    """IFEvalG's count: blank pieces at either end do not count, a blank one inside is a fault
    (None)."""
    count = len(pieces)
    for index, piece in enumerate(pieces):
        if not piece.strip():
            if index in (0, len(pieces) - 1):
                count -= 1
            else:
                return None
    return count


def _two_paragraphs(pieces: list[str], how: str) -> Check:
    count = _paragraphs(pieces)
    if count is None:
        return Check(False, f"an empty paragraph between {how}")
    return Check(count == 2, f"{count} paragraph(s) separated by {how}; needed 2")


def paragraphs(text: str, kwargs: Mapping[str, Any]) -> Check:
    return _two_paragraphs(_DIVIDER.split(text), "***")


def paragraphs2(text: str, kwargs: Mapping[str, Any]) -> Check:
    return _two_paragraphs(text.split("\n\n"), "blank lines")


def counting_composition(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Three `***` paragraphs of exactly n_sent sentences of exactly n_words NLTK tokens (an
    empty piece at either end fails too: IFEvalG counts its sentences)."""
    n_sent, n_words = kwargs["n_sent"], kwargs["n_words"]
    pieces = _DIVIDER.split(text)
    for number, piece in enumerate(pieces, start=1):
        if not piece.strip() and 0 < number - 1 < len(pieces) - 1:
            return Check(False, f"paragraph {number} is empty")
        sentences = split_sentences(piece)
        if len(sentences) != n_sent:
            return Check(False, f"paragraph {number} has {len(sentences)} sentences, not {n_sent}")
        for sentence in sentences:
            count = len(word_tokens(sentence))
            if count != n_words:
                return Check(False, f"a sentence of {count} words in paragraph {number}")
    paragraphs_found = _paragraphs(pieces)
    return Check(paragraphs_found == 3, f"{paragraphs_found} paragraphs; needed 3")


def count_unique(text: str, kwargs: Mapping[str, Any]) -> Check:
    tokens = word_tokens(text)
    repeated = len(tokens) - len(set(tokens))
    return Check(repeated == 0, f"{repeated} repeated word(s)" if repeated else "no repeats")


_LOWER_WORD = re.compile(r"\b[a-z]+\b")  # a failed end backtracks within one run: linear


def lowercase_counting(text: str, kwargs: Mapping[str, Any]) -> Check:
    count, limit = sum(1 for _ in _LOWER_WORD.finditer(text)), kwargs["N"]
    return Check(count <= limit, f"{count} lowercase words; needed at most {limit}")


_LETTER = re.compile(r"[a-zA-Z]")


def letter_counting(text: str, kwargs: Mapping[str, Any]) -> Check:
    count = sum(1 for _ in _LETTER.finditer(text))
    return compare(count, kwargs["relation"], kwargs["N"], "letters")


def punctuation_dot(text: str, kwargs: Mapping[str, Any]) -> Check:
    count = text.count(".")
    return Check(count == 0, f"{count} dot(s)" if count else "no dots")


def punctuation_exclamation(text: str, kwargs: Mapping[str, Any]) -> Check:
    count = text.count("!")
    return Check(count == 0, f"{count} exclamation mark(s)" if count else "no exclamation marks")
