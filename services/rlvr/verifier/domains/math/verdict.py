"""A comparison's verdict (both paths), and what crosses into a grading worker: job, conventions."""

from __future__ import annotations

from dataclasses import dataclass

from rlvr.verifier.domains.math.numbers import Number


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
    rel_tol: float = 0.0
    decimal_for_exact: bool = False  # a decimal answer for an exact ground truth (see config)
    form_rules: bool = True  # expressions must be in the ground truth's form (see config)


@dataclass(frozen=True, slots=True)
class SlowJob:
    """One item for SymPy (`grade.grade`): both sides normalised, and the cache key of its
    verdict. Picklable: it is sent to a worker process."""

    gold_latex: str
    pred_latex: str
    gold_pct: bool
    pred_pct: bool
    gold_decimal: Number | None
    pred_decimal: Number | None

    @property
    def cache_key(self) -> tuple[str, bool, str, bool]:
        return (self.gold_latex, self.gold_pct, self.pred_latex, self.pred_pct)
