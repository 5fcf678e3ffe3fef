"""ChoiceVerifier: read each response's committed label off the event loop and compare it."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from rlvr.schemas.choice import ChoiceItem, ChoiceResult
from rlvr.schemas.choice_labels import (
    DEFAULT_OPTION_COUNT,
    LabelSet,
    infer_kind,
    label_set,
)
from rlvr.schemas.common import Status
from rlvr.verifier.domains.batching import item_result
from rlvr.verifier.domains.choice.config import ChoiceSettings
from rlvr.verifier.domains.choice.read import ChoiceReason, read_choice
from rlvr.verifier.domains.reference.inline import InlineVerifier


def labels_of(item: ChoiceItem) -> LabelSet:
    kind = item.labels or infer_kind(item.answer)
    count = len(item.options) if item.options else item.num_options or DEFAULT_OPTION_COUNT
    return label_set(kind, count)


def judge_choice(item: ChoiceItem) -> ChoiceResult:
    """The verdict for one item (pure; microseconds)."""
    started = time.perf_counter()
    labels = labels_of(item)
    correct = labels.canonical(item.answer.strip())
    if correct is None:  # the wire model validated it: this is our own bug
        return item_result(
            ChoiceResult,
            item.id,
            Status.error,
            f"the correct answer {item.answer!r} is not one of the labels "
            f"{', '.join(labels.labels)}",
            time.perf_counter() - started,
            reason=ChoiceReason.no_answer.value,
        )
    reading = read_choice(item.response, labels, item.options)
    if reading.label is None:
        reason = reading.reason or ChoiceReason.no_answer
        status, detail = Status.failed, reading.detail
    elif reading.label == correct:
        reason, status, detail = ChoiceReason.correct, Status.passed, f"chose {correct}"
    else:
        reason, status = ChoiceReason.wrong_choice, Status.failed
        detail = f"chose {reading.label}; the answer is {correct}"
    return item_result(
        ChoiceResult,
        item.id,
        status,
        detail,
        time.perf_counter() - started,
        extracted=reading.extracted,
        choice=reading.label,
        reason=reason.value,
    )


class ChoiceVerifier(InlineVerifier[ChoiceItem, ChoiceResult]):
    def __init__(self, settings: ChoiceSettings) -> None:
        super().__init__("choice", settings, judge_choice, ChoiceResult)


@asynccontextmanager
async def open_choice_verifier(settings: ChoiceSettings) -> AsyncIterator[ChoiceVerifier]:
    yield ChoiceVerifier(settings)
