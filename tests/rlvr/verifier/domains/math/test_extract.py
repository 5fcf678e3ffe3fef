"""Extraction: which answer is found, hedging, no-answer reasons, linear time on hostile input."""

from __future__ import annotations

import time

import pytest

from rlvr.verifier.domains.math.extract import (
    boxed_contents,
    extract_answer,
    extract_gold,
    math_spans,
)
from rlvr.verifier.domains.math.judge import judge, same_answer
from rlvr.verifier.domains.math.verdict import Conventions


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("so \\boxed{\\frac{1}{2}}.", "\\frac{1}{2}"),
        ("\\boxed{1} then \\boxed{1}", "1"),
        ("\\boxed{\\{1,2\\}}", "\\{1,2\\}"),
        ("\\boxed{\\left\\{1\\right\\}}", "\\left\\{1\\right\\}"),
        ("\\fbox{7}", "7"),
        ("\\boxed 9.", "9"),
        ("The answer is $\\frac{3}{4}$. Done.", "\\frac{3}{4}"),
        ("Final Answer: The final answer is $28 \\%$. I hope it is correct.", "28 \\%"),
        ("Answer: 12 apples", "12 apples"),
        ("Reasoning...\nAnswer: 5\n", "5"),
        ("the answer is 3.5.", "3.5"),
        ("-5", "-5"),
        ("$\\frac{1}{2}$", "\\frac{1}{2}"),
        ("7,425,000", "7,425,000"),
        ("x = 3", "x = 3"),
    ],
)
def test_extracts_the_final_answer(response: str, expected: str) -> None:
    assert extract_answer(response, same_answer=same_answer).answer == expected


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("We get $a=1$ and finally $b = 4$", "b = 4"),
        ("Adding gives 3 and then 12", "12"),
    ],
)
def test_lenient_fallback_takes_the_last_math_or_number(response: str, expected: str) -> None:
    found = extract_answer(response, fallback="math_and_number", same_answer=same_answer)
    assert found.answer == expected


@pytest.mark.parametrize(
    "response",
    [
        "We get $a=1$ and finally $b = 4$",
        "First, 3 \\cdot 4 = 12, and then we need to",
        "So the total is 12 and then we add the",
        "<think>The sum is 12, so the answer is",
        "<think>Let me try \\boxed{12}. Hmm, I should check",
        "We compute $3 \\cdot 4 = 12$ and next",
    ],
)
def test_by_default_an_unmarked_or_cut_off_response_has_no_answer(response: str) -> None:
    assert extract_answer(response, same_answer=same_answer).answer is None


def test_several_different_boxed_values_fail_as_hedging_and_name_them() -> None:
    found = extract_answer("\\boxed{2} or \\boxed{3}", same_answer=same_answer)
    assert found.answer is None
    assert "several different final answers" in found.detail
    assert "2" in found.detail and "3" in found.detail


def test_boxed_values_that_agree_are_not_hedging() -> None:
    found = extract_answer("\\boxed{0.5}, i.e. \\boxed{\\frac{1}{2}}", same_answer=same_answer)
    assert found.answer == "\\frac{1}{2}"


def test_no_answer_fails_with_that_reason() -> None:
    found = extract_answer("I really cannot tell what it should be")
    assert found.answer is None
    assert "no final answer found" in found.detail


def test_fallback_none_needs_a_marker() -> None:
    assert extract_answer("so it is $5$ I guess", fallback="none").answer is None
    assert extract_answer("so it is $5$ I guess", fallback="math").answer == "5"


def test_gold_is_unwrapped() -> None:
    assert extract_gold("$\\frac{1}{2}$") == "\\frac{1}{2}"
    assert extract_gold("so \\boxed{14{,}916}.") == "14{,}916"
    assert extract_gold("12") == "12"


def test_math_spans_pair_delimiters() -> None:
    assert math_spans("a $x$ b \\(y\\) c \\[z\\] d $$w$$") == ["x", "y", "z", "w"]


def test_nested_boxed_keeps_only_the_outermost() -> None:
    assert boxed_contents("\\boxed{\\boxed{8}} and \\boxed{9}") == ["\\boxed{8}", "9"]


HOSTILE = {
    "100KB-prose": "word " * 20_000 + "\\boxed{7}",
    "5000-nested-braces": "\\boxed{" + "{" * 5000 + "1" + "}" * 5000 + "}",
    "5000-nested-boxed": "\\boxed{" * 5000 + "1" + "}" * 5000,
    "unclosed-braces": "\\boxed{" + "{" * 50_000,
    "many-display-openers": "\\[" * 30_000,
    "many-dollars": "$a" * 40_000,
    "many-boxed-all-different": "".join(f"\\boxed{{{i}}}" for i in range(10_000)),
    "many-markers": "The answer is " * 7_000,
    "digits-and-commas": "1," * 50_000,
    "boxed-long-blank-run": "\\boxed{1" + " " * 19_000 + "x}",
    "boxed-long-dot-run": "\\boxed{1" + "." * 19_000 + "x}",
    "boxed-many-units": "\\boxed{5 " + "cm " * 6_000 + "x}",
    "boxed-many-ands": "\\boxed{" + "1 and " * 3_000 + "x}",
    "answer-then-blanks": "Answer" + " " * 50_000 + "x",
    "template-tokens": "<|a|>" * 10_000 + "x",
    "letters-run": "a" * 100_000,
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_in_process_judging_is_fast_on_hostile_input(name: str) -> None:
    """Extraction, normalisation and the fast path run in the service process: they must stay
    linear (no regex with adjacent stars over a long run), whatever the response. A complexity
    guard, not a speed test: linear work on these ~100 KB inputs takes milliseconds, a quadratic
    scan of them minutes, so the bound is set far above any machine's load (it flaked at 0.5 s
    under a load of 10)."""
    text = HOSTILE[name]
    started = time.perf_counter()
    extract_answer(text, same_answer=same_answer)
    judge(text, "1", Conventions(), "math_and_number")
    assert time.perf_counter() - started < 5.0, name
