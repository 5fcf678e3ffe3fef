"""Instruction-following verifier vs IFEval's reference code, side by side in one run.

    .venv/bin/python benchmarks/ifeval_bench.py                 # starts its own service
    .venv/bin/python benchmarks/ifeval_bench.py --url http://127.0.0.1:8000 --items 5000

Items: the seeded corpus of tests/support/ifeval_corpus.py (natural-looking responses with
lists, highlights, sections, JSON, titles, postscripts, several languages and cases), grouped
into items of 1 to 3 constraints, every one of IFEval's 25 instructions represented.
A third mix draws 1-3 of IFBench's 57 judged test families per item (the corpus aimed at them,
tests/support/ifbench_corpus.py), against IFBench's own checkers.
The reference (`if-verifiable`'s copy of Google's IFEval checkers) runs in this process, strict
mode only (one `check_following` per constraint, its cheapest path); our service is called over
HTTP in batches (`--batch`), `--concurrency` requests at a time, strict mode. The table also
gives the agreement of the two verdicts per constraint in the same run.

Besides wall time, the table gives CPU seconds (the reference: this process's; ours: the
service process's and its worker processes', read with psutil, when this script started it)
and items per CPU second:
on a machine shared with other work, wall time measures the neighbours as much as the code.
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
from statistics import median
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rlvr.verifier.testing import live_service  # noqa: E402
from tests.support.ifeval_corpus import corpus  # noqa: E402
from tests.support.ifeval_reference import reference_check, registry  # noqa: E402

#: Instructions whose check runs Punkt or langdetect (most of the cost of a mixed item).
MODEL_BACKED = {
    "length_constraints:number_sentences",
    "change_case:capital_word_frequency",
    "language:response_language",
    "change_case:english_capital",
    "change_case:english_lowercase",
}


def build_items(n: int, seed: int, ids: list[str] | None = None) -> list[dict[str, Any]]:
    """`n` items of 1-3 constraints each; the response is the first entry's."""
    rng = random.Random(seed)
    entries = iter(corpus(n * 3, seed=seed, ids=ids))
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


def build_ifbench_items(n: int, seed: int) -> list[dict[str, Any]]:
    """`n` items of 1-3 of IFBench's 57 judged test families, from the corpus aimed at them."""
    from tests.support.ifbench_corpus import IFBENCH_IDS, ifbench_corpus

    rng = random.Random(seed)
    entries = list(ifbench_corpus(n * 3, IFBENCH_IDS, seed=seed))
    rng.shuffle(entries)
    pool = iter(entries)
    items = []
    for index in range(n):
        group = [next(pool) for _ in range(rng.randint(1, 3))]
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


def run_reference(items: Sequence[dict[str, Any]]) -> tuple[float, float, list[list[bool]]]:
    registry()  # loaded (Punkt, langdetect) before the clock starts
    started, cpu_started = time.perf_counter(), time.process_time()
    verdicts = [
        [
            reference_check(c["id"], c["kwargs"], item["response"]).strict
            for c in item["constraints"]
        ]
        for item in items
    ]
    return time.perf_counter() - started, time.process_time() - cpu_started, verdicts


#: How a result says its response is no answer (empty, no words, only given words).
REFUSALS = ("empty response", "no words", "not an answer")


def run_ours(
    url: str, items: Sequence[dict[str, Any]], batch: int, concurrency: int, pid: int | None
) -> tuple[float, float | None, list[list[bool]], set[int]]:
    chunks = [list(items[i : i + batch]) for i in range(0, len(items), batch)]
    with httpx.Client(timeout=300) as client:
        client.post(f"{url}/ifeval", json={"items": chunks[0][:8]})  # warm the connection

        def send(chunk: list[dict[str, Any]]) -> list[dict[str, Any]]:
            response = client.post(f"{url}/ifeval", json={"items": chunk})
            response.raise_for_status()
            return list(response.json()["results"])

        cpu_before = _cpu_s(pid)
        started = time.perf_counter()
        with ThreadPoolExecutor(concurrency) as pool:
            results = [r for chunk in pool.map(send, chunks) for r in chunk]
        wall_s = time.perf_counter() - started
        cpu_after = _cpu_s(pid)
    cpu_s = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    refused = {index for index, r in enumerate(results) if r["detail"].startswith(REFUSALS)}
    return wall_s, cpu_s, [[c["met"] for c in r["constraints"]] for r in results], refused


