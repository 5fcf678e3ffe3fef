"""Lean's bounded queue against the STAND-IN REPL (`fake_repl.py`, not Lean; an UNSAFE local
process, as in `test_pool.py`): a batch cancelled at any await point, in any of its tasks, gives
back every queue place. Before the shared `Admission`, a batch cancelled right after admission
(its items' tasks not yet started) lost its places until a restart."""

from __future__ import annotations

from rlvr.schemas.common import Status
from tests.rlvr.verifier.domains.lean.support import HONEST, item, lean
from tests.support.await_points import cancel_at_every_await_point


async def test_batch_cancelled_at_every_await_point_gives_back_every_place() -> None:
    # two proofs for Lean, and one the pre-check refuses (it is never admitted)
    refused = item(HONEST + "\nmacro_rules | `(tactic| simp) => `(tactic| rfl)")
    batch = [item(), refused, item()]
    async with lean(max_queue=2, pool_size_per_header=2) as verifier:
        points = await cancel_at_every_await_point(
            lambda: verifier.verify_batch(batch), lambda: verifier.admission.in_flight
        )
        # the places all came back: a batch of exactly the bound is admitted and judged
        results = await verifier.verify_batch(batch)
        stats = verifier.health().stats
    assert points >= 6  # the pre-check thread, gather, and each proof's REPL round trips
    assert [r.status for r in results] == [Status.passed, Status.failed, Status.passed]
    assert stats["in_flight_items"] == 0 and stats["max_queue_items"] == 2
