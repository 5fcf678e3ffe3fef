"""What the API layer needs from a domain verifier: verify a batch in order, report health."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from rlvr.schemas.common import DomainHealth, ItemResult

ItemT_contra = TypeVar("ItemT_contra", contravariant=True)
ResultT_co = TypeVar("ResultT_co", bound=ItemResult, covariant=True)


class DomainVerifier(Protocol[ItemT_contra, ResultT_co]):
    """One per domain, built by the app's lifespan and kept in `app.state`.

    `verify_batch` returns exactly one result per item, in order, and never raises for a bad
    item: the candidate's faults and the verifier's own per-item faults are both verdicts.
    It may raise `Overloaded` (whole batch refused, 503) when its queue is full. The parts every
    domain shares (admission, item deadlines, results) are in `batching.py`.
    """

    async def verify_batch(self, items: Sequence[ItemT_contra]) -> Sequence[ResultT_co]: ...

    def health(self) -> DomainHealth: ...
