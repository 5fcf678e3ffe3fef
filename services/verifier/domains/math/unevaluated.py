"""Spot an unevaluated arithmetic expression (`2+2`, `3\\times 4`) offered for a numeric answer.

A policy asked "what is 17·23?" can restate the question (`17 \\times 23`) and, under a grader
that evaluates expressions, collect the reward without doing the arithmetic. So when the
ground truth is a plain number, an answer that is numbers joined by `+ - × ·` is refused.
Scientific notation (`1.5 \\times 10^{3}`), a lone fraction and a leading sign stay answers.
"""

from __future__ import annotations

import re

_NUMBER = r"(?:\d+(?:\.\d+)?|\\frac\{\d+(?:\.\d+)?\}\{\d+(?:\.\d+)?\})"
_OPERATOR = r"(?:\+|-|\*|\\times|\\cdot)"
_ARITHMETIC = re.compile(rf"-?{_NUMBER}(?:{_OPERATOR}-?{_NUMBER})+")
_SCIENTIFIC = re.compile(rf"-?{_NUMBER}(?:\\times|\\cdot|\*)10\^(?:\{{-?\d+\}}|-?\d)")


def is_unevaluated_arithmetic(normalized_key: str) -> bool:
    """Whether a normalised answer (no spaces) is numbers joined by arithmetic operators."""
    text = normalized_key.replace("\\left", "").replace("\\right", "")
    text = text.replace("(", "").replace(")", "").replace("{,}", "")
    if _SCIENTIFIC.fullmatch(text):
        return False
    return _ARITHMETIC.fullmatch(text) is not None
