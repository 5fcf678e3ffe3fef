"""The in-process part of judging one item: extract, normalise, decide without SymPy if possible.

Pure functions; the result is either a final `Verdict` or a `SlowJob` for the killable pool.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rlvr.verifier.domains.math.extract import (
    boxed_contents,
    extract_answer,
    extract_gold,
    math_spans,
)
from rlvr.verifier.domains.math.fast import decide_fast
from rlvr.verifier.domains.math.form import form_refusal
from rlvr.verifier.domains.math.normalize import Normalized, normalize, top_level_parts
from rlvr.verifier.domains.math.numbers import Number, format_number, parse_number
from rlvr.verifier.domains.math.units import conversion_factor
from rlvr.verifier.domains.math.verdict import Conventions, SlowJob, Verdict

MAX_NORMALIZE_CHARS = 12_000  # longer "answers" are not answers (and keep the GIL phase short)


@dataclass(frozen=True, slots=True)
class Judged:
    extracted: str | None
    verdict: Verdict | None  # final, or None when `slow` must run
    slow: SlowJob | None
    failure: str | None = None  # no answer / hedging: a failed verdict with this detail


def judge(
    response: str, answer: str, conv: Conventions, fallback: str, problem: str | None = None
) -> Judged:
    extraction = extract_answer(response, fallback=fallback, same_answer=same_answer)
    extracted = extraction.answer
    # several boxed values are hedging, unless the ground truth itself has that many parts
    # (`(2, 2), (6, 2)` boxed one by one): then they are one answer in pieces
    if extracted is None and extraction.parts and len(extraction.parts) == gold_part_count(answer):
        extracted = ", ".join(extraction.parts)
    if extracted is None:
        return Judged(None, None, None, failure=extraction.detail)
    if len(extracted) > MAX_NORMALIZE_CHARS:
        return Judged(
            extracted[:200],
            None,
            None,
            failure=f"extracted answer is {len(extracted)} characters; not a final answer",
        )
    gold = normalized_gold(answer)
    pred = cached_normalize(extracted)
    if not gold.key:
        return Judged(extracted, None, None, failure="the ground-truth answer is empty")
    if not pred.key:
        return Judged(extracted, None, None, failure="the extracted answer is empty")
    if pred.named_value is not None and gold.lhs is None and "=" not in gold.latex:
        # `f'(x) = 6x^2` against `6x^2`: a named value answers a bare ground truth
        pred = cached_normalize(pred.named_value)
    elif gold.lhs is None and "=" not in gold.latex and _is_constant(gold.latex):
        stated = stated_value(pred.latex)
        if stated is not None:
            pred = cached_normalize(stated)  # `a + b = 7` against 7: the value it states
    refused = parts_refusal(gold, pred) or (
        restatement(problem, gold.key, pred.key) if problem else None
    )
    if refused is not None:
        return Judged(extracted, Verdict(False, refused, gold.latex[:200], pred.latex[:200]), None)
    unknown = unknown_word(gold, pred, problem)
    if unknown is not None:
        return Judged(extracted, Verdict(False, unknown, gold.latex[:200], pred.latex[:200]), None)
    if gold.unit is not None and pred.unit is not None and gold.unit != pred.unit:
        return Judged(extracted, converted_verdict(gold, pred), None)
    verdict = decide_fast(gold, pred, conv)
    if verdict is not None:
        return Judged(extracted, verdict, None)
    job = SlowJob(
        gold.latex,
        pred.latex,
        gold.is_percent,
        pred.is_percent,
        _decimal(gold),
        _decimal(pred),
    )
    return Judged(extracted, None, job)


def parts_refusal(gold: Normalized, pred: Normalized) -> str | None:
    """Why the parts beside the values disagree (a different left side or unit, a qualifier,
    roots for an ordered pair or the reverse), or None: these are compared as data before any
    value is."""
    if pred.refusal is not None and gold.refusal is None:
        return pred.refusal
    if gold.lhs is not None and pred.lhs is not None and gold.lhs != pred.lhs:
        return f"the answer names {pred.lhs}, the ground truth names {gold.lhs}"
    if pred.is_roots and gold.latex.lstrip("\\left").startswith(("(", "[")):
        return "values of one unknown (a set of roots) where an ordered pair or interval is due"
    if gold.is_roots and pred.latex.lstrip("\\left").startswith(("(", "[")):
        return "an ordered pair or interval where values of one unknown (a set of roots) are due"
    if pred.unit == "deg" and gold.unit is None and "\\pi" in gold.latex:
        return "degrees where the ground truth is a multiple of pi (a measure in radians)"
    if gold.unit is not None and pred.is_percent and not gold.is_percent:
        return f"a percentage where the ground truth is a quantity in {gold.unit}"
    if pred.unit is not None and gold.is_percent and not pred.is_percent:
        return f"a quantity in {pred.unit} where the ground truth is a percentage"
    return form_refusal(gold.latex, pred.latex)


_COMMAND_RE = re.compile(r"\\[A-Za-z]+")


def _is_constant(latex: str) -> bool:
    """No letters outside commands (`7`, `\\frac{\\sqrt{2}}{2}`, `3\\pi`)."""
    return not re.search(r"[A-Za-z]", _COMMAND_RE.sub(" ", latex))


# a name on a left side: a letter with its subscript (`x_1` and `x_2` are two names)
_NAME_RE = re.compile(r"[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?")


def stated_value(latex: str) -> str | None:
    """`a + b = 7` -> `7`: an equation whose left side combines several unknowns and whose right
    side is a constant states that constant (for a ground truth that is a bare constant); None
    otherwise. A left side in one unknown (`x + 1 = 3`, `2x = 6`) is an equation to solve: it
    states the unknown's value (2, 3), never its right side."""
    if latex.count("=") != 1 or any(op in latex for op in ("<", ">", "\\le", "\\ge", "\\ne")):
        return None
    left, right = (side.strip() for side in latex.split("="))
    if not left or not right or "," in right or _is_constant(left) or not _is_constant(right):
        return None
    if len(set(_NAME_RE.findall(_COMMAND_RE.sub(" ", left)))) < 2:
        return None
    return right


