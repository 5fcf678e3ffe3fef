"""What math caches: SymPy verdicts, and timeouts, keyed by the normalised (answer, extracted)
pair (in the shared `BoundedLru`)."""

from __future__ import annotations

from dataclasses import dataclass

from rlvr.verifier.domains.math.verdict import Verdict


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A cached timeout: reused only for requests whose deadline is no longer than this one."""

    timeout_s: float


CachedOutcome = Verdict | TimedOut
