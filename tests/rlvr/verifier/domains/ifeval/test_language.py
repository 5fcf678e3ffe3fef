"""Our run of langdetect's sampling loop gives exactly `langdetect.detect`'s answers (seeded),
and our n-gram extraction exactly `Detector._extract_ngrams`'s n-grams."""

from __future__ import annotations

import random

import langdetect

from rlvr.verifier.domains.ifeval.language import _detect, _loaded, _ngrams, warm_up
from tests.support.ifbench_corpus import IFBENCH_IDS, ifbench_corpus
from tests.support.ifeval_corpus import ENGLISH, OTHER, corpus

#: Unicode blocks langdetect's `NGram.normalize` treats apart (Latin and its supplements and
#: extensions, combining marks, Greek to Arabic, Latin Extended Additional, general
#: punctuation, kana, bopomofo, CJK, Hangul), with spaces and capitals for its word rules.
BLOCKS = [
    (0x20, 0x250),
    (0x300, 0x700),
    (0x1E00, 0x1F00),
    (0x2000, 0x2070),
    (0x3040, 0x3130),
    (0x4E00, 0x4F00),
    (0xAC00, 0xAC40),
]
CHARACTERS = [chr(c) for start, end in BLOCKS for c in range(start, end)] + ["  ", "\n", "AB "]


def _langdetect(text: str) -> str | None:
    try:
        return str(langdetect.detect(text))
    except langdetect.LangDetectException:
        return None


def test_same_language_as_langdetect_on_every_text() -> None:
    warm_up()  # seeds langdetect's factory with 0, as ours
    texts = [*ENGLISH, *OTHER.values(), "12345", "", "Ciao! Hello! Hola!", "日本語と English"]
    texts += sorted({item.response for item in corpus(400, seed=5)})
    assert [_detect(t) for t in texts] == [_langdetect(t) for t in texts]


def test_the_answer_is_the_same_every_time() -> None:
    text = "Ciao! Hello! Hola! Bonjour!"  # an ambiguous text: unseeded, langdetect varies
    assert len({_detect(text) for _ in range(20)}) == 1


def test_same_ngrams_as_langdetect() -> None:
    profiles = _loaded()
    rng = random.Random(7)
    texts = [*ENGLISH, *OTHER.values(), "", "NASA and the USA. OK", "日本語と English"]
    texts += [entry.response for entry in corpus(400, seed=5)]
    texts += [entry.response for entry in ifbench_corpus(400, IFBENCH_IDS, seed=5)]
    texts += ["".join(rng.choices(CHARACTERS, k=rng.randint(0, 60))) for _ in range(5000)]
    for text in texts:
        detector = profiles.factory.create()
        detector.append(text)
        detector.cleaning_text()
        expected = detector._extract_ngrams()
        assert _ngrams(detector.text, profiles.factory.word_lang_prob_map) == expected, text
