"""IfevalVerifier with its real killable pool: order, scoring, long items in workers, deadlines."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from rlvr.schemas.common import Status
from rlvr.schemas.ifeval import IfevalItem
from rlvr.verifier.domains.ifeval.config import IfevalSettings
from rlvr.verifier.domains.ifeval.verifier import IfevalVerifier, open_ifeval_verifier

pytestmark = pytest.mark.asyncio(loop_scope="module")

NO_COMMA = {"id": "punctuation:no_comma"}
LOWER = {"id": "change_case:english_lowercase"}
SENTENCES = {
    "id": "length_constraints:number_sentences",
    "kwargs": {"num_sentences": 2, "relation": "at least"},
}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def verifier() -> AsyncIterator[IfevalVerifier]:
    async with open_ifeval_verifier(IfevalSettings(inline_max_chars=5000)) as opened:
        opened.model_inline_max_chars = 2000
        yield opened


def item(response: str, *constraints: dict[str, Any], **fields: Any) -> IfevalItem:
    return IfevalItem.model_validate(
        {"response": response, "constraints": list(constraints), **fields}
    )


async def test_results_in_order_with_fraction_and_all_scoring(verifier: IfevalVerifier) -> None:
    results = await verifier.verify_batch(
        [
            item("the sea is calm today", NO_COMMA, LOWER, id="a"),
            item("The sea, calm today", NO_COMMA, LOWER, id="b"),
            item("the sea, calm today", NO_COMMA, LOWER, id="c"),
            item("the sea, calm today", NO_COMMA, LOWER, id="d", scoring="all"),
        ]
    )
    assert [r.id for r in results] == ["a", "b", "c", "d"]
    assert [r.status for r in results] == [
        Status.passed,
        Status.failed,
        Status.failed,
        Status.failed,
    ]
    assert [r.reward for r in results] == [1.0, 0.0, 0.5, 0.0]
    assert [c.met for c in results[2].constraints] == [False, True]
    assert results[2].constraints[0].why == "1 comma(s)"
    assert results[2].detail == "1 of 2 constraints met; not met: punctuation:no_comma: 1 comma(s)"


async def test_a_long_response_is_judged_in_a_worker(verifier: IfevalVerifier) -> None:
    before = verifier.pooled_items
    long_text = "The sea is calm. " * 1000  # 17,000 characters > inline_max_chars
    (result,) = await verifier.verify_batch([item(long_text, SENTENCES)])
    assert verifier.pooled_items == before + 1
    assert result.status is Status.passed and result.constraints[0].why.startswith("1000 sentences")


async def test_a_model_backed_check_on_a_mid_length_response_goes_to_a_worker(
    verifier: IfevalVerifier,
) -> None:
    text = "The sea is calm. " * 200  # 3,400 characters: inline, unless a model reads it
    before = verifier.pooled_items
    await verifier.verify_batch([item(text, NO_COMMA)])
    assert verifier.pooled_items == before
    (result,) = await verifier.verify_batch([item(text, SENTENCES)])
    assert verifier.pooled_items == before + 1 and result.status is Status.passed
    assert result.constraints[0].why.startswith("200 sentences")


async def test_a_slow_long_item_times_out_alone(verifier: IfevalVerifier) -> None:
    hostile = "a. " * 400_000  # Punkt takes seconds over this
    results = await verifier.verify_batch(
        [item(hostile, SENTENCES, timeout_s=0.5), item("the sea is calm today", NO_COMMA)]
    )
    assert results[0].status is Status.timed_out and results[0].reward == 0.0
    assert "timed out after 0.5 s" in results[0].detail
    assert results[1].status is Status.passed
    # the pool recovers: the next long item is judged
    (after,) = await verifier.verify_batch([item("The sea is calm. " * 1000, SENTENCES)])
    assert after.status is Status.passed


async def test_health_reports_the_pool(verifier: IfevalVerifier) -> None:
    health = verifier.health()
    assert health.ok and health.stats["workers"] == 1


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def sharing() -> AsyncIterator[IfevalVerifier]:
    """A verifier that shares batches of 8 or more short items with its worker, 3 a chunk."""
    settings = IfevalSettings(share_min_items=8, share_chunk_items=3)
    async with open_ifeval_verifier(settings) as opened:
        yield opened


def mixed_batch(count: int) -> list[IfevalItem]:
    """Short items whose verdicts differ (met, not met, refused, model-backed), ids in order."""
    texts = [
        "the sea is calm today, and the sky is clear.",
        "The Sea Is Calm. The Sky Is Clear. Birds Fly.",
        "La mer est calme aujourd'hui et le ciel est clair.",
        "",
        "I DON'T KNOW. THE NASA MISSION IS LATE.",
    ]
    capitals: dict[str, Any] = {
        "id": "change_case:capital_word_frequency",
        "kwargs": {"capital_frequency": 3, "capital_relation": "at least"},
    }
    language: dict[str, Any] = {"id": "language:response_language", "kwargs": {"language": "fr"}}
    shapes: list[tuple[dict[str, Any], ...]] = [
        (NO_COMMA, LOWER),
        (SENTENCES, capitals),
        (language,),
        (NO_COMMA,),
        (capitals,),
    ]
    return [
        item(texts[n % len(texts)], *shapes[(n // len(texts)) % len(shapes)], id=str(n))
        for n in range(count)
    ]


async def test_a_big_batch_is_shared_with_the_pool_and_judged_as_inline(
    sharing: IfevalVerifier, verifier: IfevalVerifier
) -> None:
    batch = mixed_batch(42)  # whole chunks of 3: any chunk the worker takes has 3 items
    before = sharing.shared_items
    shared = await sharing.verify_batch(batch)
    assert sharing.shared_items > before  # the worker took chunks of it
    assert sharing.shared_items + sharing.inline_items >= before + len(batch)
    inline_before = verifier.inline_items
    alone = [await verifier.verify_batch([one]) for one in batch]  # one by one: on the thread
    assert verifier.inline_items == inline_before + len(batch)
    assert [r.id for r in shared] == [str(n) for n in range(len(batch))]
    for ours, (reference,) in zip(shared, alone, strict=True):
        assert (ours.status, ours.reward, ours.detail) == (
            reference.status,
            reference.reward,
            reference.detail,
        )
        assert [(c.id, c.met, c.why) for c in ours.constraints] == [
            (c.id, c.met, c.why) for c in reference.constraints
        ]
    assert {r.status for r in shared} >= {Status.passed, Status.failed}


async def test_a_small_batch_stays_on_the_thread(sharing: IfevalVerifier) -> None:
    before, inline_before = sharing.shared_items, sharing.inline_items
    results = await sharing.verify_batch(mixed_batch(7))  # under share_min_items
    assert sharing.shared_items == before
    assert sharing.inline_items == inline_before + 7
    assert len(results) == 7


async def test_a_shared_batch_keeps_its_long_items_in_their_own_tasks(
    sharing: IfevalVerifier,
) -> None:
    pooled_before = sharing.pooled_items
    long_item = item("The sea is calm. " * 1000, SENTENCES, id="long")
    batch = [*mixed_batch(12), long_item]
    results = await sharing.verify_batch(batch)
    assert sharing.pooled_items == pooled_before + 1
    assert results[-1].id == "long" and results[-1].status is Status.passed
    assert results[-1].constraints[0].why.startswith("1000 sentences")
    health = sharing.health()
    assert health.ok and health.stats["shared_items"] > 0
