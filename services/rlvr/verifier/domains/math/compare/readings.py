"""The comparison's verdict: the readings of a pair tried in turn, each decided by structure.

As written (an ordered ground truth reads a listing in the written order), with a percent sign
read as the setting says, a named listing against its bare values, and last the documented
rounding of a written decimal. Nothing else makes two values agree.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy

from rlvr.verifier.domains.math.compare.context import Grading
from rlvr.verifier.domains.math.compare.percent import percent_readings
from rlvr.verifier.domains.math.compare.rounding import rounds
from rlvr.verifier.domains.math.compare.sequences import named_listing_equal, ordered_listing
from rlvr.verifier.domains.math.numbers import GOLD_ROUNDED_DIGITS, shows_period
from rlvr.verifier.domains.math.values import shown
from rlvr.verifier.domains.math.verdict import Verdict


def compare(gold: Any, pred: Any, ctx: Grading) -> Verdict:
    """The verdict on two parsed answers (the ground truth first)."""
    job = ctx.job
    shown_gold, shown_pred = shown(gold, job.gold_latex), shown(pred, job.pred_latex)
    if isinstance(gold, sympy.Tuple) and isinstance(pred, sympy.FiniteSet):
        # an ordered answer: a listing `1, 3` answers `(1, 3)` in the order written (the parsed
        # set has lost it); a set `\\{3, 1\\}` does not answer an ordered pair
        pred = ordered_listing(job.pred_latex)
        if pred is None:
            return Verdict(
                False, f"a set or listing for the ordered {shown_gold}", shown_gold, shown_pred
            )
    for g, p in percent_readings(gold, pred, job, ctx.conv):
        if ctx.equal(g, p):
            return Verdict(True, f"equivalent: {shown_pred} = {shown_gold}", shown_gold, shown_pred)
    if named_listing_equal(gold, pred, ctx):
        return Verdict(
            True, f"{shown_pred} lists the values of {shown_gold} in order", shown_gold, shown_pred
        )
    if _pred_rounds_gold(gold, ctx):
        return Verdict(True, f"{shown_pred} is {shown_gold} rounded", shown_gold, shown_pred)
    if _gold_rounds_pred(pred, ctx):
        return Verdict(True, f"{shown_gold} is {shown_pred} rounded", shown_gold, shown_pred)
    return Verdict(False, f"parsed {shown_pred}, expected {shown_gold}", shown_gold, shown_pred)


def _pred_rounds_gold(gold: Any, ctx: Grading) -> bool:
    decimal = ctx.job.pred_decimal
    if not ctx.conv.decimal_for_exact:
        return False  # an exact ground truth is matched exactly (a setting relaxes it)
    return decimal is not None and not ctx.job.pred_pct and rounds(gold, decimal, ctx.conv)


def _gold_rounds_pred(pred: Any, ctx: Grading) -> bool:
    """A ground truth written as a decimal answered by the exact value it rounds; a rational
    answer must show the ground truth's repeating period (`1/3` for `0.333`, not for `0.3`)."""
    decimal = ctx.job.gold_decimal
    if decimal is None or ctx.job.gold_pct:
        return False
    if not rounds(pred, decimal, ctx.conv, GOLD_ROUNDED_DIGITS):
        return False
    return not (
        isinstance(pred, sympy.Rational)
        and not shows_period(Fraction(int(pred.p), int(pred.q)), decimal.decimals or 0)
    )
