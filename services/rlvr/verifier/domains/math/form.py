"""Form rules read on the written answer: operations and notations the ground truth is free of.

An answer that still contains the work the problem asked for (a set operation, a product or
transpose of matrices, a derivative to take, a determinant written out) restates the problem; it
is refused before any value is computed, whatever that value would be. A time (`12:30`) is a
time, never the quotient SymPy would read. Each rule is a linear scan of the text.
"""

from __future__ import annotations

import re

# `\\mathbb{R} \\setminus \\{2\\}` is how a complement is written, not work left to do
_SET_OPERATION_RE = re.compile(
    r"\\(?:cap|bigcap)(?![A-Za-z])"
    r"|(?<!\\mathbb\{R\} )(?<!\\mathbb\{R\})\\(?:setminus|backslash)(?![A-Za-z])"
)
# a union of intervals is how a set is written; a union of listed sets is work left to do
_LISTED_UNION_RE = re.compile(r"\\(?:cup|bigcup)(?![A-Za-z])")
_MATRIX_BEGIN_RE = re.compile(r"\\begin\{([pbBvV]?matrix|array)\}")
_MATRIX_AFTER_RE = re.compile(r"\\end\{[pbBvV]?matrix\} ?(?:\\right[)\]|.]?)? ?\^")
_DERIVATIVE_RE = re.compile(r"\\frac\{ ?d(?: ?\^ ?\{? ?\d ?\}?)? ?\}\{ ?d ?[A-Za-z]")
_TIME_RE = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?(?: ?(?:am|pm|a\.m\.|p\.m\.))?", re.IGNORECASE)


def form_refusal(gold: str, pred: str) -> str | None:
    """Why the answer `pred` is not in a form that can answer `gold` (both normalised LaTeX)."""
    if _SET_OPERATION_RE.search(pred) and not _SET_OPERATION_RE.search(gold):
        return "a set operation left to do (the ground truth has none): give the resulting set"
    if _LISTED_UNION_RE.search(pred) and "\\{" in pred and not _LISTED_UNION_RE.search(gold):
        return "a union of listed sets left to do: give the resulting set"
    pred_matrices = _MATRIX_BEGIN_RE.findall(pred)
    gold_matrices = _MATRIX_BEGIN_RE.findall(gold)
    if any(kind in ("vmatrix", "Vmatrix") for kind in pred_matrices) and not any(
        kind in ("vmatrix", "Vmatrix") for kind in gold_matrices
    ):
        return "a determinant (vmatrix) written out: give its value, or the matrix as a matrix"
    if gold_matrices and pred_matrices:
        if len(pred_matrices) > len(gold_matrices) or _MATRIX_AFTER_RE.search(pred):
            return "a matrix operation left to do (a product, sum or power): give the matrix"
        if _outside_matrix(pred) and not _outside_matrix(gold):
            return "a scalar times a matrix: give the resulting matrix"
    if _DERIVATIVE_RE.search(pred) and not _DERIVATIVE_RE.search(gold):
        return "a derivative left to take: give its value"
    if _TIME_RE.fullmatch(gold.strip()) and _squeezed(gold) != _squeezed(pred):
        return f"the ground truth is the time {gold}; the answer is not that time"
    return None


def _squeezed(text: str) -> str:
    return text.replace(" ", "").lower()


def _outside_matrix(text: str) -> bool:
    """Whether anything but the matrix itself is written (`2 \\begin{pmatrix}...`)."""
    begin = text.find("\\begin{")
    end = text.rfind("\\end{")
    if begin < 0 or end < 0:
        return False
    close = text.find("}", end)
    before = text[:begin].replace("\\left", "").strip(" ([")
    after = text[close + 1 :].replace("\\right", "").strip(" )]")
    return bool(before or after)
