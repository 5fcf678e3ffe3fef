"""Typed values (`values.py`) and the structural comparer (`compare/dispatch.py`), real SymPy."""

from __future__ import annotations

import pytest
import sympy

from rlvr.verifier.domains.math.compare.context import Grading
from rlvr.verifier.domains.math.compare.dispatch import COMPARERS, equivalent
from rlvr.verifier.domains.math.parsing import to_sympy
from rlvr.verifier.domains.math.values import PRECEDENCE, Value, deciding_kind, kind_of, read_pair
from rlvr.verifier.domains.math.verdict import Conventions, SlowJob


def _ctx(gold: str, pred: str) -> Grading:
    job = SlowJob(gold, pred, False, False, None, None)
    return Grading.of(job, Conventions(), equivalent)


@pytest.mark.parametrize(
    ("latex", "kind"),
    [
        ("3", "scalar"),
        ("x^2 + 1", "scalar"),
        ("y = 2x + 3", "relation"),
        ("x \\le 3", "relation"),
        ("[1, 2)", "interval"),
        ("(-\\infty, 1) \\cup (2, \\infty)", "union"),
        ("\\{1, 2\\}", "listing"),
        ("(1, 2)", "tuple"),
        ("\\begin{pmatrix}1 & 2\\end{pmatrix}", "matrix"),
        ("\\emptyset", "set"),
        ("\\frac{1}{0}", "undefined"),
    ],
)
def test_each_answer_is_read_as_its_kind(latex: str, kind: str) -> None:
    assert kind_of(to_sympy(latex)) == kind


def test_every_kind_has_a_comparer_and_a_place_in_the_precedence() -> None:
    assert set(COMPARERS) == set(PRECEDENCE)


def test_an_inequality_reads_as_an_interval_only_against_a_set() -> None:
    bound = to_sympy("x < 2")
    against_set, _ = read_pair(bound, to_sympy("(-\\infty, 2)"))
    against_number, _ = read_pair(bound, sympy.Integer(2))
    assert against_set.kind == "interval"
    assert against_number.kind == "relation"


def test_a_membership_reads_as_its_set() -> None:
    gold, _ = read_pair(to_sympy("x \\in [1, 2]"), to_sympy("[1, 2]"))
    assert gold.kind == "interval"


def test_the_stronger_kind_decides_a_mixed_pair() -> None:
    assert deciding_kind(Value("scalar", 1), Value("relation", None)) == "relation"
    assert deciding_kind(Value("scalar", 1), Value("listing", None)) == "listing"
    assert deciding_kind(Value("undefined", None), Value("scalar", 1)) == "undefined"


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("x = 3", "y = 3", False),  # a left side is compared, not dropped
        ("x = 3", "3 = x", True),
        ("5", "\\{5\\}", True),  # `{5}` answers 5 at the top level ...
        ("\\{1, 2\\}", "\\{1, \\{2\\}\\}", False),  # ... never inside a structure
        ("(1, 2)", "(2, 1)", False),  # a tuple is ordered
        ("\\{1, 2\\}", "\\{2, 1\\}", True),  # a listing is not
        ("[1, 2)", "[1, 2]", False),
        ("\\frac{1}{0}", "\\frac{1}{0}", False),  # undefined equals nothing, itself included
        ("\\pi", "\\pi + 10^{-45}", False),
    ],
)
def test_structural_comparer_decides_by_kind(gold: str, pred: str, expected: bool) -> None:
    assert equivalent(to_sympy(gold), to_sympy(pred), _ctx(gold, pred)) is expected
