"""Tool calls for agentic RL: `POST /run_code` against SandboxFusion's default execution and
`docker run`, side by side in one run, at 1, 64 and 256 calls in flight.

Workload: a trivial program (`print(sum(range(10)))`), every answer checked (`45`). Each path
runs `calls` calls with `concurrency` of them in flight at once (a worker per slot, each sending
its next call when its last one answered); latency is one call's own time, from sending it to
its answer. Paths:

- **subprocess**: what SandboxFusion's `isolation: none` does per call: the code written to a
  fresh temp dir as `file.py`, `python3 file.py` started there with an address-space rlimit
  (`memory_limit_MB`, 1024 as verl sends), stdout captured; no HTTP in front of it (a lower
  bound of SandboxFusion's own latency: its server, its request parsing are not counted).
- **docker run**: a fresh container per call (`docker run --rm -i --network none --memory`,
  the sandbox image), the other common way to isolate one call.
- **rlvr /run_code**: the live service (uvicorn, a pool of warm locked-down containers) over
  HTTP, SandboxFusion's request, from one asyncio client (aiohttp, one connection per slot:
  the lightest load generator at hand, since it shares the cores with the service; httpx costs
  about 2.6 ms of CPU per call here, as much as the service's own handling).

All three share this machine's cores with the client; `docker run` is bounded by the engine, so
at most `--docker-calls` calls are run per level (fewer calls than slots: the row says so).

    .venv/bin/python -m benchmarks.tool_bench [--levels 1,64,256] [--pool-size CPUS]
        [--calls 4] [--docker-calls 64]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import aiohttp

from rlvr.verifier.testing import running_service

PROGRAM = "print(sum(range(10)))\n"
EXPECTED = "45\n"
IMAGE = os.environ.get("VERIFIER_CODE__SANDBOX__IMAGE", "rlvr-sandbox:latest")
MEMORY_LIMIT_MB = 1024  # what verl sends by default
# SandboxFusion's image runs its own python3; here the system one (no venv site-packages).
PYTHON = shutil.which("python3", path="/usr/bin:/bin") or sys.executable


@dataclass
class Row:
    path: str
    concurrency: int
    calls: int
    seconds: float
    latencies_s: list[float]

    @property
    def rate(self) -> float:
        return self.calls / self.seconds

    def percentile_ms(self, q: float) -> float:
        ordered = sorted(self.latencies_s)
        return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(
    path: str, call: Callable[[], Awaitable[None]], concurrency: int, calls: int
) -> Row:
    """`calls` calls, `concurrency` in flight at once; each call's latency and the wall time."""
    latencies: list[float] = []
    next_call = 0

    async def worker() -> None:
        nonlocal next_call
        while next_call < calls:
            next_call += 1
            sent = time.perf_counter()
            await call()
            latencies.append(time.perf_counter() - sent)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(min(concurrency, calls))))
    return Row(path, concurrency, calls, time.perf_counter() - started, latencies)


# ---------------------------------------------------------------- the paths


def _limit_memory() -> None:
    limit = MEMORY_LIMIT_MB << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


async def subprocess_call() -> None:
    """SandboxFusion's `isolation: none`: `python3 file.py` in a fresh dir, rlimited."""
    with tempfile.TemporaryDirectory(prefix="sf-") as work:
        with open(os.path.join(work, "file.py"), "w") as handle:
            handle.write(PROGRAM)
        process = await asyncio.create_subprocess_exec(
            PYTHON,
            "file.py",
            cwd=work,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            preexec_fn=_limit_memory,
        )
        stdout, _ = await process.communicate()
    assert process.returncode == 0 and stdout.decode() == EXPECTED, stdout


async def docker_call() -> None:
    process = await asyncio.create_subprocess_exec(
        "docker",
        "run",
        "--rm",
        "-i",
        "--network",
        "none",
        "--memory",
        f"{MEMORY_LIMIT_MB}m",
        IMAGE,
        "python3",
        "-c",
        PROGRAM,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await process.communicate()
    assert process.returncode == 0 and stdout.decode() == EXPECTED, stderr[-500:]


def run_code_call(client: aiohttp.ClientSession, url: str) -> Callable[[], Awaitable[None]]:
    body: dict[str, object] = {
        "code": PROGRAM,
        "language": "python",
        "stdin": None,
        "run_timeout": 10,
        "compile_timeout": 10,
        "memory_limit_MB": MEMORY_LIMIT_MB,
        "files": {},
        "fetch_files": [],
    }

    async def call() -> None:
        async with client.post(f"{url}/run_code", json=body) as response:
            answer = await response.json()
            assert response.status == 200 and answer["status"] == "Success", answer
            assert answer["run_result"]["stdout"] == EXPECTED, answer

    return call


# ---------------------------------------------------------------- the run


async def bench(url: str, levels: list[int], calls_per_slot: int, docker_calls: int) -> list[Row]:
    rows: list[Row] = []
    connector = aiohttp.TCPConnector(limit=max(levels) + 8)
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as client:
        ours = run_code_call(client, url)
        await measure("warm-up", ours, 8, 64)
        await measure("warm-up", subprocess_call, 2, 8)
        for level in levels:
            # the subprocess baseline and ours, in turn, at this level; docker last
            calls = max(100, calls_per_slot * level)
            rows.append(await measure("subprocess", subprocess_call, level, max(50, calls // 2)))
            rows.append(await measure("rlvr /run_code", ours, level, calls))
            if docker_calls > 0:
                count = min(docker_calls, max(8, level))
                rows.append(await measure("docker run", docker_call, level, count))
    return rows


def print_table(rows: list[Row], pool_size: int) -> None:
    header = (
        f"{'path':<34} {'in flight':>9} {'calls':>6} {'calls/s':>8} "
        f"{'vs subprocess':>13} {'p50 ms':>8} {'p99 ms':>8}"
    )
    print(header)
    baseline = {r.concurrency: r.rate for r in rows if r.path == "subprocess"}
    for row in rows:
        in_flight = min(row.concurrency, row.calls)
        name = row.path if row.path != "rlvr /run_code" else f"rlvr /run_code (pool {pool_size})"
        if in_flight < row.concurrency:
            name += f" ({in_flight} at once)"
        ratio = row.rate / baseline[row.concurrency] if row.concurrency in baseline else 0.0
        print(
            f"{name:<34} {row.concurrency:>9} {row.calls:>6} {row.rate:>8.1f} "
            f"{ratio:>12.2f}x {row.percentile_ms(0.5):>8.1f} {row.percentile_ms(0.99):>8.1f}"
        )
    print(f"subprocess: {PYTHON} file.py, RLIMIT_AS {MEMORY_LIMIT_MB} MB; image {IMAGE}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="1,64,256", help="calls in flight, comma-separated")
    parser.add_argument("--pool-size", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--calls", type=int, default=4, help="calls per slot (at least 100)")
    parser.add_argument(
        "--docker-calls", type=int, default=64, help="most `docker run` calls per level (0: none)"
    )
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",") if x]
    env = {
        "VERIFIER_CODE__POOL_SIZE": str(args.pool_size),
        "VERIFIER_LEAN__IS_ENABLED": "false",
        "VERIFIER_LOG_LEVEL": "warning",
    }
    with running_service(env) as url:
        rows = asyncio.run(bench(url, levels, args.calls, args.docker_calls))
    print_table(rows, args.pool_size)


if __name__ == "__main__":
    main()
