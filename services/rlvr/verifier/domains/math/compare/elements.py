"""Elements of a structure: each compares only with an element of its kind, in order or not."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import sympy

from rlvr.verifier.domains.math.values import element_kind, is_name

if TYPE_CHECKING:
    from rlvr.verifier.domains.math.compare.context import Grading


def element_equal(gold: Any, pred: Any, ctx: Grading) -> bool:
    """Two elements of a set, tuple or matrix: `{5}` answers `5` only at the top level, so a
    set inside a structure equals only a set (`\\{1, \\{2\\}\\}` is not `\\{1, 2\\}`)."""
    kinds = {element_kind(gold), element_kind(pred)}
    if len(kinds) > 1 and kinds != {"interval", "tuple"}:
        return False  # an open pair `(a, b)` may be either; nothing else changes kind
    return ctx.equal(gold, pred)


def in_order_equal(gold: Sequence[Any], pred: Sequence[Any], ctx: Grading) -> bool:
    """Same length, element by element in order."""
    return len(gold) == len(pred) and all(
        element_equal(a, b, ctx) for a, b in zip(gold, pred, strict=True)
    )


def unordered_equal(gold: Sequence[Any], pred: Sequence[Any], ctx: Grading) -> bool:
    """Same length, each element matched once, in any order. Named values (`x = 3, y = 2`)
    against bare values do not match: which value is which is unknown."""
    if len(gold) != len(pred):
        return False
    for named, other in ((gold, pred), (pred, gold)):
        names = {g.lhs for g in named if isinstance(g, sympy.Eq) and is_name(g.lhs)}
        if len(names) > 1 and not all(isinstance(p, sympy.Eq) for p in other):
            return False
    unused = list(pred)
    for item in gold:
        for index, other in enumerate(unused):
            if element_equal(item, other, ctx):
                del unused[index]
                break
        else:
            return False
    return True
