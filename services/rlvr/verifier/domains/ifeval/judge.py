"""Judge one item: is it an answer at all, then each constraint (strict or loose), then the score.

Pure and synchronous: the verifier runs it on a thread (short responses) or in a killable
worker (long ones). Deadlines are checked between checks; every check is linear in the text.

Hard to game: an empty response, or one whose words all come from the prompt or from the
constraints' own arguments (their keywords, end phrase, the request to repeat), is not an
answer, and meets no constraint, however vacuously it would satisfy one (no commas, all
lowercase, fewer than N words). Where a constraint asks for a copy (`copy:*`, `repeat:*`,
`new:copy_span_idx`), the prompt's words are the expected answer and only emptiness refuses.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rlvr.schemas.ifeval import COPY_FAMILIES, ConstraintResult, IfevalItem
from rlvr.verifier.domains.ifeval.checks import Check
from rlvr.verifier.domains.ifeval.registry import CHECKERS
from rlvr.verifier.domains.ifeval.text import iter_words, words

LOOSE_LABELS = (
    "as written",
    "with markdown * removed",
    "with its first line removed",
    "with its last line removed",
    "with its first and last lines removed",
    "with its first line and markdown * removed",
    "with its last line and markdown * removed",
    "with its first and last lines and markdown * removed",
)


def loose_variants(response: str) -> list[str]:
    """IFEval's loose readings of a response, in its order (the first is the response)."""
    lines = response.split("\n")
    without_first = "\n".join(lines[1:]).strip()
    without_last = "\n".join(lines[:-1]).strip()
    without_both = "\n".join(lines[1:-1]).strip()
    return [
        response,
        response.replace("*", ""),
        without_first,
        without_last,
        without_both,
        without_first.replace("*", ""),
        without_last.replace("*", ""),
        without_both.replace("*", ""),
    ]


def _argument_texts(item: IfevalItem) -> Iterable[str]:
    for constraint in item.constraints:
        for value in constraint.kwargs.values():
            if isinstance(value, str):
                yield value
            elif isinstance(value, list):
                yield from (v for v in value if isinstance(v, str))


def not_an_answer(item: IfevalItem) -> str | None:
    """Why the response is not an answer (empty, or nothing but the prompt's and the
    constraints' words), or None when it has words of its own."""
    if not item.response or item.response.isspace():
        return "empty response: not an answer, no constraint is met"
    own = iter_words(item.response)  # lazily: most answers show a word of their own early
    first = next(own, None)
    if first is None:
        return "no words (only punctuation or markup): not an answer, no constraint is met"
    if any(c.id in COPY_FAMILIES for c in item.constraints):
        return None  # copying the prompt is the task; the copy checks compare it exactly
    given = {word.lower() for text in _argument_texts(item) for word in words(text)}
    if item.prompt:
        given.update(word.lower() for word in words(item.prompt))
    if not given:
        return None  # nothing given to repeat (no prompt, no text arguments): an answer
    if first.lower() in given and all(word.lower() in given for word in own):
        return (
            "not an answer: the response only repeats the prompt or the constraints' own "
            "words, so no constraint is met"
        )
    return None


def check_one(instruction_id: str, response: str, kwargs: dict, variants: Sequence[str]) -> Check:
    """One constraint, strict (`variants` is just the response) or loose (IFEval's readings:
    met if any non-empty reading meets it)."""
    checker = CHECKERS[instruction_id]
    first: Check | None = None
    for label, text in zip(LOOSE_LABELS, variants, strict=False):
        if not text.strip():
            continue
        verdict = checker(text, kwargs)
        if verdict.met:
            return verdict if label == "as written" else Check(True, f"{verdict.why} ({label})")
        first = first or verdict
    return first or Check(False, "nothing left to judge")


@dataclass(frozen=True, slots=True)
class Judgement:
    constraints: list[ConstraintResult]
    refused: str | None = None  # why it is not an answer, when it is not
    is_timed_out: bool = False

    @property
    def met(self) -> int:
        return sum(1 for c in self.constraints if c.met)


def judge(item: IfevalItem, deadline: float | None = None) -> Judgement:
    """Every constraint of `item`, in order; stops (timed out) once `deadline`
    (`time.perf_counter()` seconds) has passed."""
    refused = not_an_answer(item)
    if refused is not None:
        results = [ConstraintResult(id=c.id, met=False, why=refused) for c in item.constraints]
        return Judgement(results, refused=refused)
    variants = loose_variants(item.response) if item.mode == "loose" else [item.response]
    results = []
    for constraint in item.constraints:
        if deadline is not None and time.perf_counter() > deadline:
            return Judgement(results, is_timed_out=True)
        verdict = check_one(constraint.id, item.response, constraint.kwargs, variants)
        results.append(ConstraintResult(id=constraint.id, met=verdict.met, why=verdict.why))
    return Judgement(results)
