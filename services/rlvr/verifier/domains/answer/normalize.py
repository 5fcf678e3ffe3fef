"""SQuAD-style normalisation (each step a switch) and token F1."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

from rlvr.schemas.answer import AnswerNormalization

_ARTICLES_RE = re.compile(r"\b(?:a|an|the)\b", re.IGNORECASE)


def _is_punctuation(char: str) -> bool:
    return unicodedata.category(char).startswith("P") or unicodedata.category(char) == "Sm"


def normalize(text: str, rules: AnswerNormalization) -> str:
    """The text as compared: NFKC-folded (`Ｐａｒｉｓ` is `Paris`), then SQuAD's steps as set."""
    text = unicodedata.normalize("NFKC", text)
    if rules.is_lowercased:
        text = text.casefold()
    if rules.is_punctuation_removed:
        text = "".join(" " if _is_punctuation(c) else c for c in text)
    if rules.is_articles_removed:
        text = _ARTICLES_RE.sub(" ", text)
    if rules.is_whitespace_collapsed:
        text = " ".join(text.split())
    return text.strip()


def token_f1(predicted: Sequence[str], reference: Sequence[str]) -> float:
    """SQuAD's token F1 between two token lists (0 when either is empty)."""
    common = Counter(predicted) & Counter(reference)
    overlap = sum(common.values())
    if overlap == 0:
        return 0.0
    precision = overlap / len(predicted)
    recall = overlap / len(reference)
    return 2 * precision * recall / (precision + recall)
