"""Instruction-following verifier vs IFEval's reference code, side by side in one run.

    .venv/bin/python benchmarks/ifeval_bench.py                 # starts its own service
    .venv/bin/python benchmarks/ifeval_bench.py --url http://127.0.0.1:8000 --items 5000

Items: the seeded corpus of tests/support/ifeval_corpus.py (natural-looking responses with
lists, highlights, sections, JSON, titles, postscripts, several languages and cases), grouped
into items of 1 to 3 constraints, every one of IFEval's 25 instructions represented.
The reference (`if-verifiable`'s copy of Google's IFEval checkers) runs in this process, strict
mode only (one `check_following` per constraint, its cheapest path); our service is called over
HTTP in batches (`--batch`), `--concurrency` requests at a time, strict mode. The table also
gives the agreement of the two verdicts per constraint in the same run.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.ifeval_corpus import corpus  # noqa: E402
from tests.support.ifeval_reference import reference_check, registry  # noqa: E402
from tests.support.server import running_service  # noqa: E402


def build_items(n: int, seed: int) -> list[dict[str, Any]]:
    """`n` items of 1-3 constraints each; the response is the first entry's."""
    rng = random.Random(seed)
    entries = iter(corpus(n * 3, seed=seed))
    items = []
    for index in range(n):
        group = [next(entries) for _ in range(rng.randint(1, 3))]
        seen: dict[str, dict[str, Any]] = {}
        for entry in group:
            seen.setdefault(entry.instruction_id, entry.kwargs)
        items.append(
            {
                "id": str(index),
                "response": group[0].response,
                "constraints": [{"id": i, "kwargs": k} for i, k in seen.items()],
            }
        )
    return items


def run_reference(items: Sequence[dict[str, Any]]) -> tuple[float, list[list[bool]]]:
    registry()  # loaded (Punkt, langdetect) before the clock starts
    started = time.perf_counter()
    verdicts = [
        [
            reference_check(c["id"], c["kwargs"], item["response"]).strict
            for c in item["constraints"]
        ]
        for item in items
    ]
    return time.perf_counter() - started, verdicts


def run_ours(
    url: str, items: Sequence[dict[str, Any]], batch: int, concurrency: int
) -> tuple[float, list[list[bool]]]:
    chunks = [list(items[i : i + batch]) for i in range(0, len(items), batch)]
    with httpx.Client(timeout=300) as client:
        client.post(f"{url}/ifeval", json={"items": chunks[0][:8]})  # warm the connection

        def send(chunk: list[dict[str, Any]]) -> list[dict[str, Any]]:
            response = client.post(f"{url}/ifeval", json={"items": chunk})
            response.raise_for_status()
            return list(response.json()["results"])

        started = time.perf_counter()
        with ThreadPoolExecutor(concurrency) as pool:
            results = [r for chunk in pool.map(send, chunks) for r in chunk]
        wall_s = time.perf_counter() - started
    return wall_s, [[c["met"] for c in r["constraints"]] for r in results]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running service (default: start one)")
    parser.add_argument("--items", type=int, default=5000)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    logging.getLogger().setLevel(logging.CRITICAL)  # the reference logs langdetect failures

    items = build_items(args.items, args.seed)
    constraints = sum(len(i["constraints"]) for i in items)
    ref_s, ref_verdicts = run_reference(items)
    service = (
        nullcontext(args.url)
        if args.url
        else running_service({"VERIFIER_CODE__IS_ENABLED": "false"})
    )
    with service as url:
        our_s, our_verdicts = run_ours(url, items, args.batch, args.concurrency)
    agree = sum(
        a == b
        for ours, ref in zip(our_verdicts, ref_verdicts, strict=True)
        for a, b in zip(ours, ref, strict=True)
    )
    print(f"{len(items)} items, {constraints} constraints (1-3 per item), seed {args.seed}")
    print(f"{'':44} {'wall s':>8} {'items/s':>10} {'ratio':>7}")
    print(
        f"{'IFEval reference, in-process, strict':44} {ref_s:8.2f} {len(items) / ref_s:10.0f} {1:7.2f}"
    )
    label = f"ours, HTTP, batch {args.batch} x {args.concurrency} concurrent"
    print(f"{label:44} {our_s:8.2f} {len(items) / our_s:10.0f} {ref_s / our_s:7.2f}")
    print(f"agreement per constraint (strict): {agree}/{constraints} = {agree / constraints:.4f}")


if __name__ == "__main__":
    main()
