"""`/code`'s bounded queue with a real Docker sandbox pool: a batch cancelled at any await point,
in any of its tasks (host threads, pool acquire, the container's round trip), gives back every
queue place, and the pool still judges the next batch."""

from __future__ import annotations

import pytest

from rlvr.schemas.code import CodeItem
from rlvr.schemas.common import Status
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.code.verifier import open_code_verifier
from tests.support.await_points import cancel_at_every_await_point

pytestmark = [pytest.mark.docker]

RUNS = CodeItem.model_validate(
    {
        "id": "runs",
        "code": "def add(a, b):\n    return a + b\n",
        "tests": [{"kind": "call", "fn": "add", "args": [1, 2], "expected": 3}],
    }
)
NO_CODE = CodeItem.model_validate(
    {"id": "no-code", "response": "no program here", "tests": [{"kind": "assert", "code": "1"}]}
)


async def test_batch_cancelled_at_every_await_point_gives_back_every_place(
    docker_engine: None,
) -> None:
    batch = [RUNS, NO_CODE]
    settings = CodeSettings.model_validate(
        {"pool_size": 1, "max_queue_items": len(batch), "sandbox": {"label": "admission-test"}}
    )
    async with open_code_verifier(settings) as verifier:
        points = await cancel_at_every_await_point(
            lambda: verifier.verify_batch(batch), lambda: verifier.admission.in_flight
        )
        # the places all came back: a batch of exactly the bound is admitted and judged
        results = await verifier.verify_batch(batch)
        stats = verifier.health().stats
    assert points >= 4  # the host threads, gather, the sandbox pool and its round trip
    assert [(r.status, r.reward) for r in results] == [(Status.passed, 1.0), (Status.failed, 0.0)]
    assert stats["in_flight_items"] == 0 and stats["max_queue_items"] == len(batch)
