"""IFEval's and IFBench's reference checkers (the `if-verifiable` package), run in-process.

Only tests and benchmarks use it, to measure agreement and speed. Two things are set up so it
runs here without downloads and gives reproducible verdicts: NLTK's Punkt English model comes
from the same package our checkers use (the reference would load or download NLTK data), as
does NLTK's English stop-word list (IFBench's `ratio:stop_words`), and langdetect is seeded
(the reference leaves it unseeded; our checkers seed it with 0).
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple

import nltk.tokenize

from rlvr.schemas.ifeval import normalize_kwargs
from rlvr.verifier.domains.ifeval.judge import check_one, loose_variants
from rlvr.verifier.domains.ifeval.language import warm_up
from rlvr.verifier.domains.ifeval.text import sentence_tokenizer
from rlvr.verifier.domains.ifeval.wordlists import ENGLISH_STOPWORDS


class ReferenceVerdict(NamedTuple):
    strict: bool
    loose: bool


@cache
def registry() -> Mapping[str, Any]:
    """The reference's `INSTRUCTION_DICT`, wired to the bundled Punkt model and seeded."""
    from if_verifiable.ifbench.instructions_registry import INSTRUCTION_DICT as IFBENCH
    from if_verifiable.ifeval import instructions_util
    from if_verifiable.ifeval.instructions_registry import INSTRUCTION_DICT

    warm_up()  # seeds langdetect's factory (shared by the reference: same process)
    instructions_util._get_sentence_tokenizer = sentence_tokenizer
    nltk.tokenize._get_punkt_tokenizer = lambda language="english": sentence_tokenizer()
    # NLTK's stopwords corpus is data it would download; the same list, from our copy
    stop = sorted(ENGLISH_STOPWORDS)
    nltk.corpus.stopwords = types.SimpleNamespace(words=lambda language="english": stop)
    return {**IFBENCH, **INSTRUCTION_DICT}  # IFBench's own checkers for its ids


def _follows(checker: Any, text: str) -> bool:
    """`check_following`, a crash (IFBench indexes into empty strings on some inputs) read as
    not followed, which is what an evaluation loop that survives it would record."""
    try:
        return bool(checker.check_following(text))
    except (IndexError, ValueError, ZeroDivisionError):
        return False


def reference_check(
    instruction_id: str, kwargs: Mapping[str, Any], response: str, prompt: str = ""
) -> ReferenceVerdict:
    """IFEval's strict and loose verdicts for one instruction (its evaluation loop)."""
    checker = registry()[instruction_id](instruction_id)
    checker.build_description(**{k: v for k, v in kwargs.items() if v is not None})
    args = checker.get_instruction_args()
    if args and "prompt" in args:
        checker.build_description(prompt=prompt)
    from if_verifiable.common import get_loose_transformations

    strict = bool(response.strip()) and _follows(checker, response)
    variants = get_loose_transformations(response)
    loose = any(v.strip() and _follows(checker, v) for v in variants)
    return ReferenceVerdict(strict, bool(loose))


def reference_item(
    instruction_ids: Sequence[str],
    kwargs_list: Sequence[Mapping[str, Any]],
    response: str,
    prompt: str = "",
) -> list[ReferenceVerdict]:
    return [
        reference_check(i, k, response, prompt)
        for i, k in zip(instruction_ids, kwargs_list, strict=True)
    ]


def ours(instruction_id: str, kwargs: dict, response: str) -> tuple[bool, bool]:
    """Our checkers' (strict, loose) verdict, read the way the reference is read."""
    normalized = normalize_kwargs(instruction_id, kwargs)
    strict = (
        bool(response.strip()) and check_one(instruction_id, response, normalized, [response]).met
    )
    loose = check_one(instruction_id, response, normalized, loose_variants(response)).met
    return strict, loose
