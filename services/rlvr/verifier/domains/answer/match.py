"""Judge a short answer: read what the response commits to, match it against the aliases.

Rules, in order:
1. Only the answer section counts (after the last `</think>`); an unclosed `<think>` commits
   nothing. The committed answer is the last `<answer>` tag, else the last box, else the text
   after the last answer marker (to the end of its sentence), else a last line of at most
   `MAX_BARE_WORDS` words.
2. It passes when, normalised, it equals an alias; or, both being quantities, their values are
   equal (units compared where both name one).
3. Stuffing fails: an answer whose parts (split at `,` `;` `/` `|` `or` `and`, new lines) match
   an alias while the whole does not, or that contains two different aliases side by side.
4. With `match: f1`, the score is the best token F1 against an alias (graded, or 1/0 against
   `f1_threshold`), after the stuffing check.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rlvr.schemas.answer import AnswerItem, AnswerNormalization
from rlvr.verifier.domains.answer.normalize import normalize, token_f1
from rlvr.verifier.domains.answer.quantity import parse_quantity, same_quantity
from rlvr.verifier.domains.reference.committed import (
    Source,
    answer_section,
    committed_candidates,
)

MAX_BARE_WORDS = 12
# where the answer's sentence ends: after a lowercase word or a number (`Paris. It is…`), or
# before the next sentence's capitalised word (`U.S.. It…`, `D.C. It…`)
_SENTENCE_END_RE = re.compile(r"(?<=[a-z0-9)\]\"'”])[.!?](?=\s|$)|[.!?](?=\s{1,3}[A-Z][a-z])")
_PARTS_RE = re.compile(r"\s*(?:[,;/|\n]|\bor\b|\band\b|&)\s*", re.IGNORECASE)
_LATEX_RE = re.compile(r"\\(?:text|textbf|textit|mathrm|mathbf|mbox)\s*\{([^{}]{0,400})\}")


@dataclass(frozen=True, slots=True)
class AnswerVerdict:
    reason: str
    score: float  # the reward: 1/0, or a graded F1
    extracted: str | None
    matched: str | None
    detail: str


def committed_answer(response: str) -> tuple[str | None, str | None]:
    """(the answer the response commits to, None) by rule 1, or (None, why there is none:
    `unfinished_thinking` | `no_answer`)."""
    section = answer_section(response)
    if section is None:
        return None, "unfinished_thinking"
    for place in committed_candidates(section):
        text = _LATEX_RE.sub(r"\1", place.text).replace("$", "").strip()
        if place.source is Source.marker:
            end = _SENTENCE_END_RE.search(text)
            text = text[: end.start()] if end else text
        elif place.source is Source.bare and len(text.split()) > MAX_BARE_WORDS:
            return None, "no_answer"
        text = text.strip(" \t*_").rstrip(".").strip()
        if text:
            return text, None
    return None, "no_answer"


def _parts(text: str) -> list[str]:
    return [part for part in _PARTS_RE.split(text) if part.strip()]


def _equal(text: str, alias: str, rules: AnswerNormalization, numbers: bool) -> bool:
    if numbers:
        ours, theirs = parse_quantity(text), parse_quantity(alias)
        if ours is not None and theirs is not None:
            return same_quantity(ours, theirs)
    normalized = normalize(text, rules)
    return bool(normalized) and normalized == normalize(alias, rules)


def exact_alias(
    text: str, aliases: Sequence[str], rules: AnswerNormalization, numbers: bool
) -> str | None:
    """The first alias the text equals (normalised, or as a quantity), or None."""
    return next((alias for alias in aliases if _equal(text, alias, rules, numbers)), None)


def stuffed_aliases(tokens: Sequence[str], aliases: Sequence[Sequence[str]]) -> int:
    """How many different aliases stand side by side in the tokens (longest first, disjoint)."""
    covered = [False] * len(tokens)
    found = 0
    seen: set[tuple[str, ...]] = set()
    for alias in sorted(aliases, key=len, reverse=True):
        key = tuple(alias)
        if not alias or key in seen or len(alias) > len(tokens):
            continue
        seen.add(key)
        for start in range(len(tokens) - len(alias) + 1):
            span = range(start, start + len(alias))
            if tuple(tokens[start : start + len(alias)]) == key and not any(
                covered[i] for i in span
            ):
                for i in span:
                    covered[i] = True
                found += 1
                break
    return found


def judge_answer(item: AnswerItem) -> AnswerVerdict:
    aliases = [item.answer] if isinstance(item.answer, str) else list(item.answer)
    aliases = [alias for alias in aliases if alias.strip()]
    rules, numbers = item.normalization, item.is_number_aware
    text, missing = committed_answer(item.response)
    if text is None:
        detail = (
            "the response never left its <think> block"
            if missing == "unfinished_thinking"
            else "no committed answer found"
        )
        return AnswerVerdict(missing or "no_answer", 0.0, None, None, detail)
    matched = exact_alias(text, aliases, rules, numbers)
    if matched is not None:
        return AnswerVerdict("correct", 1.0, text, matched, f"matches {matched!r}")
    parts = _parts(text)
    if len(parts) > 1:
        hit = next((a for p in parts if (a := exact_alias(p, aliases, rules, numbers))), None)
        if hit is not None:
            return AnswerVerdict(
                "stuffed", 0.0, text, hit, f"{len(parts)} candidates in one answer (one is {hit!r})"
            )
    tokens = normalize(text, rules).split()
    alias_tokens = [normalize(alias, rules).split() for alias in aliases]
    if item.match == "exact":
        return AnswerVerdict("wrong", 0.0, text, None, f"{text[:80]!r} matches no alias")
    if stuffed_aliases(tokens, alias_tokens) > 1:
        return AnswerVerdict("stuffed", 0.0, text, None, "several aliases in one answer")
    scores = [token_f1(tokens, reference) for reference in alias_tokens]
    best = max(range(len(scores)), key=scores.__getitem__)
    f1 = round(scores[best], 6)
    if item.f1_threshold is not None:
        passed = f1 >= item.f1_threshold
        reason = "correct" if passed else "wrong"
        detail = f"token F1 {f1:.3f} {'>=' if passed else '<'} {item.f1_threshold:g}"
        return AnswerVerdict(reason, float(passed), text, aliases[best], detail)
    reason = "correct" if f1 >= 1.0 else ("partial" if f1 > 0 else "wrong")
    return AnswerVerdict(reason, f1, text, aliases[best], f"token F1 {f1:.3f}")
