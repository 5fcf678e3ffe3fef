"""What one comparison carries down the structure: job, conventions, written decimals."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rlvr.verifier.domains.math.compare.rounding import decimal_literals
from rlvr.verifier.domains.math.numbers import Number
from rlvr.verifier.domains.math.verdict import Conventions, SlowJob

Equal = Callable[[Any, Any, "Grading"], bool]


@dataclass(frozen=True, slots=True)
class Grading:
    """One call's context, handed down the comparison instead of module globals: what is graded,
    the conventions, the decimals each side was written with (by exact value: the rounding rule
    applies inside tuples, intervals and matrices), and the structural comparer that elements of
    a structure are compared with (`dispatch.equivalent`: the kind comparers do not import it)."""

    job: SlowJob
    conv: Conventions
    gold_decimals: Mapping[Fraction, Number]
    pred_decimals: Mapping[Fraction, Number]
    compare: Equal

    @classmethod
    def of(cls, job: SlowJob, conv: Conventions, compare: Equal) -> Grading:
        return cls(
            job, conv, decimal_literals(job.gold_latex), decimal_literals(job.pred_latex), compare
        )

    def equal(self, gold: Any, pred: Any) -> bool:
        """Whether two values (parts of the structures compared) are equivalent."""
        return self.compare(gold, pred, self)

    def written_decimal(self, value: Fraction) -> bool:
        return value in self.gold_decimals or value in self.pred_decimals
