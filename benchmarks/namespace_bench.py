"""What job namespaces cost: the same `/code` workloads with `JOB_NAMESPACES=off` (the
baseline: jobs share their container's kernel state) and `preferred` (each job in fresh
namespaces), measured in turn in one run, `ROUNDS` times each, and compared by medians.

Workloads (every answer checked): Python items of 3 assert tests (one job per item: the
per-job cost shows most here), C items of 8 stdio tests (per-test cost: runs through the
launcher, started by the job's spawner), and one Python item per request (latency).

    .venv/bin/python -m benchmarks.namespace_bench [--rounds 3] [--items 256] [--pool-size 2]
"""

from __future__ import annotations

import argparse
import statistics
import time

import httpx

from benchmarks.code_bench import language_items, percentile, service_items
from rlvr.verifier.testing import running_service

MODES = ("off", "preferred")


def service_env(mode: str, pool_size: int) -> dict[str, str]:
    return {
        "VERIFIER_CODE__POOL_SIZE": str(pool_size),
        "VERIFIER_LEAN__IS_ENABLED": "false",
        "VERIFIER_CODE__IS_DEDUP_ENABLED": "false",  # every item must run
        "VERIFIER_CODE__CACHE_ITEMS": "0",
        "VERIFIER_CODE__SANDBOX__JOB_NAMESPACES": mode,
    }


def timed_batch(client: httpx.Client, url: str, items: list[dict]) -> float:
    started = time.perf_counter()
    results = client.post(f"{url}/code", json={"items": items}).json()["results"]
    seconds = time.perf_counter() - started
    assert all(r["reward"] == 1.0 for r in results), results[:3]
    return seconds


def one_round(mode: str, items: int, pool_size: int, singles: int) -> dict[str, float]:
    """tests/s of each workload, and the single-item p50 latency in ms, for one mode."""
    with running_service(service_env(mode, pool_size)) as url, httpx.Client(timeout=900) as client:
        stats = client.get(f"{url}/health").json()["domains"]["code"]["stats"]
        assert bool(stats["job_namespaces_live"]) == (mode != "off"), stats
        timed_batch(client, url, service_items(pool_size * 4))  # warm-up
        timed_batch(client, url, language_items("c", pool_size, 8))  # compiles once
        python_s = timed_batch(client, url, service_items(items))
        c_items = max(1, items // 4)
        c_s = timed_batch(client, url, language_items("c", c_items, 8))
        latencies = []
        for _ in range(singles):
            latencies.append(timed_batch(client, url, service_items(1)))
    return {
        "python": items * 3 / python_s,
        "c": c_items * 8 / c_s,
        "single_ms": percentile(latencies, 0.5) * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--items", type=int, default=256, help="Python items per round.")
    parser.add_argument("--pool-size", type=int, default=2)
    parser.add_argument("--singles", type=int, default=50)
    args = parser.parse_args()
    runs: dict[str, list[dict[str, float]]] = {mode: [] for mode in MODES}
    for _ in range(args.rounds):
        for mode in MODES:  # in turn: drift of the machine lands on both
            runs[mode].append(one_round(mode, args.items, args.pool_size, args.singles))

    def median(mode: str, key: str) -> float:
        return statistics.median(run[key] for run in runs[mode])

    print(f"rounds {args.rounds}, pool {args.pool_size}, {args.items} Python items per round")
    print("| workload | namespaces off | job namespaces | ratio (median) |")
    print("|---|---|---|---|")
    for key, label in (
        ("python", "Python, 3 assert tests per item (tests/s)"),
        ("c", "C, 8 stdio tests per item (tests/s)"),
        ("single_ms", "1 Python item per request, p50 (ms)"),
    ):
        off, on = median("off", key), median("preferred", key)
        print(f"| {label} | {off:,.0f} | {on:,.0f} | {on / off:.2f} |")
    for key in ("python", "c", "single_ms"):
        pairs = [
            f"{b[key] / a[key]:.2f}" for a, b in zip(runs["off"], runs["preferred"], strict=True)
        ]
        print(f"per-round ratios {key}: {', '.join(pairs)}")


if __name__ == "__main__":
    main()
