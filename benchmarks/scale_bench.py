"""Scale-out: throughput against the number of replicas R, one GRPO step's batch, the Ray Serve hop,
and the endpoint-list client, side by side in one run.

    .venv/bin/python -m benchmarks.scale_bench                 # R = 1, 2 (uvicorn) + Ray Serve
    .venv/bin/python -m benchmarks.scale_bench --replicas 1 2 4 8 --no-ray   # a bigger machine

Replicas: R independent `rlvr-verifier` processes, replica r pinned to CPU r (`taskset`, and its
sandbox container through Docker's cpuset), each with one math worker and a one-container
sandbox pool, and the endpoint-list client spreading chunks over them. Scaling efficiency is
T(R) / (R * T(1)).
Math items are all distinct (no verdict cache hits): integers, fractions and expressions that
need SymPy. Code items carry 8 `call` tests of a small function. The Serve hop: the same R = 1
replica behind a one-node Ray Serve proxy against direct uvicorn (neither pinned). The
endpoint-list path: one service reached through two URLs (127.0.0.1 and 127.1) against one.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rlvr.client import AsyncVerifierClient  # noqa: E402
from rlvr.verifier.testing import free_port, live_service  # noqa: E402
from rlvr.verifier.testing.ray_cluster import ray_cluster  # noqa: E402

DEPLOY = [sys.executable, "-m", "rlvr.verifier.cli", "serve", "--ray", "--ray-address"]
REPLICA_ENV = {
    "VERIFIER_MATH__WORKERS": "1",
    "VERIFIER_CODE__POOL_SIZE": "1",
    "VERIFIER_LEAN__MAX_REPLS": "1",
}
ADD_TESTS = [
    {"kind": "call", "fn": "add", "args": [i, i + 1], "expected": 2 * i + 1} for i in range(8)
]


def math_items(n: int, rng: random.Random) -> list[dict[str, Any]]:
    """Distinct items: 60 % integers (fast path), 25 % fractions, 15 % expressions (SymPy)."""
    items = []
    for _ in range(n):
        k = rng.randint(1, 10**9)
        roll = rng.random()
        if roll < 0.60:
            items.append({"response": f"so \\boxed{{{k}}}", "answer": str(k)})
        elif roll < 0.85:
            items.append({"response": f"\\boxed{{\\frac{{{k}}}{{7}}}}", "answer": f"{k}/7"})
        else:
            items.append({"response": f"\\boxed{{(x+{k})^2}}", "answer": f"x^2+{2 * k}x+{k * k}"})
    return items


def code_items(n: int, rng: random.Random) -> list[dict[str, Any]]:
    return [
        {"code": f"def add(a, b):\n    return a + b  # {rng.random()}\n", "tests": ADD_TESTS}
        for _ in range(n)
    ]


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def math_served(url: str) -> float:
    text = httpx.get(url + "/metrics", timeout=10).text
    pattern = r'^rlvr_items_total\{endpoint="(?:math|verify)",status="[a-z_]+"\} ([0-9.e+]+)$'
    return sum(float(v) for v in re.findall(pattern, text, flags=re.MULTILINE))


async def timed(urls: Sequence[str], kind: str, items: list[dict[str, Any]]) -> float:
    async with AsyncVerifierClient(list(urls), chunk_size=64, max_concurrency=16) as client:
        started = time.perf_counter()
        calls: dict[str, Callable[..., Awaitable[list[Any]]]] = {
            "math": client.math,
            "code": client.code,
            "verify": client.verify,
        }
        call = calls[kind]
        results = await call(items)
        elapsed = time.perf_counter() - started
    errors = sum(r.status.value == "error" for r in results)
    if errors:
        raise RuntimeError(f"{errors} verifier errors in a {kind} batch")
    return elapsed


@contextmanager
def pinned_replicas(count: int) -> Iterator[list[str]]:
    cpus = os.cpu_count() or 1
    with ExitStack() as stack:
        urls = []
        for replica in range(count):
            core = {"VERIFIER_CODE__SANDBOX__CPUSET_CPUS": str(replica % cpus)}
            service = stack.enter_context(live_service({**REPLICA_ENV, **core}))
            subprocess.run(
                ["taskset", "-a", "-p", "-c", str(replica % cpus), str(service.process.pid)],
                check=True,
                capture_output=True,
            )
            for child in _descendants(service.process.pid):  # its math workers
                subprocess.run(
                    ["taskset", "-a", "-p", "-c", str(replica % cpus), str(child)],
                    capture_output=True,
                )
            urls.append(service.url)
        yield urls


def _descendants(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True)
    children = [int(p) for p in out.stdout.split()]
    return children + [d for c in children for d in _descendants(c)]


def throughput_row(urls: list[str], args: argparse.Namespace, rng: random.Random) -> dict:
    before = [math_served(u) for u in urls]
    math_n, code_n = args.math_items, args.code_items
    asyncio.run(timed(urls, "math", math_items(256, rng)))  # warm-up
    math_s = asyncio.run(timed(urls, "math", math_items(math_n, rng)))
    code_s = asyncio.run(timed(urls, "code", code_items(code_n, rng)))
    mixed = [{"domain": "math", **m} for m in math_items(3 * code_n, rng)] + [
        {"domain": "code", **c} for c in code_items(code_n, rng)
    ]
    rng.shuffle(mixed)
    mixed_s = asyncio.run(timed(urls, "verify", mixed))
    served = [math_served(u) - b for u, b in zip(urls, before, strict=True)]
    steps: dict[int, list[float]] = {}
    for size in args.step_batches:
        steps[size] = [
            asyncio.run(timed(urls, "math", math_items(size, rng)))
            for _ in range(args.step_repeats)
        ]
    return {
        "R": len(urls),
        "math": math_n / math_s,
        "code": code_n * len(ADD_TESTS) / code_s,
        "mixed": len(mixed) / mixed_s,
        "spread": [round(s / max(sum(served), 1), 3) for s in served],
        "steps": steps,
    }


@contextmanager
def serve_replica() -> Iterator[str]:
    """A one-node Ray cluster with one replica, its proxy on a free loopback port."""
    with (
        tempfile.TemporaryDirectory() as tmp,
        ray_cluster(
            "unix:///var/run/docker.sock", Path(tmp), '{"rlvr_docker": 1}', num_cpus=1
        ) as cluster,
    ):
        port = free_port()
        env = {
            **os.environ,
            **REPLICA_ENV,
            "VERIFIER_RAY__NUM_REPLICAS": "1",
            "VERIFIER_RAY__NUM_CPUS_PER_REPLICA": "1",
            "VERIFIER_RAY__HTTP_PORT": str(port),
        }
        deployer = subprocess.Popen(
            [*DEPLOY, cluster.address],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 300
        while True:
            try:
                if httpx.get(url + "/health", timeout=3).json()["domains"]["code"]["ok"]:
                    break
            except (httpx.HTTPError, KeyError, ValueError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("Ray Serve did not come up")
            time.sleep(1)
        try:
            yield url
        finally:
            deployer.terminate()
            deployer.wait(timeout=60)


def hop_rows(args: argparse.Namespace, rng: random.Random) -> list[tuple[str, float, float]]:
    """(what, items/s direct, items/s through the other path)."""
    rows = []
    n = args.math_items
    with pinned_replicas(1) as [url]:
        asyncio.run(timed([url], "math", math_items(256, rng)))
        one = asyncio.run(timed([url], "math", math_items(n, rng)))
        alias = url.replace("127.0.0.1", "127.1")  # the same address, another origin
        two = asyncio.run(timed([url, alias], "math", math_items(n, rng)))
        rows.append(("endpoint list (2 URLs, 1 service) vs 1 URL, math", n / one, n / two))
    if args.ray:  # neither side pinned: Ray's own processes need the machine too
        with live_service(REPLICA_ENV) as service:
            asyncio.run(timed([service.url], "math", math_items(256, rng)))
            direct = asyncio.run(timed([service.url], "math", math_items(n, rng)))
            direct_code = asyncio.run(
                timed([service.url], "code", code_items(args.code_items, rng))
            )
        with serve_replica() as serve_url:
            asyncio.run(timed([serve_url], "math", math_items(256, rng)))
            hop = asyncio.run(timed([serve_url], "math", math_items(n, rng)))
            hop_code = asyncio.run(timed([serve_url], "code", code_items(args.code_items, rng)))
        rows.append(("Ray Serve proxy vs direct uvicorn, R=1, math items", n / direct, n / hop))
        tests = args.code_items * len(ADD_TESTS)
        rows.append(
            (
                "Ray Serve proxy vs direct uvicorn, R=1, code tests",
                tests / direct_code,
                tests / hop_code,
            )
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--math-items", type=int, default=4096)
    parser.add_argument("--code-items", type=int, default=64)
    parser.add_argument("--step-batches", type=int, nargs="+", default=[1024, 8192])
    parser.add_argument("--step-repeats", type=int, default=5)
    parser.add_argument("--no-ray", dest="ray", action="store_false")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    rows = []
    for count in args.replicas:
        with pinned_replicas(count) as urls:
            rows.append(throughput_row(urls, args, rng))
    base = rows[0]
    print(f"## Scale-out: {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}\n")
    print("| R | math items/s | eff. | code tests/s | eff. | mixed items/s | eff. | math spread |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        r = row["R"]
        eff = {k: row[k] / (r * base[k] / base["R"]) for k in ("math", "code", "mixed")}
        print(
            f"| {r} | {row['math']:.0f} | {eff['math']:.2f} | {row['code']:.0f} | "
            f"{eff['code']:.2f} | {row['mixed']:.0f} | {eff['mixed']:.2f} | {row['spread']} |"
        )
    print("\n| R | GRPO step batch | p50 s | p99 s |\n|---|---|---|---|")
    for row in rows:
        for size, times in row["steps"].items():
            p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
            print(f"| {row['R']} | {size} | {p50:.2f} | {p99:.2f} |")
    print("\n| path | baseline items/s | this path items/s | cost |\n|---|---|---|---|")
    for what, baseline, other in hop_rows(args, rng):
        print(f"| {what} | {baseline:.0f} | {other:.0f} | {1 - other / baseline:+.1%} |")


if __name__ == "__main__":
    main()
