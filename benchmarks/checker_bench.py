"""Checker and interactor overhead per test, side by side in one run against the plain `lines`
comparison (the baseline): the same Python candidate, the same tests, through `/code` over HTTP.

Each item has `--tests` stdio tests (or interactive ones) and every path checks its verdicts
(all must pass). A checker program costs a second run per test (after the candidate's run is
swept), an interactor a second process beside the candidate.

    .venv/bin/python -m benchmarks.checker_bench [--items 24] [--tests 10] [--pool-size 1]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

import httpx

from rlvr.verifier.testing import running_service

CANDIDATE = "a, b = map(int, input().split())\nprint(a + b)\n"
CHECKER_PY = (
    "import sys\n"
    "a, b = map(int, open(sys.argv[1]).read().split())\n"
    "sys.exit(0 if open(sys.argv[2]).read().split() == [str(a + b)] else 1)\n"
)
CHECKER_CPP = """
#include <cstdio>
int main(int argc, char** argv) {
    long long a, b, c;
    FILE* in = fopen(argv[1], "r"); FILE* out = fopen(argv[2], "r");
    if (fscanf(in, "%lld %lld", &a, &b) != 2) return 3;
    if (fscanf(out, "%lld", &c) != 1) return 1;
    return c == a + b ? 0 : 1;
}
"""
INTERACTOR_PY = (
    "import sys\n"
    "a, b = open(sys.argv[1]).read().split()\n"
    "print(a, b, flush=True)\n"
    "sys.exit(0 if sys.stdin.readline().split() == [str(int(a) + int(b))] else 1)\n"
)
INTERACTOR_CPP = """
#include <cstdio>
int main(int argc, char** argv) {
    long long a, b, c;
    FILE* in = fopen(argv[1], "r");
    if (fscanf(in, "%lld %lld", &a, &b) != 2) return 3;
    printf("%lld %lld\\n", a, b); fflush(stdout);
    if (scanf("%lld", &c) != 1) return 1;
    return c == a + b ? 0 : 1;
}
"""


@dataclass
class Row:
    name: str
    tests: int
    seconds: float

    @property
    def per_test_ms(self) -> float:
        return self.seconds / self.tests * 1000


def stdio_tests(count: int) -> list[dict[str, Any]]:
    return [
        {"kind": "stdio", "stdin": f"{i} {i + 1}\n", "stdout": f"{2 * i + 1}\n"}
        for i in range(count)
    ]


def interactive_tests(count: int) -> list[dict[str, Any]]:
    return [{"kind": "interactive", "input": f"{i} {i + 1}"} for i in range(count)]


def workloads(tests: int) -> dict[str, dict[str, Any]]:
    stdio = stdio_tests(tests)
    return {
        "lines (baseline)": {"tests": stdio},
        "tokens": {"tests": stdio, "checker": {"kind": "tokens"}},
        "float": {"tests": stdio, "checker": {"kind": "float"}},
        "program checker (python)": {
            "tests": stdio,
            "checker": {"kind": "program", "language": "python", "code": CHECKER_PY},
        },
        "program checker (cpp)": {
            "tests": stdio,
            "checker": {"kind": "program", "language": "cpp", "code": CHECKER_CPP},
        },
        "interactor (python)": {
            "tests": interactive_tests(tests),
            "interactor": {"language": "python", "code": INTERACTOR_PY},
        },
        "interactor (cpp)": {
            "tests": interactive_tests(tests),
            "interactor": {"language": "cpp", "code": INTERACTOR_CPP},
        },
    }


def bench(url: str, name: str, extra: dict[str, Any], items: int) -> Row:
    batch = [{"id": f"{name}-{i}", "code": CANDIDATE, **extra} for i in range(items)]
    # warm-up: the pool is started, and a C++ judge's first compile is not what we measure
    httpx.post(f"{url}/code", json={"items": batch[:1]}, timeout=600).raise_for_status()
    started = time.perf_counter()
    response = httpx.post(f"{url}/code", json={"items": batch}, timeout=600)
    seconds = time.perf_counter() - started
    response.raise_for_status()
    results = response.json()["results"]
    bad = [r for r in results if r["reward"] != 1.0]
    assert not bad, bad[:1]
    return Row(name, items * len(extra["tests"]), seconds)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=24, help="items per workload")
    parser.add_argument("--tests", type=int, default=10, help="tests per item")
    parser.add_argument("--pool-size", type=int, default=1, help="sandbox containers")
    args = parser.parse_args(argv)
    env = {
        "VERIFIER_CODE__POOL_SIZE": str(args.pool_size),
        "VERIFIER_LEAN__IS_ENABLED": "false",
        # every item really runs: the rows repeat identical items, which reuse would answer
        "VERIFIER_CODE__IS_DEDUP_ENABLED": "false",
        "VERIFIER_CODE__CACHE_ITEMS": "0",
    }
    with running_service(env) as url:
        rows = [
            bench(url, name, extra, args.items) for name, extra in workloads(args.tests).items()
        ]
    base = rows[0].per_test_ms
    print(f"{'comparison':<28} {'tests':>6} {'ms/test':>8} {'vs lines':>9} {'overhead ms':>12}")
    for row in rows:
        ratio = row.per_test_ms / base
        overhead = row.per_test_ms - base
        cells = f"{row.tests:>6} {row.per_test_ms:>8.2f} {ratio:>8.2f}x {overhead:>12.2f}"
        print(f"{row.name:<28} {cells}")


if __name__ == "__main__":
    main()
