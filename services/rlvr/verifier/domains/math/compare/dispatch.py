"""The structural comparer: both sides read as typed values, the pair decided by its kind."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rlvr.verifier.domains.math.compare.expressions import scalars_equal
from rlvr.verifier.domains.math.compare.relations import relations_equal
from rlvr.verifier.domains.math.compare.sequences import matrices_equal, tuples_equal
from rlvr.verifier.domains.math.compare.sets import (
    intervals_equal,
    listings_equal,
    other_sets_equal,
    unions_equal,
)
from rlvr.verifier.domains.math.values import Kind, deciding_kind, read_pair

if TYPE_CHECKING:
    from rlvr.verifier.domains.math.compare.context import Equal, Grading


def _never(gold: Any, pred: Any, ctx: Grading) -> bool:
    return False  # an undefined value (`12:00` read as 12/0) is equal to nothing


def _identical(gold: Any, pred: Any, ctx: Grading) -> bool:
    return bool(gold == pred)


COMPARERS: Mapping[Kind, Equal] = {
    "undefined": _never,
    "relation": relations_equal,
    "matrix": matrices_equal,
    "listing": listings_equal,
    "interval": intervals_equal,
    "union": unions_equal,
    "tuple": tuples_equal,
    "set": other_sets_equal,
    "scalar": scalars_equal,
    "other": _identical,
}


def equivalent(gold: Any, pred: Any, ctx: Grading) -> bool:
    """Whether two SymPy objects mean the same; never true for two distinct exact numbers."""
    gold_value, pred_value = read_pair(gold, pred)
    comparer = COMPARERS[deciding_kind(gold_value, pred_value)]
    return comparer(gold_value.obj, pred_value.obj, ctx)
