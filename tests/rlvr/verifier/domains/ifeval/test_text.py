"""Our run of NLTK's word tokenizer (rules skipped where they cannot match, no GIL release)
gives exactly `NLTKWordTokenizer().tokenize`'s tokens, and its guards cover NLTK's rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.tokenize.destructive import NLTKWordTokenizer

from rlvr.verifier.domains.ifeval import text
from rlvr.verifier.domains.ifeval.text import sentence_tokenizer, tokenize_sentence, word_tokens
from tests.support.ifbench_corpus import IFBENCH_IDS, ifbench_corpus
from tests.support.ifeval_corpus import ENGLISH, OTHER, corpus

NLTK = NLTKWordTokenizer()

#: Every character and piece a rule of NLTK's word tokenizer reacts to, with letters of both
#: cases (contractions are matched case-insensitively) and look-alikes of `re`'s case folding.
PIECES = [
    *"aAbBnNtTsSdDmMlLrRvVeEiIoOgGwWyYcC 0123456789",
    *"'\"`.,:;?!*-()[]{}<>@#$%&«»“”‘’„\u2012\u2013\u2014\u2015\n\t",
    *["n't", "N'T", "cannot", "CanNot", "gonna", "GOTTA", "gimme", "lemme", "wanna ", "more'n"],
    *["d'ye", " 'tis", " 'Twas", "''", "``", "...", "--", "'s ", "'LL ", "'re ", "'ve "],
    *["\u0130", "\u212a", "\u017f", "DON'T", "U.S.", "e.g.", "(see)", '"quoted"'],
]


def _texts() -> list[str]:
    texts = [*ENGLISH, *OTHER.values(), ""]
    texts += [entry.response for entry in corpus(600, seed=3)]
    texts += [entry.response for entry in ifbench_corpus(600, IFBENCH_IDS, seed=3)]
    return sorted(set(texts))


def test_every_rule_of_nltk_is_known_so_its_guard_applies() -> None:
    """A rule this module does not know always runs (still exact, only slower): this test
    says when a newer NLTK changed a rule, so that its guard gets read off again."""
    rules = [
        *NLTK.STARTING_QUOTES,
        *NLTK.PUNCTUATION,
        NLTK.PARENS_BRACKETS,
        NLTK.DOUBLE_DASHES,
        *NLTK.ENDING_QUOTES,
    ]
    assert [pattern.pattern in text._NEEDS for pattern, _ in rules] == [True] * len(rules)
    assert text._CONTRACTIONS_KNOWN


def test_same_tokens_as_nltk_on_every_sentence_of_the_corpora() -> None:
    sentences = [s for t in _texts() for s in sentence_tokenizer().tokenize(t)]
    assert len(sentences) > 3000
    assert [tokenize_sentence(s) for s in sentences] == [NLTK.tokenize(s) for s in sentences]


def test_same_word_tokens_as_nltk_on_whole_texts() -> None:
    for t in _texts():
        expected = [tok for s in sentence_tokenizer().tokenize(t) for tok in NLTK.tokenize(s)]
        assert word_tokens(t) == expected, t


def test_same_tokens_on_random_texts_of_the_rules_trigger_characters() -> None:
    rng = random.Random(0)
    texts = ["".join(rng.choices(PIECES, k=rng.randint(0, 30))) for _ in range(20_000)]
    differ = [t for t in texts if tokenize_sentence(t) != NLTK.tokenize(t)]
    assert differ == []


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=40).map("".join))
def test_same_tokens_on_generated_texts(sentence: str) -> None:
    assert tokenize_sentence(sentence) == NLTK.tokenize(sentence)


@pytest.mark.parametrize(
    ("sentence", "tokens"),
    [
        ("I DON'T KNOW.", ["I", "DO", "N'T", "KNOW", "."]),
        (
            'He said "CANNOT" -- twice.',
            ["He", "said", "``", "CAN", "NOT", "''", "--", "twice", "."],
        ),
        ("'Tis (WELL-KNOWN)...", ["'", "Tis", "(", "WELL-KNOWN", ")", "..."]),
    ],
)
def test_tokens_of_a_few_sentences(sentence: str, tokens: list[str]) -> None:
    assert tokenize_sentence(sentence) == tokens == NLTK.tokenize(sentence)
