"""Settings of the math verifier (`VERIFIER_MATH__*`): pool, queue, deadlines, conventions."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class MathSettings(BaseModel):
    workers: int = Field(2, ge=1, description="Worker processes that run SymPy (killable).")
    max_queue_items: int = Field(
        8192, ge=1, description="Items judged or waiting at once; past it: 503 + Retry-After."
    )
    retry_after_s: int = Field(2, ge=1, description="Retry-After sent with a 503.")
    default_timeout_s: float = Field(2.0, gt=0, description="Per-item deadline when none is sent.")
    max_timeout_s: float = Field(10.0, gt=0, description="Cap on a per-item `timeout_s`.")
    quick_attempt_s: float = Field(
        0.5,
        ge=0,
        description=(
            "First SymPy attempt budget: an item not done by then is killed and retried later "
            "with the rest of its deadline, so one slow item never holds up the batch. 0 = off."
        ),
    )
    max_queue_wait_s: float = Field(
        60.0,
        gt=0,
        description=(
            "An item still waiting for a worker this long (plus twice its deadline) is an "
            "`error` (overloaded) if it never got a first attempt, and `timed_out` if its quick "
            "attempt already ran out (a slow answer's cost is its own), so a request never hangs."
        ),
    )
    cache_size: int = Field(
        65536, ge=0, description="Verdicts kept for identical (answer, extracted)."
    )
    percent: Literal["either", "exact"] = Field(
        "either",
        description=(
            "How `p%` on one side compares: `either` accepts `p` or `p/100` on the other side; "
            "`exact` accepts only `p/100`."
        ),
    )
    min_rounded_digits: int = Field(
        6,
        ge=1,
        description=(
            "With `decimal_for_exact`: a decimal answer written with d places matches an exact "
            "value it is not equal to (1/7, pi, sqrt(3)) only when that value rounded to d places "
            "equals it and the decimal has at least this many significant digits (6: 3.14159 "
            "for pi, not 3.1416). Two exact values, or two decimals, are always compared exactly."
        ),
    )
    decimal_for_exact: bool = Field(
        False,
        description=(
            "Whether a decimal answer may stand for an exact ground truth it rounds (pi, 1/7, "
            "sqrt(3)). False (the default): an exact ground truth is matched exactly, and a "
            "decimal answer matches only a decimal ground truth. True: it matches when it is "
            "that value rounded to the places written, with `min_rounded_digits` significant "
            "digits."
        ),
    )
    rel_tol: float = Field(
        0.0,
        ge=0,
        le=1e-12,
        description=(
            "Relative difference forgiven between two exact values (0, the default: none; a "
            "difference SymPy can resolve at 80 digits, such as pi + 10^-45 against pi, is a "
            "difference). A positive value relaxes this; rationals are always exact."
        ),
    )
    form_rules: bool = Field(
        True,
        description=(
            "An answer must be in the ground truth's form: factored against a factored ground "
            "truth, expanded against an expanded one, radicals simplified and denominators "
            "rationalised unless the ground truth leaves them. False relaxes these (a value "
            "ground truth still needs an evaluated value, and a set or matrix operation is "
            "still refused)."
        ),
    )
    fallback: Literal["none", "math", "math_and_number"] = Field(
        "none",
        description=(
            "When a response has no boxed/'answer is'/'Answer:' marker and is not itself just an "
            "answer: `none` (default) fails it (a response cut off mid-sentence is not paid); "
            "`math` takes its last `$...$` span; `math_and_number` also the last number of its "
            "last line."
        ),
    )
