"""A percent sign on one side only: the readings of the pair to try (the `percent` setting)."""

from __future__ import annotations

from typing import Any

import sympy

from rlvr.verifier.domains.math.verdict import Conventions, SlowJob

_HUNDREDTH = sympy.Rational(1, 100)


def percent_readings(
    gold: Any, pred: Any, job: SlowJob, conv: Conventions
) -> list[tuple[Any, Any]]:
    """`28\\%` against `0.28` (always) or `28` (under `either`); a bare ground truth below 1 in
    size is a fraction, so `0.5\\%` is only 0.005 there."""
    if job.gold_pct and not job.pred_pct:
        either = conv.percent == "either"
        return [(_scaled(gold), pred)] + ([(gold, pred)] if either else [])
    if job.pred_pct and not job.gold_pct:
        either = conv.percent == "either" and not (
            isinstance(gold, sympy.Expr) and gold.is_number and bool(abs(gold) < 1)
        )
        return [(gold, _scaled(pred))] + ([(gold, pred)] if either else [])
    return [(gold, pred)]


def _scaled(value: Any) -> Any:
    return value * _HUNDREDTH if isinstance(value, sympy.Expr) else value
