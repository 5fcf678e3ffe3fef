"""What the ifeval worker processes import before their first task (the forkserver preloads
it): the checkers, Punkt's English model, langdetect's profiles and the POS tagger's lexicon,
so a replacement worker starts warm."""

from __future__ import annotations

from rlvr.verifier.domains.ifeval import (
    verb_start,
    verifier,  # noqa: F401  (the task function's module)
)
from rlvr.verifier.domains.ifeval.language import warm_up
from rlvr.verifier.domains.ifeval.text import sentence_tokenizer

sentence_tokenizer()
warm_up()
verb_start.warm()
