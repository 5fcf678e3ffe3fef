"""The in-process phase (extraction, normalisation, the fast decision) is linear on any text.

It runs on a thread that holds the GIL, so a superlinear regex there stalls every domain: 500
tildes in a box (`\\boxed{1~~~...~2}`) once took 15.7 s. Each probe repeats one token to the
size the phase accepts (12 KB, `MAX_NORMALIZE_CHARS`) inside a box, after a marker and bare,
against a short and a long ground truth. The bound is generous and absolute: 50 ms of this
thread's CPU time, best of three, so a loaded shared machine does not count; any quadratic
pattern costs far more at that size (the tilde stall was seconds at 1 KB), so the test does not
flake and still catches one.
"""

from __future__ import annotations

import time

import pytest

from rlvr.verifier.domains.math.judge import (
    MAX_NORMALIZE_CHARS,
    cached_normalize,
    gold_part_count,
    judge,
    normalized_gold,
)
from rlvr.verifier.domains.math.verdict import Conventions

BOUND_S = 0.050
TOKENS = [
    "~",
    " ",
    "\\quad ",
    " \\text{ and } ",
    " and ",
    " or ",
    "1 ",
    "{",
    "$",
    ",",
    "x = ",
    "x > 0 and ",
    "ab",
    "ab cd ",
    "\\left(",
    "\\text{cm}",
    "\\pm ",
    "\\frac{1}{",
    ";",
    "\\boxed{",
    "\\boxed{1} or ",
    "wait or 5 ",
    "\\% ",
    "^\\circ ",
    "1\\,",
    "\n",
    "\\{x \\mid ",
    "5 \\text{ cm} ",
    "not ",
    "|x| ",
    "=",
    "</think>",
    "Answer: ",
    "#### ",
    "<|im_end|>",
    "</s>",
]


def _judged_in(response: str, answer: str) -> float:
    best = float("inf")
    for _ in range(3):
        for cache in (cached_normalize, normalized_gold, gold_part_count):
            cache.cache_clear()  # time the work, not the memo
        started = time.thread_time()  # this thread's CPU time: what holds the GIL, not the load
        judge(response, answer, Conventions(), "none")
        best = min(best, time.thread_time() - started)
    return best


@pytest.mark.parametrize("token", TOKENS)
def test_a_repeated_token_up_to_the_item_limit_is_judged_in_linear_time(token: str) -> None:
    body = (token * (MAX_NORMALIZE_CHARS // len(token) + 1))[: MAX_NORMALIZE_CHARS - 20]
    for response in (f"\\boxed{{1{body}2}}", f"The answer is $1{body}2$", body):
        for answer in ("5", response[:5000]):  # a short and a long ground truth
            spent_s = _judged_in(response, answer)
            assert spent_s < BOUND_S, f"{token!r}: {spent_s * 1000:.0f} ms"


def test_the_tilde_stall_of_issue_27_is_gone() -> None:
    response = "\\boxed{1" + "~" * 500 + "2}"
    assert _judged_in(response, "12") < 0.005 * 10  # was 15.7 s
    judged = judge(response, "12", Conventions(), "none")
    assert judged.verdict is not None and judged.verdict.is_equal is False  # `1 ... 2` is not 12
