"""AnswerVerifier: judge short answers off the event loop (pure matching, microseconds each)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from rlvr.schemas.answer import AnswerItem, AnswerResult
from rlvr.schemas.common import Status
from rlvr.verifier.domains.answer.config import AnswerSettings
from rlvr.verifier.domains.answer.match import judge_answer
from rlvr.verifier.domains.batching import item_result
from rlvr.verifier.domains.reference.inline import InlineVerifier


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


class AnswerVerifier(InlineVerifier[AnswerItem, AnswerResult]):
    def __init__(self, settings: AnswerSettings) -> None:
        super().__init__("answer", settings, answer_result, AnswerResult)


@asynccontextmanager
async def open_answer_verifier(settings: AnswerSettings) -> AsyncIterator[AnswerVerifier]:
    yield AnswerVerifier(settings)
