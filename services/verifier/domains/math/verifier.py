"""MathVerifier: PLACEHOLDER until the math domain lands (exact match of the last boxed answer)."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from services.verifier.domains.math.config import MathSettings
from services.verifier.schemas.common import DomainHealth, Status
from services.verifier.schemas.math import MathItem, MathResult


class MathVerifier:
    def __init__(self, settings: MathSettings) -> None:
        self.settings = settings

    async def verify_batch(self, items: Sequence[MathItem]) -> list[MathResult]:
        results = []
        for item in items:
            started = time.perf_counter()
            found = re.findall(r"\\boxed\{([^{}]*)\}", item.response)
            extracted = found[-1] if found else None
            ok = extracted is not None and extracted.strip() == item.answer.strip()
            results.append(
                MathResult(
                    id=item.id,
                    status=Status.passed if ok else Status.failed,
                    reward=1.0 if ok else 0.0,
                    detail="match" if ok else "no match",
                    elapsed_s=time.perf_counter() - started,
                    extracted=extracted,
                )
            )
        return results

    def health(self) -> DomainHealth:
        return DomainHealth(ok=True)


@asynccontextmanager
async def open_math_verifier(settings: MathSettings) -> AsyncIterator[MathVerifier]:
    yield MathVerifier(settings)
