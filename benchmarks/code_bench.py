"""Code execution throughput, side by side in one run: `docker run` per test, a bare
`python3 -I -S -c` subprocess per test (no isolation, for reference), and our service over HTTP.

Workload: a trivial function with 3 assert tests per item (`add`). Every path checks its answers.

    .venv/bin/python -m benchmarks.code_bench [--items 768] [--pool-size CPUS] [--docker-tests 20]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import httpx

from tests.support.server import running_service

CODE = "def add(a, b):\n    return a + b\n"
TESTS = ["assert add(1, 2) == 3", "assert add(-1, 1) == 0", "assert add(10, 5) == 15"]
IMAGE = "rlvr-sandbox:latest"


@dataclass
class Row:
    name: str
    tests: int
    seconds: float
    p50_item_s: float | None = None
    p99_item_s: float | None = None

    @property
    def rate(self) -> float:
        return self.tests / self.seconds


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_tests_with(command: list[str], count: int, workers: int) -> float:
    """Seconds to run `count` tests, each `command + [program]`, with `workers` at a time."""

    def one(index: int) -> None:
        program = CODE + TESTS[index % len(TESTS)]
        done = subprocess.run([*command, program], capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr

    started = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(one, range(count)))
    return time.perf_counter() - started


def bench_docker_run(count: int) -> Row:
    command = ["docker", "run", "--rm", "-i", "--network", "none", IMAGE, "python3", "-I", "-S"]
    seconds = run_tests_with([*command, "-c"], count, workers=2)
    return Row("docker run per test (2 at a time)", count, seconds)


def bench_bare(count: int) -> list[Row]:
    rows = []
    for workers in (1, os.cpu_count() or 2):
        seconds = run_tests_with(["python3", "-I", "-S", "-c"], count, workers)
        rows.append(Row(f"bare python3 -I -S subprocess ({workers} at a time)", count, seconds))
    return rows


def service_items(count: int) -> list[dict]:
    return [
        {"id": str(i), "code": CODE, "tests": [{"kind": "assert", "code": t} for t in TESTS]}
        for i in range(count)
    ]


def bench_service(items: int, batch: int, pool_size: int, singles: int) -> list[Row]:
    env = {
        "VERIFIER_CODE__POOL_SIZE": str(pool_size),
        "VERIFIER_LEAN__IS_ENABLED": "false",
        # every item is the same program: each must run (dedup is measured by code_dedup_bench)
        "VERIFIER_CODE__IS_DEDUP_ENABLED": "false",
        "VERIFIER_CODE__CACHE_ITEMS": "0",
    }
    with running_service(env) as url, httpx.Client(timeout=600) as client:
        client.post(f"{url}/code", json={"items": service_items(pool_size * 4)})  # warm-up
        latencies: list[float] = []
        started = time.perf_counter()
        for offset in range(0, items, batch):
            body = {"items": service_items(min(batch, items - offset))}
            results = client.post(f"{url}/code", json=body).json()["results"]
            assert all(r["reward"] == 1.0 for r in results), results[:3]
            latencies += [r["elapsed_s"] for r in results]
        seconds = time.perf_counter() - started
        batched = Row(
            f"rlvr /code over HTTP (pool {pool_size}, batches of {batch})",
            items * len(TESTS),
            seconds,
            percentile(latencies, 0.5),
            percentile(latencies, 0.99),
        )
        # one item per request, one request at a time: the latency of an item with no queue
        round_trips: list[float] = []
        for _ in range(singles):
            sent = time.perf_counter()
            (result,) = client.post(f"{url}/code", json={"items": service_items(1)}).json()[
                "results"
            ]
            round_trips.append(time.perf_counter() - sent)
            assert result["reward"] == 1.0, result
        single = Row(
            "rlvr /code over HTTP (1 item per request, sequential)",
            singles * len(TESTS),
            sum(round_trips),
            percentile(round_trips, 0.5),
            percentile(round_trips, 0.99),
        )
    return [batched, single]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=768, help="Items sent to the service.")
    parser.add_argument("--batch", type=int, default=256, help="Items per request.")
    parser.add_argument(
        "--pool-size", type=int, default=os.cpu_count() or 2, help="Sandbox containers."
    )
    parser.add_argument("--bare-tests", type=int, default=300, help="Bare subprocess tests.")
    parser.add_argument("--docker-tests", type=int, default=20, help="`docker run` tests.")
    parser.add_argument("--singles", type=int, default=100, help="One-item requests timed.")
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()}")
    rows = [bench_docker_run(args.docker_tests), *bench_bare(args.bare_tests)]
    rows += bench_service(args.items, args.batch, args.pool_size, args.singles)
    print(f"load after: {os.getloadavg()}")
    docker_rate = rows[0].rate
    bare_rate = max(row.rate for row in rows[1:3])
    header = f"{'path':58} {'tests':>6} {'tests/s':>8} {'vs docker':>9} {'vs bare':>8}"
    print(header + f" {'p50 item':>9} {'p99 item':>9}")
    for row in rows:
        p50 = f"{row.p50_item_s * 1000:.0f} ms" if row.p50_item_s is not None else "-"
        p99 = f"{row.p99_item_s * 1000:.0f} ms" if row.p99_item_s is not None else "-"
        print(
            f"{row.name:58} {row.tests:>6} {row.rate:>8.1f} {row.rate / docker_rate:>8.1f}x "
            f"{row.rate / bare_rate:>7.2f}x {p50:>9} {p99:>9}"
        )
    print(
        "p50/p99 item: batched = the service's elapsed_s per item (waiting for a sandbox + 3 "
        "tests); 1 item per request = HTTP round trip"
    )


if __name__ == "__main__":
    main()
