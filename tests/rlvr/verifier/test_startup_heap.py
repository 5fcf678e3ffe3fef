"""The service's start-up heap is frozen out of the garbage collector once every domain is open:
each full collection would otherwise walk SymPy's, NLTK's and langdetect's tables (measured
~160 ms a collection under /ifeval load, every ~0.7 s)."""

from __future__ import annotations

import gc
import time

from rlvr.verifier.app import create_app
from rlvr.verifier.settings import VerifierSettings


def _full_collection_s() -> float:
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        gc.collect()
        best = min(best, time.perf_counter() - started)
    return best


async def test_the_start_up_heap_is_out_of_the_collectors_view() -> None:
    gc.unfreeze()
    app = create_app(VerifierSettings(code={"is_enabled": False}))
    try:
        async with app.router.lifespan_context(app):
            assert gc.get_freeze_count() > 100_000  # the domains' objects, not a handful
            frozen_s = _full_collection_s()
            gc.unfreeze()
            assert frozen_s * 3 < _full_collection_s()
    finally:
        gc.unfreeze()
