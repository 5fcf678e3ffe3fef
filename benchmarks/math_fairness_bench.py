"""Fairness across concurrent `/math` batches: a small batch's latency while a big one runs.

    .venv/bin/python -m benchmarks.math_fairness_bench [--workers 2] [--big 24] [--deadline 1.0]

The real `MathVerifier` and its killable worker pool, in process (no HTTP: the measure is the
scheduling). A big batch of slow wrong answers (each runs to its deadline) is sent, and while it
runs, small batches of two quick SymPy items are sent one after another; their latency is
measured under the round-robin share (`fair.py`, the default), under the pool's own first-in,
first-out order (the behaviour before; measured in the same run), and with no big batch at all.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from rlvr.schemas.math import MathItem
from rlvr.verifier.domains.math.config import MathSettings
from rlvr.verifier.domains.math.fair import FairShare
from rlvr.verifier.domains.math.verifier import MathVerifier, open_math_verifier

SMALL = [
    MathItem(response="\\boxed{(1+x)^3}", answer="(x+1)^3"),
    MathItem(response="\\boxed{2\\sqrt{2}}", answer="\\sqrt{8}"),
]


def big_batch(n: int, deadline_s: float, salt: int) -> list[MathItem]:
    """Wrong answers slow to check (expanding a 4-variable power), distinct per run."""
    return [
        MathItem(
            response=f"\\boxed{{(x+y+z+2w)^{{{20 + k}}} + {salt}}}",
            answer=f"(x+y+z+w)^{{{20 + k}}} + {salt}",
            timeout_s=deadline_s,
        )
        for k in range(n)
    ]


async def small_latencies(verifier: MathVerifier, rounds: int) -> list[float]:
    latencies = []
    for _ in range(rounds):
        started = time.perf_counter()
        results = await verifier.verify_batch(SMALL)
        latencies.append(time.perf_counter() - started)
        assert all(r.status.value == "passed" for r in results), results
        await asyncio.sleep(0.2)
    return latencies


async def scenario(
    verifier: MathVerifier, big: list[MathItem] | None, rounds: int
) -> tuple[list[float], float]:
    """Small-batch latencies (and the big batch's own time) with `big` in flight, if given."""
    if big is None:
        return await small_latencies(verifier, rounds), 0.0
    started = time.perf_counter()
    running = asyncio.create_task(verifier.verify_batch(big))
    await asyncio.sleep(0.5)  # the big batch holds the workers
    latencies = await small_latencies(verifier, rounds)
    await running
    return latencies, time.perf_counter() - started


def fmt(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:,.0f} / {max(values) * 1000:,.0f}"


async def main_async(args: Any) -> None:
    settings = MathSettings(workers=args.workers, cache_size=0, quick_attempt_s=0)
    async with open_math_verifier(settings) as verifier:
        fair_share = verifier.share
        rows: list[tuple[str, list[float], float]] = []
        idle, _ = await scenario(verifier, None, args.rounds)
        rows.append(("no big batch (idle)", idle, 0.0))
        big = big_batch(args.big, args.deadline, 1)
        fair, fair_big_s = await scenario(verifier, big, args.rounds)
        rows.append(("big batch in flight, round-robin share (default)", fair, fair_big_s))
        verifier.share = FairShare(10**9)  # every task handed to pebble at once: its FIFO order
        fifo, fifo_big_s = await scenario(verifier, big_batch(args.big, args.deadline, 2), 1)
        rows.append(("big batch in flight, pool FIFO (before)", fifo, fifo_big_s))
        verifier.share = fair_share
    print(
        f"\nworkers={args.workers}, big batch {args.big} items x {args.deadline:g} s deadline, "
        f"small batch {len(SMALL)} items\n"
    )
    print("| scenario | small batches | small batch p50 / max ms | big batch s |")
    print("| --- | --- | --- | --- |")
    for name, latencies, big_s in rows:
        big_text = f"{big_s:.1f}" if big_s else "-"
        print(f"| {name} | {len(latencies)} | {fmt(latencies)} | {big_text} |")
    ratio = statistics.median(fifo) / statistics.median(fair)
    print(f"\nsmall-batch latency, FIFO / round-robin: {ratio:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--big", type=int, default=24, help="items in the big batch")
    parser.add_argument("--deadline", type=float, default=1.0, help="each big item's timeout_s")
    parser.add_argument("--rounds", type=int, default=4, help="small batches sent per scenario")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
