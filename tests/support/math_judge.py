"""The math pipeline in-process (extraction, fast path, SymPy), as the table tests judge a row.

The pool only adds isolation and deadlines; those are tested with the verifier itself.
"""

from __future__ import annotations

import rlvr.verifier.domains.math.prewarm  # noqa: F401 — quiet math-verify's warnings
from rlvr.verifier.domains.math.config import MathSettings
from rlvr.verifier.domains.math.grade import grade
from rlvr.verifier.domains.math.judge import judge
from rlvr.verifier.domains.math.verdict import Conventions

SETTINGS = MathSettings()  # the defaults a deployment gets
CONVENTIONS = Conventions(
    percent=SETTINGS.percent,
    min_rounded_digits=SETTINGS.min_rounded_digits,
    rel_tol=SETTINGS.rel_tol,
    form_rules=SETTINGS.form_rules,
    decimal_for_exact=SETTINGS.decimal_for_exact,
)


def judge_in_process(
    response: str,
    answer: str,
    problem: str | None = None,
    conventions: Conventions = CONVENTIONS,
) -> tuple[bool, str]:
    """(is it equal, the detail) as the verifier would decide, with the deployment's defaults
    unless `conventions` says otherwise."""
    judged = judge(response, answer, conventions, SETTINGS.fallback, problem)
    if judged.slow is not None:
        verdict = grade(judged.slow, conventions)
        return verdict.is_equal, verdict.detail
    if judged.verdict is not None:
        return judged.verdict.is_equal, judged.verdict.detail
    return False, judged.failure or ""
