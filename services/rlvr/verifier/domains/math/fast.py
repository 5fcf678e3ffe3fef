"""Decisions that need no SymPy: identical normal forms, plain numbers, choice letters, words.

Runs in the service process (off the event loop); returns None when only SymPy can decide.
"""

from __future__ import annotations

import re
from fractions import Fraction

from rlvr.verifier.domains.math.normalize import (
    Normalized,
    choice_letter,
    leading_choice_letter,
    text_key,
)
from rlvr.verifier.domains.math.numbers import (
    Number,
    decimal_comma_equal,
    format_number,
    numbers_equal,
    parse_number,
)
from rlvr.verifier.domains.math.verdict import Conventions, Verdict

_LISTING_COMMA_RE = re.compile(r",\s")
_WORDS_RE = re.compile(r"^[A-Za-z][A-Za-z '\-]*$")
_LONG_WORD_RE = re.compile(r"[A-Za-z]{3,}")
_UPPER_CHOICE_RE = re.compile(r"^\(?[A-J]\)?$")
_SPACE_NOT_AFTER_COMMA_RE = re.compile(r"(?<!,) +")
# `204_5`, `1011_{2}`: digits in a base. Unbraced, a subscript is one character, as TeX reads
# it: `x_12` is `x_1` then 2, never `x` in base 12.
_BASE_RE = re.compile(r"^([0-9A-Za-z]+)_(?:(\d)|\{(\d+)\})$")


def _numeral(match: re.Match[str]) -> tuple[str, str]:
    """(digits, base) of a `_BASE_RE` match, braced or not."""
    digits, bare, braced = match.groups()
    return digits, bare or braced


def decide_fast(gold: Normalized, pred: Normalized, conv: Conventions) -> Verdict | None:
    letter = choice_letter(gold.key) if _UPPER_CHOICE_RE.match(gold.key) else None
    if letter is not None:
        chosen = choice_letter(pred.key) or leading_choice_letter(pred.latex)
        if chosen is not None:
            chosen = chosen.upper()
            if chosen == letter:
                return Verdict(True, f"choice {letter}", letter, chosen)
            return Verdict(False, f"chose {chosen}, expected {letter}", letter, chosen)
    # a bare answer may answer `28\%` under `either`; an answer with `%` against a bare ground
    # truth is decided as numbers (`0.5\%` is not 0.5)
    same_percent = gold.is_percent == pred.is_percent or (
        conv.percent == "either" and not pred.is_percent
    )
    if gold.key == pred.key and gold.key and same_percent:
        return Verdict(True, "identical after normalisation", gold.key, pred.key)
    gold_base, pred_base = _BASE_RE.match(gold.key), _BASE_RE.match(pred.key)
    if gold_base is not None and pred_base is not None:
        same = _numeral(gold_base) == _numeral(pred_base)  # `204_5`: digits in a base, not 204
        return Verdict(
            same, "same base-b numeral" if same else f"{pred.key} vs {gold.key}", gold.key, pred.key
        )
    # a comma followed by a space separates a listing (`1, 2`): never a decimal comma
    if not _LISTING_COMMA_RE.search(pred.latex) and decimal_comma_equal(gold.key, pred.key):
        return Verdict(True, "equal (decimal comma)", gold.key, pred.key)
    gold_number = parse_number(_number_text(gold.latex))
    pred_number = parse_number(_number_text(pred.latex))
    if gold_number is not None and pred_number is not None:
        return _compare_numbers(gold_number, gold.is_percent, pred_number, pred.is_percent, conv)
    if _is_words(gold.key, gold.latex) and _is_words(pred.key, pred.latex):
        same = text_key(gold.latex) == text_key(pred.latex)
        detail = "same words" if same else f"text {pred.latex!r} vs {gold.latex!r}"
        return Verdict(same, detail, gold.latex, pred.latex)
    if gold_number is not None and _is_words(pred.key, pred.latex):
        return Verdict(
            False, f"expected the number {gold.latex}, got text {pred.latex!r}", gold.latex, None
        )
    return None


def _compare_numbers(
    gold: Number, gold_pct: bool, pred: Number, pred_pct: bool, conv: Conventions
) -> Verdict:
    shown_gold = format_number(gold.value) + ("%" if gold_pct else "")
    shown_pred = format_number(pred.value) + ("%" if pred_pct else "")
    if not pred.reduced and gold.reduced:
        # `\\frac{782}{2}` for 391: a quotient left to do is not the value
        detail = f"unreduced fraction for {shown_gold}: give the value in lowest terms"
        return Verdict(False, detail, shown_gold, shown_pred)
    pairs = [(gold, pred)]
    if gold_pct and not pred_pct:
        pairs = [(_per_cent(gold), pred)] + ([(gold, pred)] if conv.percent == "either" else [])
    elif pred_pct and not gold_pct:
        # `50\%` answers a ground truth 50 (the percentage was asked), but `0.5\%` is not the
        # fraction 0.5: a bare ground truth below 1 in size is a fraction, read only as p/100
        either = conv.percent == "either" and abs(gold.value) >= 1
        pairs = [(gold, _per_cent(pred))] + ([(gold, pred)] if either else [])
    for g, p in pairs:
        if numbers_equal(g, p, conv.min_rounded_digits, conv.decimal_for_exact):
            how = "equal" if g.value == p.value else "equal after rounding"
            return Verdict(True, f"{how}: {shown_pred} = {shown_gold}", shown_gold, shown_pred)
    return Verdict(False, f"parsed {shown_pred}, expected {shown_gold}", shown_gold, shown_pred)


def _number_text(latex: str) -> str:
    """Spaces go, except after a comma: `32, 349` is a list, `32,349` a thousands separator."""
    return _SPACE_NOT_AFTER_COMMA_RE.sub("", latex)


def _per_cent(number: Number) -> Number:
    decimals = None if number.decimals is None else number.decimals + 2
    return Number(number.value / Fraction(100), decimals, number.significant)


def _is_words(key: str, latex: str) -> bool:
    return bool(_WORDS_RE.match(latex)) and bool(_LONG_WORD_RE.search(key))
