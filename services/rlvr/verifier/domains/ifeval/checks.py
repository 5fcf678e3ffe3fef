"""What a checker is: `(text, kwargs) -> Check`, met or not and why, with IFEval's comparisons."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple


class Check(NamedTuple):
    met: bool
    why: str


Checker = Callable[[str, Mapping[str, Any]], Check]


def compare(count: int, relation: str, threshold: int, what: str) -> Check:
    """IFEval's two relations: `less than` is count < threshold, `at least` is >=."""
    met = count < threshold if relation == "less than" else count >= threshold
    return Check(met, f"{count} {what}; needed {relation} {threshold}")
