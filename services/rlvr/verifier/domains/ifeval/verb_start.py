"""`words:start_verb` (IFBench): whether a response begins with a verb, by a part-of-speech
tagger whose model ships inside a package.

IFBench tags NLTK's word tokens of the response with NLTK's averaged-perceptron tagger and asks
whether the first token's Penn Treebank tag contains `VB` (VB, VBD, VBG, VBN, VBP, VBZ). That
tagger's model is NLTK data: no package installs it and nothing may download at run time. The
tags here come from TextBlob's port of pattern's Brill tagger (a lexicon of Penn tags with
contextual rules, shipped in the `textblob` wheel): the same tag set asked the same question
about the same first token, which is NLTK's (the tokenizer in `text.py` gives NLTK's tokens).

The two taggers are different models, so they can disagree on a word that is both a noun and a
verb at the start of a sentence ("Design a plan": a noun here). That reading costs the policy a
reward it may have earned, never pays a noun start: docs/ifeval.md says so beside the family.
Only the start of the response is read (`_PREFIX_CHARS`), so the cost is bounded on any text.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from rlvr.verifier.domains.ifeval.checks import Check
from rlvr.verifier.domains.ifeval.text import sentence_tokenizer, tokenize_sentence

# The tagger's context is the next few tokens: the first sentence's start is enough, and reading
# no more keeps a long response's cost flat.
_PREFIX_CHARS = 400
_CONTEXT_TOKENS = 24


@cache
def _tagger() -> Any:
    """TextBlob's pattern tagger (`textblob.en.tag`); its lexicon loads on first use (~0.3 s),
    which the ifeval workers do before serving (`warm`)."""
    from textblob.en import tag

    return tag


def warm() -> None:
    """Load the tagger's lexicon now, so no item pays for it."""
    _tagger()("Read this.", tokenize=False)


def first_tokens(text: str) -> list[str]:
    """NLTK's `word_tokenize` tokens of the response's first sentence (at most a few dozen)."""
    prefix = text.lstrip()[:_PREFIX_CHARS]
    for sentence in sentence_tokenizer().tokenize(prefix):
        tokens = tokenize_sentence(sentence)
        if tokens:
            return tokens[:_CONTEXT_TOKENS]
    return []


def start_verb(text: str, kwargs: Mapping[str, Any]) -> Check:
    tokens = first_tokens(text)
    if not tokens:
        return Check(False, "no words")
    # tokenize=False: the tagger takes NLTK's tokens as they are, space-separated, one line
    first_word, first_tag = _tagger()(" ".join(tokens), tokenize=False)[0]
    is_verb = "VB" in first_tag
    return Check(
        is_verb,
        f"starts with {first_word!r}, tagged {first_tag}"
        + ("" if is_verb else "; needed a verb (a VB* tag)"),
    )
