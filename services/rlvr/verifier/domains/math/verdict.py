"""The outcome of comparing one extracted answer with its ground truth (shared by both paths)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Verdict:
    is_equal: bool
    detail: str
    parsed_answer: str | None = None
    parsed_response: str | None = None


@dataclass(frozen=True, slots=True)
class Conventions:
    """The comparison conventions a worker needs (a picklable slice of MathSettings)."""

    percent: str = "either"
    min_rounded_digits: int = 6
    rel_tol: float = 1e-40