def unknown_word(gold: Normalized, pred: Normalized, problem: str | None) -> str | None:
    """Why a word after the answer's number makes it not that number, or None.

    The reader knows units, count nouns and number words (`reading.py`); any other word after a
    number (`5 \\text{ tops}`, `5 \\text{ sometimes}`) may change what is said, so the answer is
    refused, unless the ground truth has the same word or the problem names it (`How many
    widgets ...`: `12 \\text{ widgets}` counts them)."""
    if pred.unit is None or pred.unit_known or pred.unit == gold.unit:
        return None
    words = pred.unit.split("^")[0].split()
    if problem and all(_names_word(problem, word) for word in words):
        return None
    return f"the word {pred.unit!r} after the number is not a unit the reader knows"


def _names_word(problem: str, word: str) -> bool:
    """Whether the problem text has the word (or its plural) as a word of its own."""
    pattern = rf"(?<![A-Za-z]){re.escape(word)}(?:s|es)?(?![A-Za-z])"
    return re.search(pattern, problem[:MAX_PROBLEM_CHARS], re.IGNORECASE) is not None


def converted_verdict(gold: Normalized, pred: Normalized) -> Verdict:
    """Two values with different units: equal only when the units convert (`units.py`) and the
    answer's value, converted, is exactly the ground truth's (`6000 m` for `6 km`, not `6 m`).
    A conversion is judged between plain numbers; any other value with another unit is refused."""
    assert gold.unit is not None and pred.unit is not None
    shown_gold, shown_pred = f"{gold.latex} {gold.unit}", f"{pred.latex} {pred.unit}"
    factor = conversion_factor(pred.unit, gold.unit)
    if factor is None or gold.is_percent or pred.is_percent:
        detail = f"unit {pred.unit!r} where the ground truth's unit is {gold.unit!r}"
        return Verdict(False, detail, shown_gold, shown_pred)
    gold_number, pred_number = parse_number(gold.key), parse_number(pred.key)
    if gold_number is None or pred_number is None:
        detail = f"unit {pred.unit!r} for {gold.unit!r}: a conversion is judged on plain numbers"
        return Verdict(False, detail, shown_gold, shown_pred)
    converted = pred_number.value * factor
    if converted == gold_number.value:
        return Verdict(True, f"{shown_pred} = {shown_gold} (converted)", shown_gold, shown_pred)
    detail = f"{shown_pred} is {format_number(converted)} {gold.unit}, expected {shown_gold}"
    return Verdict(False, detail, shown_gold, shown_pred)


