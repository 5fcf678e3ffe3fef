"""IFBench's test families on counts, ratios, words and sentences (its ids and kwargs).

Semantics are IFBench's checkers' (read from its `instructions.py`), written here without its
quadratic list edits; sentences are IFEval's rule-based splitter (`split_sentences`), words
mostly whitespace tokens with ASCII punctuation removed or stripped, as each checker does.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from itertools import pairwise
from typing import Any

import syllapy

from rlvr.verifier.domains.ifeval.checks import Check
from rlvr.verifier.domains.ifeval.text import (
    PUNCTUATION_SPACE,
    count_words,
    split_sentences,
    without_punctuation,
    words,
)
from rlvr.verifier.domains.ifeval.wordlists import ENGLISH_STOPWORDS, PRONOUNS

_DIGIT_RUN = re.compile(r"\d+")  # one class run: linear


def word_count_range(text: str, kwargs: Mapping[str, Any]) -> Check:
    count, low, high = count_words(text), kwargs["min_words"], kwargs["max_words"]
    return Check(low <= count <= high, f"{count} words; needed between {low} and {high}")


def unique_word_count(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Distinct lower-cased whitespace-separated tokens, ASCII punctuation stripped from their
    ends (IFBench's reading: a token of only punctuation counts as the empty word)."""
    unique = {token.strip(PUNCTUATION_SPACE) for token in text.lower().split()}
    wanted = kwargs["N"]
    return Check(len(unique) >= wanted, f"{len(unique)} unique words; needed at least {wanted}")


