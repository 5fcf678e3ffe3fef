"""Our run of langdetect's sampling loop gives exactly `langdetect.detect`'s answers (seeded)."""

from __future__ import annotations

import langdetect

from rlvr.verifier.domains.ifeval.language import _detect, warm_up
from tests.support.ifeval_corpus import ENGLISH, OTHER, corpus


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
