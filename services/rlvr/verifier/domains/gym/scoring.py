"""Score one answer with its task's own `score_answer` (runs in a killable worker process).

Two adjustments, each for a documented reason:
- JSON has no tuples: ARC tasks compare the parsed answer grid with `metadata["output"]` as
  tuples of tuples, which arrive as lists; they are turned back into tuples.
- A scorer known to pay any answer is replaced: reasoning-gym 0.1.25's `game_of_life_halting`
  compares `bool(answer) == bool(entry["answer"])`, which every non-empty string passes; it is
  scored here as a case-insensitive exact match of `True`/`False`.
A `composite` entry is scored by the task it came from (`metadata["source_dataset"]`), as
reasoning-gym's `CompositeDataset.score_answer` does.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

Scorer = Callable[[str | None, dict[str, Any]], float]

_TUPLE_GRID_TASKS = frozenset({"arc_agi", "rearc"})
_scorers: dict[str, Scorer] = {}  # per worker process: a task's dataset is built once


class ScorerFault(Exception):
    """The task's scorer returned something that is not a score (reasoning-gym's bug)."""


def _as_tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_as_tuples(v) for v in value)
    return value


def _exact_bool(answer: str | None, entry: dict[str, Any]) -> float:
    expected = str(entry.get("answer", "")).strip().casefold()
    return float(answer is not None and answer.strip().casefold() == expected)


_OVERRIDES: dict[str, Scorer] = {"game_of_life_halting": _exact_bool}


def scorer_for(task: str) -> Scorer:
    scorer = _scorers.get(task)
    if scorer is None:
        if task in _OVERRIDES:
            scorer = _OVERRIDES[task]
        else:
            import reasoning_gym

            scorer = reasoning_gym.get_score_answer_fn(task)
        _scorers[task] = scorer
    return scorer


def restored_entry(task: str, entry: dict[str, Any]) -> dict[str, Any]:
    """The entry as the task's scorer expects it after a trip through JSON."""
    if task in _TUPLE_GRID_TASKS and isinstance(entry.get("metadata"), dict):
        metadata = dict(entry["metadata"])
        for key in ("input", "output"):
            if key in metadata:
                metadata[key] = _as_tuples(metadata[key])
        return {**entry, "metadata": metadata}
    return entry


def scoring_task(task: str, entry: dict[str, Any]) -> str:
    """The task whose scorer judges the entry (a composite entry's source task)."""
    if task == "composite":
        source = entry.get("metadata", {}).get("source_dataset")
        if isinstance(source, str) and source != "composite":
            return source
    return task


def score_answer(
    task: str, entry: dict[str, Any], answer: str | None
) -> tuple[float, float, str | None]:
    """(score in [0, 1], seconds spent, the exception the scorer raised or None). A scorer
    that raises on this answer scores 0: the answer is what it could not read (reasoning-gym's
    scorers return 0 for most bad answers; a few raise instead)."""
    started = time.perf_counter()
    task = scoring_task(task, entry)
    scorer = scorer_for(task)
    try:
        value = scorer(answer, restored_entry(task, entry))
    except Exception as exc:
        return 0.0, time.perf_counter() - started, f"{type(exc).__name__}: {exc}"[:200]
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        raise ScorerFault(f"{task}'s scorer returned {value!r}, not a number")
    return min(max(float(value), 0.0), 1.0), time.perf_counter() - started, None


Scored = tuple[float, float, str | None]


def score_many(jobs: list[tuple[str, dict[str, Any], str | None]]) -> list[Scored | str]:
    """`score_answer` for several items in one worker call (one process round trip for many
    fast scorers); an item whose scorer returns a non-number gives that fault's message."""
    scored: list[Scored | str] = []
    for task, entry, answer in jobs:
        try:
            scored.append(score_answer(task, entry, answer))
        except ScorerFault as fault:
            scored.append(str(fault))
    return scored


def warm(task: str) -> float:
    """Import reasoning-gym and build one scorer in this worker (the pool's warm-up)."""
    scorer_for(task)
    return 0.0