def stop_words(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Stop words (NLTK's English list) among the `\\w+` words, as a percentage: at most
    `percentage`."""
    tokens = words(text)
    if not tokens:
        return Check(False, "no words")
    stop = sum(1 for token in tokens if token.lower() in ENGLISH_STOPWORDS)
    share, limit = 100 * stop / len(tokens), kwargs["percentage"]
    return Check(share <= limit, f"{share:.1f} % stop words; needed at most {limit} %")


def _endings(text: str) -> tuple[int, int, int]:
    sentences = split_sentences(text)
    return (
        sum(1 for s in sentences if s.endswith(".")),
        sum(1 for s in sentences if s.endswith("?")),
        sum(1 for s in sentences if s.endswith("!")),
    )


def sentence_type(text: str, kwargs: Mapping[str, Any]) -> Check:
    declarative, interrogative, _ = _endings(text)
    met = declarative == 2 * interrogative
    return Check(met, f"{declarative} declarative, {interrogative} interrogative; needed 2:1")


def sentence_balance(text: str, kwargs: Mapping[str, Any]) -> Check:
    counts = _endings(text)
    return Check(
        counts[0] == counts[1] == counts[2],
        f"{counts[0]} declarative, {counts[1]} interrogative, {counts[2]} exclamatory; "
        "needed equal",
    )


_CONJUNCTIONS = frozenset(("and", "but", "for", "nor", "or", "so", "yet"))


def conjunctions(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Distinct tokens (as written: `and` and `and,` are two) that are coordinating
    conjunctions once stripped and lower-cased."""
    found = {t for t in text.split() if t.strip(PUNCTUATION_SPACE).lower() in _CONJUNCTIONS}
    wanted = kwargs["small_n"]
    return Check(len(found) >= wanted, f"{len(found)} different conjunction(s); needed {wanted}")


PERSON_NAMES = [
    "Emma",
    "Liam",
    "Sophia",
    "Jackson",
    "Olivia",
    "Noah",
    "Ava",
    "Lucas",
    "Isabella",
    "Mason",
    "Mia",
    "Ethan",
    "Charlotte",
    "Alexander",
    "Amelia",
    "Benjamin",
    "Harper",
    "Leo",
    "Zoe",
    "Daniel",
    "Chloe",
    "Samuel",
    "Lily",
    "Matthew",
    "Grace",
    "Owen",
    "Abigail",
    "Gabriel",
    "Ella",
    "Jacob",
    "Scarlett",
    "Nathan",
    "Victoria",
    "Elijah",
    "Layla",
    "Nicholas",
    "Audrey",
    "David",
    "Hannah",
    "Christopher",
    "Penelope",
    "Thomas",
    "Nora",
    "Andrew",
    "Aria",
    "Joseph",
    "Claire",
    "Ryan",
    "Stella",
    "Jonathan",
]


def person_names(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Names of IFBench's list found as substrings, case-sensitively (`Leo` in `Leonard`)."""
    found = [name for name in PERSON_NAMES if name in text]
    wanted = kwargs["N"]
    return Check(len(found) >= wanted, f"{len(found)} listed name(s); needed at least {wanted}")


def _trigrams(text: str) -> set[str]:
    return {text[i : i + 3] for i in range(len(text) - 2)}


def overlap(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Character trigrams of the response also in the reference text, as a share of the
    response's distinct trigrams: within 2 points of `percentage`."""
    mine = _trigrams(text)
    if not mine:
        return Check(False, "no trigrams")
    share = 100 * len(mine & _trigrams(kwargs["reference_text"])) / len(mine)
    wanted = kwargs["percentage"]
    met = wanted - 2 <= share <= wanted + 2
    return Check(met, f"{share:.1f} % trigram overlap; needed {wanted} % (±2)")


def numbers(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Digit runs once ASCII punctuation is removed (so `3.14` and `1,000` are one number)."""
    count = sum(1 for _ in _DIGIT_RUN.finditer(without_punctuation(text)))
    wanted = kwargs["N"]
    return Check(count == wanted, f"{count} numbers; needed exactly {wanted}")


_ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def alphabet(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Each word starts with the letter after the previous word's (z loops to a)."""
    tokens = without_punctuation(text).strip(PUNCTUATION_SPACE).split()
    if not tokens:
        return Check(False, "no words")
    letter = tokens[0][0].lower()
    if letter not in _ALPHABET:
        return Check(False, f"the first word {tokens[0]!r} does not start with a letter")
    for index, token in enumerate(tokens[1:], start=2):
        letter = _ALPHABET[(_ALPHABET.index(letter) + 1) % 26]
        if token.lower()[0] != letter:
            return Check(False, f"word {index} {token!r} does not start with {letter!r}")
    return Check(True, f"{len(tokens)} words in alphabet order")


def vowel(text: str, kwargs: Mapping[str, Any]) -> Check:
    """One paragraph (no line break inside), at most three distinct vowels."""
    lines = text.strip().split("\n")
    if len(lines) != 1:
        return Check(False, f"{len(lines)} lines; needed one paragraph")
    used = sorted(set(lines[0].lower()) & set("aeiou"))
    return Check(len(used) <= 3, f"vowels used: {used}; needed at most three kinds")


_CONSONANTS = frozenset("bcdfghjklmnpqrstvwxyz")


def consonants(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Every whitespace token has two adjacent ASCII consonants."""
    for token in text.lower().strip().split():
        if not any(a in _CONSONANTS and b in _CONSONANTS for a, b in pairwise(token)):
            return Check(False, f"{token!r} has no consonant cluster")
    return Check(True, "every word has a consonant cluster")


def alliteration_increment(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Each sentence has more alliterating words (in runs of a shared first letter) than the
    one before."""
    previous = -1
    for number, sentence in enumerate(split_sentences(text), start=1):
        tokens = [t.lstrip(PUNCTUATION_SPACE) for t in sentence.lower().split()]
        tokens = [t for t in tokens if t]
        count, in_run = 0, False
        for a, b in pairwise(tokens):
            if a[0] == b[0]:
                count += 1 if in_run else 2
                in_run = True
            else:
                in_run = False
        if count <= previous:
            return Check(False, f"sentence {number} has {count} alliterating words, not more")
        previous = count
    return Check(True, "alliteration grows sentence by sentence")


def palindrome(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Whitespace tokens, ASCII punctuation removed, lower-cased, read the same both ways,
    at least 5 characters: at least 10 of them (repeats count)."""
    tokens = without_punctuation(text).lower().split()
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


_PRIMES = frozenset((2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67))
_PRIMES |= frozenset((71, 73, 79, 83, 89, 97))


def prime_lengths(text: str, kwargs: Mapping[str, Any]) -> Check:
    for token in without_punctuation(text).split():
        if len(token) not in _PRIMES:
            return Check(False, f"{token!r} has {len(token)} characters, not a prime")
    return Check(True, "every word has a prime length")


_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def words_japanese(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Every N-th whitespace token (punctuation stripped; digits and empty ones exempt) has a
    kana or kanji."""
    step = kwargs["N"]
    for index, token in enumerate(text.split(), start=1):
        token = token.strip(PUNCTUATION_SPACE)
        if index % step == 0 and token and not token.isdigit() and not _JAPANESE.search(token):
            return Check(False, f"word {index} {token!r} is not Japanese")
    return Check(True, f"every {step}th word is Japanese")


def repeats(text: str, kwargs: Mapping[str, Any]) -> Check:
    counts = Counter(without_punctuation(text.lower()).split())
    limit = kwargs["small_n"]
    worst = max(counts.items(), key=lambda kv: kv[1], default=("", 0))
    if worst[1] > limit:
        return Check(False, f"{worst[0]!r} occurs {worst[1]} times; at most {limit} allowed")
    return Check(True, f"no word more than {limit} times")


def sentence_keyword(text: str, kwargs: Mapping[str, Any]) -> Check:
    """The keyword (any case, as a substring) in the N-th sentence."""
    sentences, wanted, keyword = split_sentences(text), kwargs["N"], kwargs["word"]
    if len(sentences) < wanted:
        return Check(False, f"{len(sentences)} sentences; needed at least {wanted}")
    met = keyword.lower() in sentences[wanted - 1].lower()
    return Check(met, f"{keyword!r} {'in' if met else 'not in'} sentence {wanted}")


def pronouns(text: str, kwargs: Mapping[str, Any]) -> Check:
    tokens = without_punctuation(text.replace("/", " ").lower()).split()
    count, wanted = sum(1 for t in tokens if t in PRONOUNS), kwargs["N"]
    return Check(count >= wanted, f"{count} pronouns; needed at least {wanted}")


def odd_even_syllables(text: str, kwargs: Mapping[str, Any]) -> Check:
    """Syllable counts (syllapy) of consecutive words alternate between odd and even."""
    tokens = without_punctuation(text).lower().split()
    parities = [syllapy.count(token) % 2 for token in tokens]
    for index in range(len(parities) - 1):
        if parities[index] == parities[index + 1]:
            pair = f"{tokens[index]!r}, {tokens[index + 1]!r}"
            return Check(False, f"{pair}: same syllable parity")
    return Check(True, "syllable parity alternates")


def last_first(text: str, kwargs: Mapping[str, Any]) -> Check:
    sentences = split_sentences(text)
    for number, (current, following) in enumerate(pairwise(sentences), start=1):
        last = current.rstrip(PUNCTUATION_SPACE).split()
        first = following.lstrip(PUNCTUATION_SPACE).split()
        if not last or not first:
            return Check(False, f"sentence {number} or the next has no words")
        if last[-1].lower() != first[0].lower():
            return Check(
                False, f"sentence {number} ends {last[-1]!r}, the next starts {first[0]!r}"
            )
    return Check(True, "each sentence starts with the last word of the one before")


def paragraph_last_first(text: str, kwargs: Mapping[str, Any]) -> Check:
    for number, line in enumerate(text.split("\n"), start=1):
        tokens = line.strip().lower().strip(PUNCTUATION_SPACE).split()
        if tokens and tokens[0] != tokens[-1]:
            return Check(False, f"line {number} starts {tokens[0]!r} and ends {tokens[-1]!r}")
    return Check(True, "every paragraph ends with the word it started with")


def sentence_increment(text: str, kwargs: Mapping[str, Any]) -> Check:
    sentences, step = split_sentences(text), kwargs["small_n"]
    if not sentences:
        return Check(False, "no sentences")
    counts = [len(without_punctuation(s).split()) for s in sentences]
    for number, (before, after) in enumerate(pairwise(counts), start=2):
        if after != before + step:
            return Check(False, f"sentence {number} has {after} words after {before}; step {step}")
    return Check(True, f"each sentence {step} word(s) longer: {counts}")


def no_consecutive(text: str, kwargs: Mapping[str, Any]) -> Check:
    tokens = without_punctuation(text.lower()).split()
    for a, b in pairwise(tokens):
        if a[0] == b[0]:
            return Check(False, f"{a!r} and {b!r} share their first letter")
    return Check(True, "no two consecutive words share a first letter")
