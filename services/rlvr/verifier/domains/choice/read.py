"""Read the choice a response commits to: one label, or its option's text; hedges are refused.

Pure functions on short segments (the committed reader clips them). The rules, in order:
1. Only the answer section counts (after the last `</think>`); an unclosed `<think>` commits
   nothing.
2. The strongest committed place decides: the last `<answer>` tag, else the last box, else the
   answer markers (last first), else the last line. Several tags or boxes that name different
   labels are a hedge.
3. In that place, two different labels joined by `or`, `and`, a comma, a slash, … (`A or C`,
   `A, B, C, D`) are a hedge, wherever they stand.
4. The label is the one at the head (`(B) Paris`, `**B**`, `Option B`), else the one that ends
   the place (`I think it is B.`), unless a negation comes right before it (`not B`).
5. Text quoted with the label (`B) Rome`) that is another option's text contradicts it.
6. With no label, the place's text is matched against the options' texts (`Paris`).
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from rlvr.schemas.choice_labels import LabelSet
from rlvr.verifier.domains.reference.committed import (
    Committed,
    Source,
    answer_section,
    committed_candidates,
)


class ChoiceReason(StrEnum):
    """Why a choice item got its verdict (codes, not prose)."""

    correct = "correct"
    wrong_choice = "wrong_choice"
    no_answer = "no_answer"
    unfinished_thinking = "unfinished_thinking"
    hedged = "hedged"
    contradicts_text = "contradicts_text"


@dataclass(frozen=True, slots=True)
class Reading:
    """What a response commits to: a label, or why none counts."""

    label: str | None
    reason: ChoiceReason | None  # set when no label counts (no answer, a hedge, …)
    extracted: str | None
    detail: str


@dataclass(frozen=True, slots=True)
class _Token:
    label: str
    start: int
    end: int
    is_delimited: bool  # `(b)`, `b)`, `**b**`: a lowercase letter counts only so


_LATEX_COMMAND_RE = re.compile(r"\\(?:text|textbf|textit|mathrm|mathbf|mathit|mbox|bf)\b")
_MARKUP = str.maketrans({"$": " ", "*": " ", "_": " ", "`": " ", "~": " "})
_OPENERS = "([{"
_CLOSERS = ")]}.:"
_WRAPPERS = " \t()[]{}\"'“”‘’"
_HEAD_WORDS = frozenset({"option", "choice", "letter", "answer", "is", "the", "it", "s"})
_CONNECTORS = frozenset(
    {
        "",
        "or",
        "and",
        ",",
        ", or",
        ", and",
        "/",
        "&",
        ";",
        "+",
        "|",
        "and/or",
        "or maybe",
        "or possibly",
        "or perhaps",
        "or even",
        "vs",
        "vs.",
        "versus",
        "-",
        "–",
        "to",
        "through",
        "or option",
        "and option",
        ", option",
    }
)
_NEGATIONS = ("not", "n't", "never", "except", "excluding", "nor", "without")
# `I think it is B`: the pronoun `I` (a letter label up to J, roman 1) is prose before a verb
_PRONOUN_VERBS = frozenset(
    {"think", "believe", "guess", "would", "will", "am", "can", "feel", "choose", "pick"}
    | {"select", "go", "say", "suspect", "know", "have", "chose", "picked", "selected", "'m"}
    | {"’m", "'d", "’d", "'ll", "’ll", "need", "must", "should", "could", "might", "see"}
)
_WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def clean(segment: str) -> str:
    """Fold width variants (`Ｂ` -> `B`), drop LaTeX text commands and Markdown emphasis."""
    text = segment if segment.isascii() else unicodedata.normalize("NFKC", segment)
    if "\\" in text:
        text = _LATEX_COMMAND_RE.sub(" ", text)
    return text.translate(_MARKUP)


@functools.lru_cache(maxsize=16384)  # option texts repeat across a dataset's rows
def normalized_words(text: str) -> str:
    """Lowercase words joined by one space (for comparing option texts)."""
    return " ".join(_WORD_RE.findall(unicodedata.normalize("NFKC", text).casefold()))


def tokens(text: str, labels: LabelSet) -> list[_Token]:
    found = []
    for match in labels.token_re.finditer(text):
        label = labels.canonical(match.group())
        if label is None:
            continue
        is_delimited = _neighbour(text, match.start() - 1, -1) in _OPENERS or (
            _neighbour(text, match.end(), 1) in _CLOSERS
        )
        if match.group().islower() and not (is_delimited or text.strip() == match.group()):
            continue  # `a`, `i` in prose are an article and a pronoun
        found.append(_Token(label, match.start(), match.end(), is_delimited))
    return found


def _neighbour(text: str, index: int, step: int) -> str:
    """The first character from `index` on (in `step`'s direction) that is not a space; "" at
    the end (never found in a set of characters)."""
    while 0 <= index < len(text) and text[index] in " \t":
        index += step
    return text[index] if 0 <= index < len(text) else "\x00"


def _gap(text: str) -> str:
    return " ".join(text.strip(_WRAPPERS).split())


def hedge_of(text: str, found: Sequence[_Token]) -> tuple[str, str] | None:
    """Two different labels joined as alternatives (`A or C`, `A, C`), if any."""
    for first, second in itertools.pairwise(found):
        if first.label != second.label and _gap(text[first.end : second.start]) in _CONNECTORS:
            return first.label, second.label
    return None


def _is_pronoun(text: str, token: _Token) -> bool:
    if text[token.start : token.end] != "I":
        return False
    following = _WORD_RE.findall(text[token.end : token.end + 16])
    return bool(following) and following[0].casefold() in _PRONOUN_VERBS


def head_token(text: str, found: Sequence[_Token]) -> _Token | None:
    """The label the place opens with (`(B) Paris`, `Option B`, `It is B`)."""
    for token in found:
        words = _WORD_RE.findall(text[: token.start].casefold())
        if all(word in _HEAD_WORDS for word in words) and not _is_pronoun(text, token):
            return token
        return None
    return None


def closing_token(text: str, found: Sequence[_Token]) -> _Token | None:
    """The label the place ends with (`I think it's B.`), unless negated (`not B`)."""
    if not found:
        return None
    token = found[-1]
    if text[token.end :].strip(_WRAPPERS + ".!。"):
        return None
    before = text[: token.start].rstrip(_WRAPPERS).casefold()
    if before.endswith(_NEGATIONS) or _is_pronoun(text, token):
        return None
    return token


def option_at_start(text: str, options: Sequence[str]) -> int | None:
    """The option whose text the given text starts with (the longest, on a word boundary)."""
    words = normalized_words(text)
    best: int | None = None
    best_length = 0
    for index, option in enumerate(options):
        wanted = normalized_words(option)
        if not wanted or len(wanted) <= best_length:
            continue
        if words == wanted or words.startswith(wanted + " "):
            best, best_length = index, len(wanted)
    return best


def option_at_end(text: str, options: Sequence[str]) -> int | None:
    """The option whose text the given text ends with (the longest, on a word boundary)."""
    words = normalized_words(text)
    best: int | None = None
    best_length = 0
    for index, option in enumerate(options):
        wanted = normalized_words(option)
        if not wanted or len(wanted) <= best_length:
            continue
        if words == wanted or words.endswith(" " + wanted):
            best, best_length = index, len(wanted)
    return best


def _refusal(reason: ChoiceReason, extracted: str | None, detail: str) -> Reading:
    return Reading(None, reason, extracted, detail)


def read_place(place: Committed, labels: LabelSet, options: Sequence[str] | None) -> Reading | None:
    """The reading of one committed place, or None when it names no label or option."""
    text = clean(place.text)
    found = tokens(mask_option_texts(text, labels, options) if options else text, labels)
    extracted = place.text.strip()
    hedge = hedge_of(text, found)
    if hedge is not None:
        return _refusal(ChoiceReason.hedged, extracted, f"hedged between {hedge[0]} and {hedge[1]}")
    token = head_token(text, found)
    if token is None and place.source is not Source.bare:
        token = closing_token(text, found)
    if token is None and place.source is Source.bare:
        token = closing_token(text, found) if len(found) == 1 and not _prose(text) else None
    if token is None:
        if options:
            chosen = option_at_start(text, options)
            if chosen is not None and chosen < len(labels.labels):
                label = labels.labels[chosen]
                return Reading(label, None, extracted, f"read option {label} from its text")
        return None
    if options:
        contradiction = _contradiction(text, token, labels, options)
        if contradiction is not None:
            return _refusal(ChoiceReason.contradicts_text, extracted, contradiction)
    return Reading(token.label, None, extracted, f"read {token.label}")


def _prose(text: str) -> bool:
    """A last line with more than a few words is prose, not a bare answer."""
    return len(_WORD_RE.findall(text)) > 8


def _contradiction(
    text: str, token: _Token, labels: LabelSet, options: Sequence[str]
) -> str | None:
    """Why the text quoted beside the label names another option (`B) Rome`), if it does."""
    own = labels.index(token.label)
    own_text = normalized_words(options[own]) if own < len(options) else None
    after = text[token.end :].lstrip(_WRAPPERS + ".:-–—=")
    before = text[: token.start].rstrip(_WRAPPERS + ":-–—=")
    for quoted, chosen in (
        (after, option_at_start(after, options)),
        (before, option_at_end(before, options)),
    ):
        if chosen is None or chosen == own or chosen >= len(labels.labels):
            continue
        if own_text is not None and normalized_words(options[chosen]) == own_text:
            continue  # two options with the same text: quoting it names both
        return (
            f"letter {token.label} but the text quoted is option {labels.labels[chosen]}'s "
            f"({quoted.strip()[:60]!r})"
        )
    return None


@functools.lru_cache(maxsize=4096)
def _label_bearing_options(options: tuple[str, ...], labels: LabelSet) -> tuple[str, ...]:
    """The options' texts (cleaned, ASCII-lowered) that themselves contain labels."""
    needles = []
    for option in options:
        quoted = clean(option).strip()
        if len(quoted) >= 3 and tokens(quoted, labels):
            needles.append(quoted.translate(_ASCII_LOWER))
    return tuple(needles)


def mask_option_texts(text: str, labels: LabelSet, options: Sequence[str]) -> str:
    """The text with quoted option texts that themselves contain labels (`Both A and B`)
    blanked, so their labels are not read as the response's (or as a hedge)."""
    needles = _label_bearing_options(tuple(options), labels)
    if not needles:
        return text
    lowered = text.translate(_ASCII_LOWER)
    for needle in needles:
        at = lowered.find(needle)
        while at >= 0:
            text = text[:at] + " " * len(needle) + text[at + len(needle) :]
            lowered = lowered[:at] + " " * len(needle) + lowered[at + len(needle) :]
            at = lowered.find(needle, at + len(needle))
    return text


def read_choice(response: str, labels: LabelSet, options: Sequence[str] | None) -> Reading:
    """What the response commits to, or why nothing it wrote counts."""
    section = answer_section(response)
    if section is None:
        return _refusal(
            ChoiceReason.unfinished_thinking, None, "the response never left its <think> block"
        )
    for place in committed_candidates(section):
        if len(place.alternatives) > 1:
            readings = {
                reading.label
                for alternative in place.alternatives
                if (reading := read_place(Committed(alternative, place.source), labels, options))
                is not None
            }
            if len(readings) > 1:
                named = ", ".join(sorted(str(r) for r in readings))
                return _refusal(
                    ChoiceReason.hedged,
                    place.text.strip(),
                    f"{len(place.alternatives)} {place.source.value} answers name {named}",
                )
        reading = read_place(place, labels, options)
        if reading is not None:
            return reading
    return _refusal(ChoiceReason.no_answer, None, "no committed choice found")
