"""Rewards for 1,024 completions through the TRL adapter over HTTP vs the math verifier in-process.

    .venv/bin/python -m benchmarks.client_bench [--n 1024] [--rounds 3]

Both paths use the same `MathSettings` (same worker count) and fresh answers each round, so no
verdict comes from a cache. The HTTP path is `make_reward_function("math")` (what a TRL trainer
calls) against a live uvicorn service on loopback; the in-process path is
`MathVerifier.verify_batch` on the same items. Prints a table with the overhead ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections import Counter

from rlvr.adapters.trl import make_reward_function
from rlvr.schemas.math import MathItem
from rlvr.verifier.domains.math.config import MathSettings
from rlvr.verifier.domains.math.verifier import open_math_verifier
from rlvr.verifier.testing import running_service


def make_batch(n: int, round_index: int) -> tuple[list[str], list[str]]:
    """`n` completions and ground truths of mixed kinds; about half right. Unique per round."""
    completions, answers = [], []
    for i in range(n):
        k = round_index * 100_000 + i + 2
        right = (i // 4 + round_index) % 2 == 0
        kind = i % 4
        if kind == 0:  # integers
            answer, said = str(k), str(k if right else k + 1)
        elif kind == 1:  # a fraction written two ways
            answer, said = f"\\frac{{1}}{{{k}}}", f"1/{k if right else k + 1}"
        elif kind == 2:  # an expression
            answer, said = f"x^2 + {k}x", f"x({'x' if right else '2x'} + {k})"
        else:  # a decimal against a fraction
            answer, said = f"\\frac{{{k}}}{{4}}", str(k / 4 if right else k / 4 + 0.5)
        completions.append(
            f"Let me think about it step by step. So the answer is \\boxed{{{said}}}."
        )
        answers.append(answer)
    return completions, answers


Batch = tuple[list[str], list[str]]


async def measure(
    settings: MathSettings,
    url: str,
    local_batches: list[Batch],
    http_batches: list[Batch],
    chunk_size: int,
) -> tuple[dict[str, list[float]], Counter[str], Counter[str]]:
    """Alternate in-process and HTTP rounds so load drift hits both paths alike.

    Each round also re-sends its batch: the verdicts then come from the verifier's cache, so
    that time is the fixed cost of each path (for HTTP: encoding, transport, parsing).
    """
    reward = make_reward_function("math", base_url=url, chunk_size=chunk_size)
    times: dict[str, list[float]] = {"local": [], "http": [], "local_cached": [], "http_cached": []}
    local_statuses: Counter[str] = Counter()
    http_statuses: Counter[str] = Counter()

    def count_http(name: str, count: float) -> None:
        http_statuses[name.split("/")[-1]] += int(count)

    async with open_math_verifier(settings) as verifier:

        async def local(batch: Batch) -> None:
            items = [MathItem(response=c, answer=a) for c, a in zip(*batch, strict=True)]
            results = await verifier.verify_batch(items)
            local_statuses.update(r.status.value for r in results)

        async def http(batch: Batch) -> None:
            completions, answers = batch
            prompts = ["p"] * len(completions)
            await reward(prompts, completions, answer=answers, log_metric=count_http)

        await local((["\\boxed{1}"], ["1"]))  # warm up both paths
        await http((["\\boxed{1}"], ["1"]))
        local_statuses.clear()
        http_statuses.clear()
        for local_batch, http_batch in zip(local_batches, http_batches, strict=True):
            for name, run, batch in (("local", local, local_batch), ("http", http, http_batch)):
                for key in (name, f"{name}_cached"):
                    before = (Counter(local_statuses), Counter(http_statuses))
                    started = time.perf_counter()
                    await run(batch)
                    times[key].append(time.perf_counter() - started)
                    if key.endswith("_cached"):  # count each verdict once
                        local_statuses, http_statuses = before
    return times, local_statuses, http_statuses


def _row(name: str, times: list[float], n: int, baseline: float | None) -> str:
    median = statistics.median(times)
    ratio = f"{median / baseline:.3f}" if baseline else "1.000"
    return f"| {name} | {median:.3f} | {min(times):.3f} | {n / median:,.0f} | {ratio} |"


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1024, help="completions per batch")
    parser.add_argument("--rounds", type=int, default=3, help="batches per path (median reported)")
    parser.add_argument("--workers", type=int, default=2, help="math worker processes (both paths)")
    parser.add_argument("--chunk-size", type=int, default=64, help="client chunk size")
    parser.add_argument("--timeout-s", type=float, default=10.0, help="per-item deadline (both)")
    args = parser.parse_args(argv)

    # A generous per-item deadline: under load, items at the tail of a 1,024-item batch would
    # otherwise time out, and the two paths would not do the same work.
    settings = MathSettings(workers=args.workers, default_timeout_s=args.timeout_s)
    # Separate rounds for each path so neither sees answers the other already cached.
    local_batches = [make_batch(args.n, r) for r in range(args.rounds)]
    http_batches = [make_batch(args.n, 1000 + r) for r in range(args.rounds)]
    load_before = _load()
    env = {
        "VERIFIER_CODE__IS_ENABLED": "false",
        "VERIFIER_MATH__WORKERS": str(args.workers),
        "VERIFIER_MATH__DEFAULT_TIMEOUT_S": str(args.timeout_s),
    }
    with running_service(env) as url:
        times, local_statuses, http_statuses = asyncio.run(
            measure(settings, url, local_batches, http_batches, args.chunk_size)
        )

    baseline = statistics.median(times["local"])
    cached_baseline = statistics.median(times["local_cached"])
    print(
        f"n={args.n} completions/batch, rounds={args.rounds}, math workers={args.workers}, "
        f"item deadline={args.timeout_s}s, chunk size={args.chunk_size}, cpus={os.cpu_count()}, "
        f"loadavg before={load_before} after={_load()}"
    )
    print(f"verdicts (all rounds, uncached) in-process: {dict(local_statuses)}")
    print(f"verdicts (all rounds, uncached) over HTTP:   {dict(http_statuses)}")
    print("| path | median s | best s | completions/s | ratio to in-process |")
    print("| --- | --- | --- | --- | --- |")
    print(_row("in-process `MathVerifier.verify_batch` (baseline)", times["local"], args.n, None))
    print(_row("TRL `math_reward` → HTTP → service", times["http"], args.n, baseline))
    print(_row("in-process, verdicts cached (fixed cost)", times["local_cached"], args.n, None))
    print(_row("HTTP, verdicts cached (fixed cost)", times["http_cached"], args.n, cached_baseline))


if __name__ == "__main__":
    main()
