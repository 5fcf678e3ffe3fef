"""Grade one job in a killable worker: parse both sides, check the written form, compare values.

The answer is parsed as written (evaluation off) and must be in the ground truth's form
(`unevaluated.py`: an evaluated value against a value, factored against factored, ...); only
then is it evaluated and the two typed values compared by structure (`compare/`). SymPy raising
on the answer's own content (a divergent sum, a singular matrix's inverse, a matrix plus a
number) makes the answer `failed`: that is a verdict about the answer, not a verifier error.
"""

from __future__ import annotations

import re
import time
from typing import Any

import sympy

from rlvr.verifier.domains.math.compare.context import Grading
from rlvr.verifier.domains.math.compare.dispatch import equivalent
from rlvr.verifier.domains.math.compare.readings import compare
from rlvr.verifier.domains.math.parsing import (
    fast_unevaluated_gold,
    parse_unevaluated,
    reevaluated,
    to_sympy,
    unevaluated,
    unevaluated_gold,
)
from rlvr.verifier.domains.math.unevaluated import (
    expression_form_reason,
    is_value,
    stacked_signs,
    unevaluated_reason,
)
from rlvr.verifier.domains.math.values import gold_value, membership, shown
from rlvr.verifier.domains.math.verdict import Conventions, SlowJob, Verdict

# an unevaluated integral, sum, product, limit or derivative can only come from these spellings
_CALCULUS_RE = re.compile(
    r"\\(?:i*int|oint|sum|prod|lim|partial)(?![A-Za-z])|\\frac\s*\{\s*(?:\\mathrm\{)?d\b"
)
_ANSWER_FAULTS = (
    ValueError,
    TypeError,
    ArithmeticError,
    NotImplementedError,
    RecursionError,
    sympy.SympifyError,
)


def grade(job: SlowJob, conv: Conventions) -> Verdict:
    """Whether the response's answer means the same as the ground truth (the worker's entry)."""
    gold = to_sympy(job.gold_latex)
    if gold is None:
        detail = "could not parse the answer as math"
        return Verdict(False, detail, job.gold_latex[:200], job.pred_latex[:200])
    try:
        pred_or_refusal = _read_answer(job, conv, gold)
        if isinstance(pred_or_refusal, Verdict):
            return pred_or_refusal
        return compare(gold, pred_or_refusal, Grading.of(job, conv, equivalent))
    except _ANSWER_FAULTS as exc:
        detail = f"the response's value cannot be compared: {type(exc).__name__}: {exc}"[:300]
        return Verdict(False, detail, shown(gold, job.gold_latex), job.pred_latex[:200])


def grade_timed(job: SlowJob, conv: Conventions) -> tuple[Verdict, float]:
    """`grade` and the seconds it took in this worker."""
    started = time.perf_counter()
    verdict = grade(job, conv)
    return verdict, time.perf_counter() - started


def _read_answer(job: SlowJob, conv: Conventions, gold: Any) -> Any:
    """The answer's value, or the failed verdict of a refused form or an unreadable answer.

    A form is judged on the tree as written, before any evaluation: `9^{9^{9^{9}}}` for 3 is
    refused, never computed.
    """
    gold_latex, pred_latex = job.gold_latex, job.pred_latex
    shown_gold = shown(gold, gold_latex)
    value = is_value(gold_value(membership(gold)))
    check_form = value or bool(_CALCULUS_RE.search(pred_latex))
    pred_tree = parse_unevaluated(pred_latex)
    refusal = None
    if pred_tree is not None:
        if check_form:
            refusal = _value_form_refusal(gold_latex, pred_latex, pred_tree, value, conv)
        if refusal is None and not value:
            refusal = expression_form_reason(
                fast_unevaluated_gold(gold_latex), pred_tree, conv.form_rules
            )
        if refusal is not None:
            return Verdict(False, refusal, shown_gold, shown(pred_tree, pred_latex))
        pred = reevaluated(pred_tree)
    else:
        pred = to_sympy(pred_latex)
        if pred is not None and check_form:
            tree = unevaluated(pred_latex)
            refusal = _value_form_refusal(gold_latex, pred_latex, tree, value, conv)
            if refusal is not None:
                return Verdict(False, refusal, shown_gold, shown(pred, pred_latex))
    if pred is None:
        return Verdict(False, "could not parse the response as math", shown_gold, pred_latex[:200])
    return pred


def _value_form_refusal(
    gold_latex: str, pred_latex: str, pred_tree: Any, value: bool, conv: Conventions
) -> str | None:
    signs = (stacked_signs(gold_latex), stacked_signs(pred_latex))
    gold_tree = unevaluated_gold(gold_latex)
    return unevaluated_reason(gold_tree, pred_tree, value, signs, conv.form_rules)
