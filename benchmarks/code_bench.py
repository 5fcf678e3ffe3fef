"""Code execution throughput, side by side in one run: `docker run` per test, a bare
`python3 -I -S -c` subprocess per test (no isolation, for reference), and our service over HTTP;
then per language, stdio tests through `/code` against a bare subprocess of the same program.

Workload: a trivial function with 3 assert tests per item (`add`). Every path checks its answers.
Languages: the `ADD` program of each language (read two integers, print the sum), 4 stdio tests
per item; the bare side compiles it once and runs it as a plain subprocess per test, `CPUS` at
a time, inside one container of the sandbox image (the toolchains live there, not on the host)
with no per-run isolation. The service's compile is separated: one warm-up item compiles it
(timed: "first item"), the measured items reuse the cached artefact (run phase only). /code and
bare are timed in turn, `ROUNDS` times each, and compared by their totals; each language gets a
fresh service (so no container reaches its job limit and restarts inside the measurement).

    .venv/bin/python -m benchmarks.code_bench [--items 768] [--pool-size CPUS] [--docker-tests 20]
    .venv/bin/python -m benchmarks.code_bench --only-languages [--languages c,go,java]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import textwrap
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import httpx

from rlvr.verifier.testing import running_service
from tests.support.language_programs import ADD

CODE = "def add(a, b):\n    return a + b\n"
TESTS = ["assert add(1, 2) == 3", "assert add(-1, 1) == 0", "assert add(10, 5) == 15"]
IMAGE = os.environ.get("VERIFIER_CODE__SANDBOX__IMAGE", "rlvr-sandbox:latest")
LANGUAGE_NAMES = ("python", "c", "cpp", "rust", "go", "java", "javascript")
# Tests per language: the JVM and Node take ~100x longer to start than a native binary.
LANGUAGE_TESTS = {"java": 96, "javascript": 96}
DEFAULT_LANGUAGE_TESTS = 960
# /code and bare timed in turn, this many times each (their totals give the ratio)
ROUNDS = 3
STDIO_TESTS = [(f"{a} {b}\n", f"{a + b}\n") for a, b in ((2, 3), (-7, 10**12), (0, 0), (41, 1))]
# stdio tests per item (`--tests-per-item`): the host's per-item work is shared by these
TESTS_PER_ITEM = 4
# Inside one container of the sandbox image: compile `ADD` once, then time `count` runs as plain
# subprocesses, `workers` at a time (no isolation per run: the reference for the run phase).
BARE_SCRIPT = textwrap.dedent(
    """
    import json, os, subprocess, sys, time
    from concurrent.futures import ThreadPoolExecutor
    spec = json.loads(sys.argv[1])
    os.makedirs("/tmp/b", exist_ok=True)
    os.chdir("/tmp/b")
    with open(spec["file"], "w") as f:
        f.write(spec["code"])
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp/b", "GOCACHE": "/tmp/b/.gc",
           "GO111MODULE": "off", "GOMAXPROCS": "1"}
    if spec["compile"]:
        subprocess.run(spec["compile"], check=True, env=env)
    tests = spec["tests"]
    def one(i):
        stdin, stdout = tests[i % len(tests)]
        done = subprocess.run(spec["run"], input=stdin.encode(), capture_output=True, env=env)
        assert done.stdout.decode().split() == stdout.split(), done
    started = time.perf_counter()
    with ThreadPoolExecutor(spec["workers"]) as pool:
        list(pool.map(one, range(spec["count"])))
    print(json.dumps({"seconds": time.perf_counter() - started}))
    """
)
BARE_COMMANDS: dict[str, tuple[str, list[str] | None, list[str]]] = {
    "python": ("main.py", None, ["python3", "-I", "-S", "main.py"]),
    "c": ("main.c", ["gcc", "-O2", "-std=gnu17", "-o", "main", "main.c", "-lm"], ["./main"]),
    "cpp": ("main.cpp", ["g++", "-O2", "-std=gnu++17", "-o", "main", "main.cpp"], ["./main"]),
    "rust": ("main.rs", ["rustc", "--edition", "2021", "-O", "-o", "main", "main.rs"], ["./main"]),
    "go": ("main.go", ["go", "build", "-o", "main", "main.go"], ["./main"]),
    "java": (
        "Solution.java",
        ["javac", "-d", ".", "Solution.java"],
        ["java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", ".", "Solution"],
    ),
    "javascript": ("main.js", None, ["node", "main.js"]),
}


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


def bench_bare_language(language: str, count: int, workers: int) -> float:
    """Seconds for `count` bare runs of the language's `ADD` (compile excluded)."""
    file_name, compile_argv, run_argv = BARE_COMMANDS[language]
    spec = {
        "file": file_name,
        "code": ADD[language],
        "compile": compile_argv,
        "run": run_argv,
        "tests": STDIO_TESTS,
        "count": count,
        "workers": workers,
    }
    command = ["docker", "run", "--rm", "--network", "none", "--user", "0", IMAGE]
    command += ["python3", "-I", "-S", "-c", BARE_SCRIPT, json.dumps(spec)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    return float(json.loads(done.stdout.strip().splitlines()[-1])["seconds"])


def language_items(language: str, count: int, per_item: int, nonce: str = "") -> list[dict]:
    code = ADD[language]
    if nonce:  # a source no cache has seen: the item compiles
        comment = "# " if language == "python" else "// "
        code = f"{comment}{nonce}\n{code}"
    pairs = [STDIO_TESTS[i % len(STDIO_TESTS)] for i in range(per_item)]
    tests = [{"kind": "stdio", "stdin": i, "stdout": o} for i, o in pairs]
    return [{"language": language, "code": code, "tests": tests} for _ in range(count)]


def bench_languages(
    languages: list[str], pool_size: int, per_item: int = TESTS_PER_ITEM
) -> list[tuple[str, float, Row, float]]:
    """Per language: (name, first item s, service run-phase row, bare tests/s)."""
    env = {
        "VERIFIER_CODE__POOL_SIZE": str(pool_size),
        "VERIFIER_LEAN__IS_ENABLED": "false",
        # every item is the same program and tests: each must run (no verdict reuse); the
        # compile cache stays on (that is what "run phase" means here)
        "VERIFIER_CODE__IS_DEDUP_ENABLED": "false",
        "VERIFIER_CODE__CACHE_ITEMS": "0",
    }
    out = []
    for language in languages:
        # A fresh service per language: every container retires after MAX_JOBS_PER_SANDBOX
        # (500) jobs, and in one long run those restarts would land in whichever language
        # happens to come when the pool reaches them.
        with running_service(env) as url, httpx.Client(timeout=900) as client:
            tests = LANGUAGE_TESTS.get(language, DEFAULT_LANGUAGE_TESTS)
            items = max(1, tests // per_item)
            sent = time.perf_counter()  # compile (a fresh source) + its 4 tests
            first = client.post(
                f"{url}/code",
                json={"items": language_items(language, 1, per_item, uuid.uuid4().hex)},
            ).json()["results"][0]
            first_s = time.perf_counter() - sent
            assert first["reward"] == 1.0, first
            warm = language_items(language, pool_size, per_item)
            client.post(f"{url}/code", json={"items": warm})
            # Interleaved rounds: the machine's speed drifts (a shared VM), and each round
            # times /code and then bare back to back, so drift touches both sides alike.
            seconds = bare_s = 0.0
            latencies: list[float] = []
            for _ in range(ROUNDS):
                started = time.perf_counter()
                batch = language_items(language, items // ROUNDS, per_item)
                results = client.post(f"{url}/code", json={"items": batch}).json()["results"]
                seconds += time.perf_counter() - started
                assert all(r["reward"] == 1.0 for r in results), results[:2]
                latencies += [r["elapsed_s"] for r in results]
                bare_s += bench_bare_language(language, tests // ROUNDS, pool_size)
            measured = (items // ROUNDS) * ROUNDS
            row = Row(
                f"/code {language}",
                measured * per_item,
                seconds,
                percentile(latencies, 0.5),
                percentile(latencies, 0.99),
            )
            tests = (tests // ROUNDS) * ROUNDS
            out.append((language, first_s, row, tests / bare_s))
            print(f"  {language}: {row.rate:.1f} tests/s, bare {tests / bare_s:.1f}", flush=True)
    return out


def print_languages(
    rows: list[tuple[str, float, Row, float]], pool_size: int, per_item: int
) -> None:
    print(
        f"per language, stdio tests ({per_item} per item), pool {pool_size}, bare {pool_size}"
        " at a time; /code = run phase (the compile is cached after the first item)"
    )
    print(
        f"{'language':11} {'first item':>10} {'tests':>6} {'/code tests/s':>13} "
        f"{'bare tests/s':>12} {'ratio':>6} {'p50 item':>9}"
    )
    for language, first_s, row, bare_rate in rows:
        p50 = f"{(row.p50_item_s or 0) * 1000:.0f} ms"
        print(
            f"{language:11} {first_s:>9.2f}s {row.tests:>6} {row.rate:>13.1f} "
            f"{bare_rate:>12.1f} {row.rate / bare_rate:>5.2f}x {p50:>9}"
        )


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
    parser.add_argument(
        "--languages", default=",".join(LANGUAGE_NAMES), help="Languages to time (comma list)."
    )
    parser.add_argument(
        "--only-languages", action="store_true", help="Only the per-language comparison."
    )
    parser.add_argument(
        "--tests-per-item", type=int, default=TESTS_PER_ITEM, help="stdio tests per item."
    )
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()}")
    languages = [name for name in args.languages.split(",") if name]
    if args.only_languages:
        rows = bench_languages(languages, args.pool_size, args.tests_per_item)
        print_languages(rows, args.pool_size, args.tests_per_item)
        print(f"load after: {os.getloadavg()}")
        return
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
    if languages:
        per_item = args.tests_per_item
        print_languages(
            bench_languages(languages, args.pool_size, per_item), args.pool_size, per_item
        )


if __name__ == "__main__":
    main()
