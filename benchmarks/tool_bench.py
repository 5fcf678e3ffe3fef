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

**Sessions** (`/sessions`), at each of `--session-levels` live sessions: the cost of opening
them (all at once, 32 opens in flight), a trivial cell (`n = n + 1; n`, its value checked) in
every session with all of them in flight (closed loop: throughput-bound, so the latency is
sessions / cells per second), the same cells *paced* as a rollout sends them (each session one
cell every `--think-s` seconds, with jitter: the latency a tool call sees at that many live
sessions), the memory of the idle sessions (the session containers' memory cgroups, and the PSS
of their processes, minus the same at no session), and the cost of closing them.

    .venv/bin/python -m benchmarks.tool_bench [--levels 1,64,256] [--pool-size CPUS]
        [--calls 4] [--docker-calls 64] [--session-levels 1,64,256,1024] [--cells 4]
        [--think-s 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import aiohttp
import docker

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
    # idle connections dropped before the server's keep-alive (5 s) closes them: a request sent
    # on one the server is closing that instant fails (`ServerDisconnectedError`, seen once)
    connector = aiohttp.TCPConnector(limit=max(levels) + 8, keepalive_timeout=2)
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


# ---------------------------------------------------------------- sessions

SESSION_CELL = "n = n + 1\nn"
_OPENS_IN_FLIGHT = 32


@dataclass
class SessionLevel:
    sessions: int
    open_s: list[float]
    close_s: list[float]
    cells: Row
    paced: Row | None
    memory_mb: float  # the session containers' memory cgroups, less the empty containers'
    pss_mb: float  # the PSS of their processes, less the same
    processes: int
    refused_past_limit: int | None  # HTTP status of one open past the host's limit


async def _bounded(count: int, limit: int, call: Callable[[int], Awaitable[None]]) -> None:
    next_index = 0

    async def worker() -> None:
        nonlocal next_index
        while next_index < count:
            index = next_index
            next_index += 1
            await call(index)

    await asyncio.gather(*(worker() for _ in range(min(limit, count))))


async def open_sessions(client: aiohttp.ClientSession, url: str, count: int) -> list[float]:
    """Open `count` sessions (each with `n = 0`); their ids in `OPENED`, each open's seconds."""
    seconds: list[float] = []

    async def one(_: int) -> None:
        sent = time.perf_counter()
        async with client.post(f"{url}/sessions", json={"setup_code": "n = 0"}) as response:
            answer = await response.json()
        seconds.append(time.perf_counter() - sent)
        assert response.status == 200 and answer["setup"]["status"] == "ok", answer
        OPENED.append(answer["session_id"])

    await _bounded(count, _OPENS_IN_FLIGHT, one)
    return seconds


OPENED: list[str] = []


async def close_sessions(client: aiohttp.ClientSession, url: str) -> list[float]:
    seconds: list[float] = []
    ids = list(OPENED)
    OPENED.clear()

    async def one(index: int) -> None:
        sent = time.perf_counter()
        async with client.delete(f"{url}/sessions/{ids[index]}") as response:
            answer = await response.json()
        seconds.append(time.perf_counter() - sent)
        assert response.status == 200 and answer["closed"], answer

    await _bounded(len(ids), _OPENS_IN_FLIGHT, one)
    return seconds


async def _cell(client: aiohttp.ClientSession, url: str, sid: str, expected: int) -> float:
    sent = time.perf_counter()
    async with client.post(f"{url}/sessions/{sid}/run", json={"code": SESSION_CELL}) as response:
        answer = await response.json()
    assert response.status == 200 and answer["value"] == str(expected), answer
    return time.perf_counter() - sent


async def closed_loop_cells(
    client: aiohttp.ClientSession, url: str, cells: int, done: dict[str, int]
) -> Row:
    """Every session runs `cells` cells back to back, all sessions at once."""
    latencies: list[float] = []

    async def session(sid: str) -> None:
        for _ in range(cells):
            done[sid] += 1
            latencies.append(await _cell(client, url, sid, done[sid]))

    started = time.perf_counter()
    await asyncio.gather(*(session(sid) for sid in OPENED))
    return Row("session cells", len(OPENED), len(latencies), time.perf_counter() - started,
               latencies)  # fmt: skip


async def paced_cells(
    client: aiohttp.ClientSession, url: str, think_s: float, rounds: int, done: dict[str, int]
) -> Row:
    """Every session sends a cell, thinks `think_s` (jittered +-50%), `rounds` times."""
    latencies: list[float] = []
    rng = random.Random(0)

    async def session(sid: str) -> None:
        await asyncio.sleep(rng.uniform(0, think_s))
        for _ in range(rounds):
            done[sid] += 1
            latencies.append(await _cell(client, url, sid, done[sid]))
            await asyncio.sleep(think_s * rng.uniform(0.5, 1.5))

    started = time.perf_counter()
    await asyncio.gather(*(session(sid) for sid in OPENED))
    return Row(f"session cells, paced {think_s:g} s", len(OPENED), len(latencies),
               time.perf_counter() - started, latencies)  # fmt: skip


def session_memory() -> tuple[float, float, int]:
    """(memory cgroup MB, PSS MB, processes) of every session container on this engine."""
    cgroup_bytes = pss_kb = processes = 0
    for container in docker.from_env().containers.list(filters={"label": "rlvr.pool=sessions"}):
        for path in (
            f"/sys/fs/cgroup/memory/docker/{container.id}/memory.usage_in_bytes",
            f"/sys/fs/cgroup/system.slice/docker-{container.id}.scope/memory.current",
        ):
            if os.path.exists(path):
                with open(path) as handle:
                    cgroup_bytes += int(handle.read())
                break
        for row in container.top(ps_args="-o pid")["Processes"]:
            processes += 1
            try:
                with open(f"/proc/{row[0]}/smaps_rollup") as handle:
                    for line in handle:
                        if line.startswith("Pss:"):
                            pss_kb += int(line.split()[1])
            except OSError:
                pass
    return cgroup_bytes / 2**20, pss_kb / 1024, processes


async def bench_sessions(
    url: str, levels: list[int], cells: int, think_s: float, max_sessions: int
) -> list[SessionLevel]:
    results: list[SessionLevel] = []
    # kept-alive connections closed before the service closes them (its 5 s): no reuse race
    connector = aiohttp.TCPConnector(limit=max(levels) + 64, keepalive_timeout=2)
    timeout = aiohttp.ClientTimeout(total=600)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as client:
        await open_sessions(client, url, 1)  # the first container
        await close_sessions(client, url)
        for level in levels:
            await asyncio.sleep(2)  # closed sessions' namespaces are gone
            empty_mb, empty_pss, _ = session_memory()
            opens = await open_sessions(client, url, level)
            done = dict.fromkeys(OPENED, 0)
            row = await closed_loop_cells(client, url, cells, done)
            paced = None
            if think_s > 0 and level > 1:
                paced = await paced_cells(client, url, think_s, 3, done)
            await asyncio.sleep(1)
            memory_mb, pss_mb, processes = session_memory()
            refused = None
            if level >= max_sessions:
                async with client.post(f"{url}/sessions", json={}) as response:
                    refused = response.status
            closes = await close_sessions(client, url)
            results.append(
                SessionLevel(
                    level,
                    opens,
                    closes,
                    row,
                    paced,
                    memory_mb - empty_mb,
                    pss_mb - empty_pss,
                    processes,
                    refused,
                )
            )
    return results


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def print_sessions(levels: list[SessionLevel]) -> None:
    print(
        f"{'sessions':>8} {'cells':>6} {'cells/s':>8} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'paced p50':>9} {'paced p99':>9} {'open p50':>8} {'open p99':>8} "
        f"{'close p50':>9} {'MB/session':>10} {'PSS MB/s.':>9} {'procs':>6}"
    )
    for level in levels:
        paced = level.paced
        print(
            f"{level.sessions:>8} {level.cells.calls:>6} {level.cells.rate:>8.1f} "
            f"{level.cells.percentile_ms(0.5):>8.1f} {level.cells.percentile_ms(0.99):>8.1f} "
            f"{paced.percentile_ms(0.5) if paced else 0:>9.1f} "
            f"{paced.percentile_ms(0.99) if paced else 0:>9.1f} "
            f"{_ms(level.open_s, 0.5):>8.1f} {_ms(level.open_s, 0.99):>8.1f} "
            f"{_ms(level.close_s, 0.5):>9.1f} {level.memory_mb / level.sessions:>10.2f} "
            f"{level.pss_mb / level.sessions:>9.2f} {level.processes:>6}"
        )
    for level in levels:
        if level.refused_past_limit is not None:
            print(
                f"{level.sessions} live sessions: session containers {level.memory_mb:.0f} MB "
                f"(PSS {level.pss_mb:.0f} MB); one more open: HTTP {level.refused_past_limit}"
            )
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


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
    # 16 per slot: 1,024 calls at 64 in flight, so the p99 is not the third-slowest of 256
    parser.add_argument("--calls", type=int, default=16, help="calls per slot (at least 100)")
    parser.add_argument(
        "--docker-calls", type=int, default=64, help="most `docker run` calls per level (0: none)"
    )
    parser.add_argument(
        "--session-levels", default="1,64,256,1024", help="live sessions (empty: none)"
    )
    parser.add_argument("--cells", type=int, default=4, help="closed-loop cells per session")
    parser.add_argument(
        "--think-s", type=float, default=1.0, help="paced cells: seconds between (0: none)"
    )
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",") if x]
    session_levels = [int(x) for x in args.session_levels.split(",") if x]
    max_sessions = max(session_levels, default=1)
    env = {
        "VERIFIER_CODE__POOL_SIZE": str(args.pool_size),
        "VERIFIER_CODE__IS_ENABLED": "true" if levels else "false",
        "VERIFIER_LEAN__IS_ENABLED": "false",
        "VERIFIER_LOG_LEVEL": "warning",
        "VERIFIER_SESSIONS__MAX_SESSIONS": str(max_sessions),
        # one connection per session and per call in flight, and room for those the client is
        # closing (idle past its keep-alive) while it opens others
        "VERIFIER_SERVER__MAX_CONNECTIONS": str(max_sessions + max(levels, default=0) + 256),
    }
    with running_service(env) as url:
        rows = asyncio.run(bench(url, levels, args.calls, args.docker_calls)) if levels else []
        sessions = (
            asyncio.run(bench_sessions(url, session_levels, args.cells, args.think_s, max_sessions))
            if session_levels
            else []
        )
    if rows:
        print_table(rows, args.pool_size)
    if sessions:
        print_sessions(sessions)


if __name__ == "__main__":
    main()
