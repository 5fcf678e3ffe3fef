"""Label sets of multiple-choice questions: letters, numbers or roman numerals, and their tokens."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

LabelKind = Literal["letters", "numbers", "roman"]
DEFAULT_OPTION_COUNT = 10  # A-J, 1-10, I-X when neither the options nor their count are sent
MAX_OPTION_COUNT = 26
_ROMAN: tuple[str, ...] = (
    *("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII"),
    *("XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "XXII", "XXIII", "XXIV", "XXV"),
    "XXVI",
)
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# A token is a label only where it stands alone: not inside a word or a number.
_TOKEN_RE: dict[LabelKind, re.Pattern[str]] = {
    "letters": re.compile(r"(?<![A-Za-z0-9'’])[A-Za-z](?![A-Za-z0-9'’])"),
    "numbers": re.compile(r"(?<![\w.,])\d{1,2}(?![\w]|[.,]\d)"),
    "roman": re.compile(r"(?<![A-Za-z0-9'’])[IVXivx]{1,5}(?![A-Za-z0-9'’])"),
}


@dataclass(frozen=True, slots=True)
class LabelSet:
    """The labels of one question, in option order (`labels[k]` names option k)."""

    kind: LabelKind
    labels: tuple[str, ...]

    def canonical(self, token: str) -> str | None:
        """The label a token names (`b` -> `B`, `iv` -> `IV`, `03` -> `3`), or None."""
        label = (token.lstrip("0") or "0") if self.kind == "numbers" else token.upper()
        return label if label in self.labels else None

    def index(self, label: str) -> int:
        return self.labels.index(label)

    @property
    def token_re(self) -> re.Pattern[str]:
        return _TOKEN_RE[self.kind]


def infer_kind(answer: str) -> LabelKind:
    """The label kind an answer implies: digits are numbers, `II`/`iv`… roman numerals, a single
    letter (including `I`, `V`, `X`) a letter."""
    text = answer.strip()
    if text.isdigit():
        return "numbers"
    if len(text) > 1 and text.upper() in _ROMAN:
        return "roman"
    return "letters"


@functools.cache
def label_set(kind: LabelKind, count: int) -> LabelSet:
    """The first `count` labels of a kind."""
    if kind == "letters":
        return LabelSet(kind, tuple(_LETTERS[:count]))
    if kind == "numbers":
        return LabelSet(kind, tuple(str(n) for n in range(1, count + 1)))
    return LabelSet(kind, _ROMAN[:count])
