"""No work done twice, measured: a GRPO-like batch through `/code` with and without dedup.

The batch: `--prompts` prompts x `--group` completions each (64 x 16 = 1,024 items), sent as
one request as a GRPO trainer's reward call does. Two shapes of group, both measured:

- `half-duplicate`: half of each group repeats completions already in the group, i.e. 8
  distinct programs among 16 (the most common answer 9 times, 7 others once): the ideal
  speed-up is 16/8 = 2.0x.
- `8 same + 8 unique`: 8 identical completions plus 8 distinct others, 9 distinct programs:
  the ideal speed-up is 16/9 = 1.78x.

Each program is a Python stdio solution (some right, some wrong) with `--tests` tests; every
batch gets fresh program text, so no run is answered by a cache of an earlier one. The
baseline is a service with `VERIFIER_CODE__IS_DEDUP_ENABLED=false` and the cache off; the
other one runs with the defaults (dedup on, cache on). Both services are up together and
their batches alternate (baseline, dedup, baseline, ...) so the machine's changing load hits
both alike; times are medians of `--repeats`. A last row sends the same batch again: all of
it is answered from the cache.

    .venv/bin/python -m benchmarks.code_dedup_bench [--prompts 64] [--group 16] [--repeats 1]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import uuid
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import httpx

from rlvr.verifier.testing import REUSE, running_service

RIGHT = "n = int(input())\nprint(sum(i * i for i in range(n)))\n"
WRONG = "n = int(input())\nprint(sum(i * i for i in range(n + 1)))\n"


@dataclass(frozen=True)
class Shape:
    name: str
    common: int  # copies of the group's most common completion; the rest are unique

    def distinct(self, group: int) -> int:
        return 1 + (group - self.common)


SHAPES = [Shape("half-duplicate (8 distinct of 16)", 9), Shape("8 same + 8 unique", 8)]


def tests(count: int) -> list[dict[str, Any]]:
    return [
        {"kind": "stdio", "stdin": f"{n}\n", "stdout": f"{sum(i * i for i in range(n))}\n"}
        for n in range(1000, 1000 + 5000 * count, 5000)
    ]


def batch(prompts: int, group: int, shape: Shape, n_tests: int) -> tuple[list[dict], list[float]]:
    """The items and the reward each must get (checked: a fast wrong answer proves nothing)."""
    salt = uuid.uuid4().hex
    items, rewards = [], []
    test_list = tests(n_tests)
    for p in range(prompts):
        for c in range(group):
            unique = 0 if c < shape.common else c  # completion 0 is the common one
            is_right = unique % 2 == 0
            body = RIGHT if is_right else WRONG
            program = f"# prompt {p} completion {unique} {salt}\n{body}"
            items.append(
                {
                    "id": f"{p}-{c}",
                    "response": f"Let me solve it.\n```python\n{program}```\n",
                    "tests": test_list,
                }
            )
            rewards.append(1.0 if is_right else 0.0)
    return items, rewards


def post(client: httpx.Client, url: str, items: list[dict], rewards: list[float]) -> tuple:
    started = time.perf_counter()
    response = client.post(f"{url}/code", json={"items": items})
    seconds = time.perf_counter() - started
    response.raise_for_status()
    results = response.json()["results"]
    got = [r["reward"] for r in results]
    assert got == rewards, [(r["id"], r["status"], r["detail"]) for r in results[:5]]
    return seconds, Counter(str(r.get("reused")) for r in results)


def measure(envs: dict[str, dict[str, str]], args: argparse.Namespace) -> dict[Any, Any]:
    """Seconds per (service, shape), the median of the repeats. Both services are up at once and
    their batches alternate, so a change in the machine's load (other work on it) hits both."""
    out: dict[Any, Any] = {}
    times: dict[tuple[str, str], list[float]] = {}
    with ExitStack() as stack, httpx.Client(timeout=1800) as client:
        urls = {name: stack.enter_context(running_service(env)) for name, env in envs.items()}
        for url in urls.values():
            warm, warm_rewards = batch(4, 4, SHAPES[0], args.tests)
            post(client, url, warm, warm_rewards)
        for _ in range(args.repeats):
            for shape in SHAPES:
                for name, url in urls.items():
                    items, rewards = batch(args.prompts, args.group, shape, args.tests)
                    seconds, reused = post(client, url, items, rewards)
                    times.setdefault((name, shape.name), []).append(seconds)
                    out[(name, shape.name)] = reused
        items, rewards = batch(args.prompts, args.group, SHAPES[0], args.tests)
        post(client, urls["dedup"], items, rewards)
        out["again"] = post(client, urls["dedup"], items, rewards)
    for key, values in times.items():
        out[key] = (statistics.median(values), out[key])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompts", type=int, default=64, help="Prompts in the batch.")
    parser.add_argument("--group", type=int, default=16, help="Completions per prompt.")
    parser.add_argument("--tests", type=int, default=4, help="stdio tests per item.")
    parser.add_argument("--repeats", type=int, default=1, help="Batches per shape (median).")
    parser.add_argument(
        "--pool-size", type=int, default=os.cpu_count() or 2, help="Sandbox containers."
    )
    args = parser.parse_args()
    common = {"VERIFIER_CODE__POOL_SIZE": str(args.pool_size), "VERIFIER_LEAN__IS_ENABLED": "false"}
    baseline_env = {
        **common,
        "VERIFIER_CODE__IS_DEDUP_ENABLED": "false",
        "VERIFIER_CODE__CACHE_ITEMS": "0",
    }
    print(f"load before: {os.getloadavg()}")
    measured = measure({"baseline": baseline_env, "dedup": {**common, **REUSE}}, args)
    print(f"load after: {os.getloadavg()}")
    n_items = args.prompts * args.group
    print(
        f"batch: {args.prompts} prompts x {args.group} completions = {n_items} items, "
        f"{args.tests} stdio tests each, one request; pool {args.pool_size}"
    )
    header = f"{'group shape':34} {'distinct':>8} {'no dedup':>9} {'dedup':>8} {'speed-up':>8}"
    print(header + f" {'ideal':>6} {'copied':>7}")
    for shape in SHAPES:
        base_s, _ = measured[("baseline", shape.name)]
        dedup_s, reused = measured[("dedup", shape.name)]
        distinct = shape.distinct(args.group)
        print(
            f"{shape.name:34} {distinct * args.prompts:>8} {base_s:>8.1f}s {dedup_s:>7.1f}s "
            f"{base_s / dedup_s:>7.2f}x {args.group / distinct:>5.2f}x {reused['batch']:>7}"
        )
    again_s, again_reused = measured["again"]
    base_s = measured[("baseline", SHAPES[0].name)][0]
    print(
        f"{'same batch sent again (cache)':34} {0:>8} {base_s:>8.1f}s {again_s:>7.1f}s "
        f"{base_s / again_s:>7.1f}x {'-':>6} {again_reused['cache']:>7}"
    )


if __name__ == "__main__":
    main()