def _cpu_s(pid: int | None) -> float | None:
    """CPU seconds (user + system) of the service process and its live descendants (the
    worker pools and their forkserver: a big batch is judged there too), None when it is not
    ours."""
    if pid is None:
        return None
    import psutil

    service = psutil.Process(pid)
    total = 0.0
    for process in [service, *service.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:  # a worker replaced between the listing and the read
            continue
        total += times.user + times.system
    return total


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running service (default: start one)")
    parser.add_argument("--items", type=int, default=5000)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="reference and service measured in turn this many times per mix; the table "
        "gives medians (a loaded machine's drift then touches both alike)",
    )
    args = parser.parse_args(argv)
    logging.getLogger().setLevel(logging.CRITICAL)  # the reference logs langdetect failures

    from tests.support.ifeval_corpus import corpus_ids

    plain_ids = sorted(set(corpus_ids()) - MODEL_BACKED)
    mixes = {
        "all 25 instructions": build_items(args.items, args.seed),
        "the 27 without Punkt/langdetect": build_items(args.items, args.seed, plain_ids),
        "IFBench's 57 test families": build_ifbench_items(args.items, args.seed),
    }
    service = (
        nullcontext(None) if args.url else live_service({"VERIFIER_CODE__IS_ENABLED": "false"})
    )
    with service as live:
        url, pid = (args.url, None) if live is None else (live.url, live.process.pid)
        for name, items in mixes.items():
            report(name, items, url, pid, args.batch, args.concurrency, args.rounds)


def report(
    name: str,
    items: list[dict[str, Any]],
    url: str,
    pid: int | None,
    batch: int,
    concurrency: int,
    rounds: int = 1,
) -> None:
    constraints = sum(len(i["constraints"]) for i in items)
    ref_runs, our_runs = [], []
    for _ in range(max(1, rounds)):  # in turn, so that drift touches both alike
        ref_s, ref_cpu_s, ref_verdicts = run_reference(items)
        ref_runs.append((ref_s, ref_cpu_s))
        our_s, our_cpu_s, our_verdicts, refused = run_ours(url, items, batch, concurrency, pid)
        our_runs.append((our_s, our_cpu_s))
    ref_s, ref_cpu_s = (median(run[k] for run in ref_runs) for k in (0, 1))
    our_s = median(run[0] for run in our_runs)
    our_cpus = [run[1] for run in our_runs if run[1] is not None]
    our_cpu_s = median(our_cpus) if our_cpus else None
    wall_ratios = [r[0] / o[0] for r, o in zip(ref_runs, our_runs, strict=True)]
    pairs = [
        (index, a, b)
        for index, (ours, ref) in enumerate(zip(our_verdicts, ref_verdicts, strict=True))
        for a, b in zip(ours, ref, strict=True)
    ]
    agree = sum(a == b for _, a, b in pairs)
    by_refusal = sum(a != b and index in refused for index, a, b in pairs)
    print(f"\n{name}: {len(items)} items, {constraints} constraints (1-3 per item)")
    n = len(items)
    head = (
        f"{'wall s':>7} {'items/s':>8} {'ratio':>6} {'CPU s':>7} {'items/CPU s':>12} {'ratio':>6}"
    )
    print(f"{'':42} {head}")
    reference = "IFEval reference, in-process, strict"
    print(
        f"{reference:42} {ref_s:7.2f} {n / ref_s:8.0f} {1:6.2f} {ref_cpu_s:7.2f} "
        f"{n / ref_cpu_s:12.0f} {1:6.2f}"
    )
    label = f"ours, HTTP, batch {batch} x {concurrency} concurrent"
    cpu = (
        f"{our_cpu_s:7.2f} {n / our_cpu_s:12.0f} {ref_cpu_s / our_cpu_s:6.2f}"
        if our_cpu_s
        else f"{'-':>7} {'-':>12} {'-':>6}"
    )
    print(f"{label:42} {our_s:7.2f} {n / our_s:8.0f} {ref_s / our_s:6.2f} {cpu}")
    if rounds > 1:
        spread = ", ".join(f"{ratio:.2f}" for ratio in wall_ratios)
        print(f"medians of {rounds} rounds in turn; wall ratio per round: {spread}")
    print(
        f"agreement per constraint (strict): {agree}/{constraints} = {agree / constraints:.4f}; "
        f"{by_refusal} of the {constraints - agree} differences are responses ours refuses "
        "as no answer (only the constraints' own words)"
    )


if __name__ == "__main__":
    main()
