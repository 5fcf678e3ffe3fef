"""What bounding a body's objects costs: `json.loads` (the baseline, what FastAPI ran) against
`parse_bounded_json` (an object hook that counts), on bodies shaped like real batches.

Shapes: a GRPO `/math` batch (4,096 items, 2 KB responses), a `/code` batch of 64 items x
1,000 stdio tests, and a `/code` batch of 64 items with 3 KB programs and 20 call tests each.
Times are medians of `--repeats` parses, alternating baseline and bounded.

    .venv/bin/python -m benchmarks.body_bench [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from rlvr.verifier.api.body import parse_bounded_json


def math_body() -> bytes:
    item = {"response": "Let us compute. " * 120 + "\\boxed{42}", "answer": "42"}
    return json.dumps({"items": [item] * 4096}).encode()


def stdio_body() -> bytes:
    tests = [{"kind": "stdio", "stdin": f"{i}\n", "stdout": f"{i * i}\n"} for i in range(1000)]
    return json.dumps({"items": [{"code": "print(int(input())**2)", "tests": tests}] * 64}).encode()


def call_body() -> bytes:
    tests = [{"kind": "call", "fn": "f", "args": [i, [i, i]], "expected": i} for i in range(20)]
    item = {"code": "def f(a, b):\n    return a\n" + "# pad\n" * 500, "tests": tests}
    return json.dumps({"items": [item] * 64}).encode()


def median_s(parse: Callable[[bytes], Any], body: bytes, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        parse(body)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"{'body':<28} {'MB':>6} {'json.loads ms':>14} {'bounded ms':>11} {'ratio':>6}")
    for name, build in (
        ("math 4096 x 2 KB", math_body),
        ("code 64 x 1000 stdio", stdio_body),
        ("code 64 x 20 call + 3 KB", call_body),
    ):
        body = build()
        baseline = median_s(json.loads, body, args.repeats)
        bounded = median_s(lambda b: parse_bounded_json(b, 10**9), body, args.repeats)
        print(
            f"{name:<28} {len(body) / 1e6:>6.1f} {baseline * 1e3:>14.1f} {bounded * 1e3:>11.1f} "
            f"{bounded / baseline:>6.2f}"
        )


if __name__ == "__main__":
    main()
