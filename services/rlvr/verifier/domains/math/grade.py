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
from functools import lru_cache
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
from rlvr.verifier.domains.math.values import evaluated_set, gold_value, membership, shown
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
    gold = parsed_gold(job.gold_latex)
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


@lru_cache(maxsize=4096)
def parsed_gold(latex: str) -> Any:
    """The ground truth's SymPy object, parsed once per worker: a trainer sends many samples of
    one prompt, and parsing is most of a worker's time (SymPy objects are immutable)."""
    return to_sympy(latex)


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
    if pred_tree is not None and not value:
        gold_tree = fast_unevaluated_gold(gold_latex)
        if gold_tree is not None:
            pred_tree = integration_constant_renamed(gold_tree, pred_tree, gold_latex, pred_latex)
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
    merged = union_left_to_merge(gold_latex, pred_latex, pred)
    if merged is not None:
        return Verdict(False, merged, shown_gold, shown(pred, pred_latex))
    return pred


def union_left_to_merge(gold_latex: str, pred_latex: str, pred: Any) -> str | None:
    """Why a union written with more pieces than its value has is not in the ground truth's form
    (`[0,2] \\cup [1,3]` for `[0,3]`: pieces that overlap or touch, a union left to do), or None.
    A union of disjoint pieces (`(-\\infty,2) \\cup (2,\\infty)`) keeps every piece."""
    written = pred_latex.count("\\cup")
    if not written or written <= gold_latex.count("\\cup"):
        return None
    value = membership(pred)
    if not isinstance(value, sympy.Set):
        return None
    value = evaluated_set(value)
    pieces = len(value.args) if isinstance(value, sympy.Union) else 1
    if pieces <= written:
        return "a union of pieces that overlap or touch: give the set with the union carried out"
    return None


# a capital letter written as a name of its own (the parser lowercases names, so the written
# text says which ones were capitals)
_CAPITAL_NAME_RE = re.compile(r"(?<![A-Za-z\\])([A-Z](?:_\{?[A-Za-z0-9]{1,4}\}?)?)(?![A-Za-z])")


def integration_constant_renamed(
    gold_tree: Any, pred_tree: Any, gold_latex: str, pred_latex: str
) -> Any:
    """`2x + K` for `2x + C`: the answer's constant of integration renamed to the ground truth's.

    Only when the ground truth writes a lone added `C` and no other capital name (so `C` is an
    arbitrary constant, not a point or a side), and the answer has exactly one name the ground
    truth lacks, written as a capital letter, itself a lone added term."""
    if set(_CAPITAL_NAME_RE.findall(_without_commands(gold_latex))) != {"C"}:
        return pred_tree
    gold_constant = _lone_added_symbol(gold_tree, lambda s: s.name == "c")
    if gold_constant is None:
        return pred_tree
    extra = getattr(pred_tree, "free_symbols", set()) - gold_tree.free_symbols
    capitals = {
        c.lower().replace("{", "").replace("}", "")
        for c in _CAPITAL_NAME_RE.findall(_without_commands(pred_latex))
    }
    if len(extra) != 1 or {s.name for s in extra} != capitals - {"c"}:
        return pred_tree
    (name,) = extra
    if _lone_added_symbol(pred_tree, lambda s: s == name) is None:
        return pred_tree
    return pred_tree.xreplace({name: gold_constant})


def _without_commands(latex: str) -> str:
    return re.sub(r"\\[A-Za-z]+", " ", latex)


def _lone_added_symbol(tree: Any, wanted: Any) -> Any:
    """The symbol that `wanted` picks, when it is a term of the top-level sum of `tree` and
    appears nowhere else in it; otherwise None."""
    if not isinstance(tree, sympy.Add):
        return None
    for term in tree.args:
        if isinstance(term, sympy.Symbol) and wanted(term):
            others = [t for t in tree.args if t is not term]
            if not any(term in getattr(t, "free_symbols", set()) for t in others):
                return term
    return None


def _value_form_refusal(
    gold_latex: str, pred_latex: str, pred_tree: Any, value: bool, conv: Conventions
) -> str | None:
    signs = (stacked_signs(gold_latex), stacked_signs(pred_latex))
    gold_tree = unevaluated_gold(gold_latex)
    return unevaluated_reason(gold_tree, pred_tree, value, signs, conv.form_rules)
