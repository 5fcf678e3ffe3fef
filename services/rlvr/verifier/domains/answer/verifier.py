"""AnswerVerifier: judge short answers off the event loop (pure matching, microseconds each)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from rlvr.schemas.answer import AnswerItem, AnswerResult
from rlvr.schemas.common import DomainHealth, Status
from rlvr.verifier.domains.answer.config import AnswerSettings
from rlvr.verifier.domains.answer.match import judge_answer
from rlvr.verifier.domains.batching import Admission, item_result


def answer_result(item: AnswerItem) -> AnswerResult:
    started = time.perf_counter()
    verdict = judge_answer(item)
    return item_result(
        AnswerResult,
        item.id,
        Status.passed if verdict.score >= 1.0 else Status.failed,
        verdict.detail,
        time.perf_counter() - started,
        score=verdict.score,
        extracted=verdict.extracted,
        matched=verdict.matched,
        reason=verdict.reason,
    )


class AnswerVerifier:
    def __init__(self, settings: AnswerSettings) -> None:
        self.settings = settings
        self.admission = Admission(
            "answer", settings.max_queue_items, "max_queue_items", settings.retry_after_s
        )
        self.judged_items = 0

    async def verify_batch(self, items: Sequence[AnswerItem]) -> list[AnswerResult]:
        async with self.admission.admit(len(items)):  # Overloaded -> 503 for the whole batch
            results = await asyncio.to_thread(lambda: [answer_result(item) for item in items])
        self.judged_items += len(items)
        return results

    def health(self) -> DomainHealth:
        return DomainHealth(
            ok=True, stats={**self.admission.stats(), "judged_items": self.judged_items}
        )


@asynccontextmanager
async def open_answer_verifier(settings: AnswerSettings) -> AsyncIterator[AnswerVerifier]:
    yield AnswerVerifier(settings)