MAX_PROBLEM_CHARS = 8_000  # the problem text read for restatements (it comes first)


def restatement(problem: str, gold_key: str, pred_key: str) -> str | None:
    """Why the answer is a restatement of the problem, or None: its normal form is one of the
    problem's own math expressions (not a bare number, and not the ground truth itself)."""
    if pred_key == gold_key or parse_number(pred_key) is not None:
        return None
    if pred_key in problem_expressions(problem[:MAX_PROBLEM_CHARS]):
        return "the answer restates an expression of the problem: give the result it asks for"
    return None


@lru_cache(maxsize=1024)
def problem_expressions(problem: str) -> frozenset[str]:
    """The normal forms of the problem's math spans (one problem, many samples: cached)."""
    keys = set()
    for span in math_spans(problem)[:200]:
        normalized = cached_normalize(span[:MAX_NORMALIZE_CHARS])
        keys.add(normalized.key)
        for part in top_level_parts(normalized.latex)[:20]:
            keys.add(part.replace(" ", ""))
        if "=" in normalized.latex:  # `Solve $x^2 = 5x + 6$`: each side is an expression too
            keys.update(side.replace(" ", "") for side in normalized.latex.split("=")[:5])
    keys.discard("")
    return frozenset(keys)


@lru_cache(maxsize=8192)
def normalized_gold(answer: str) -> Normalized:
    gold = normalize(extract_gold(answer)[:MAX_NORMALIZE_CHARS])
    top = re.sub(r"\{[^{}]*\}", "", gold.latex)
    if top.count("=") > 1 and "," not in top and "\\\\" not in top and "<" not in top:
        # a ground truth written as a chain (`z = 1 + 1 = 2`) is trusted: its last part is the
        # value (a response's chain must be true, and SymPy checks it)
        return normalize(gold.latex.rsplit("=", 1)[1])
    return gold


@lru_cache(maxsize=8192)
def gold_part_count(answer: str) -> int:
    """How many comma-separated parts the ground truth has at the top level (or boxed values)."""
    boxed = boxed_contents(answer)
    if len(boxed) > 1:
        return len(boxed)
    text = extract_gold(answer)[:MAX_NORMALIZE_CHARS].strip()
    for left, right in (("\\{", "\\}"), ("{", "}")):
        if text.startswith(left) and text.endswith(right):
            text = text[len(left) : len(text) - len(right)]  # `{1,2,3}`: a set of three parts
            break
    return len(top_level_parts(text))


@lru_cache(maxsize=8192)
def cached_normalize(text: str) -> Normalized:
    return normalize(text)


def same_answer(a: str, b: str) -> bool:
    """Whether two boxed values in one response say the same thing (no SymPy)."""
    if a.strip() == b.strip():
        return True
    na, nb = cached_normalize(a[:MAX_NORMALIZE_CHARS]), cached_normalize(b[:MAX_NORMALIZE_CHARS])
    if na.key == nb.key:
        return True
    x, y = parse_number(na.key), parse_number(nb.key)
    return x is not None and y is not None and x.value == y.value


def _decimal(normalized: Normalized) -> Number | None:
    number = parse_number(normalized.key)
    return number if number is not None and number.decimals is not None else None
