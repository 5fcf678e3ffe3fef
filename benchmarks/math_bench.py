"""Math verifier vs Math-Verify, side by side in one run: accuracy, items/s, latency.

    .venv/bin/python benchmarks/math_bench.py            # starts its own service
    .venv/bin/python benchmarks/math_bench.py --url http://127.0.0.1:8000

Case sets: our labelled table (tests/support/math_tables/cases.py), Math-Verify
0.9.0's own published test cases (benchmarks/data/math_verify_cases.json, extracted from its
PyPI sdist by benchmarks/extract_math_verify_cases.py), and plain integers for throughput.
Math-Verify's cases run twice: against our defaults (strict extraction: only a marked answer or
a response that is nothing but an answer), and against a second service started with
`VERIFIER_MATH__FALLBACK=math_and_number`, the lenient extraction Math-Verify's own tests
assume (`--no-lenient` skips it); `--disagreements` lists every case where a row disagrees
with Math-Verify's label.
Math-Verify runs in this process (`verify(parse(gold), parse(pred))`, its defaults); our
service is called over HTTP in batches of 256. Latency: Math-Verify's per call; ours per item
as the service reports it (`elapsed_s`: from batch arrival to that item's verdict) and per
batch as the client sees it.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rlvr.verifier.testing import running_service  # noqa: E402
from tests.support.math_tables.cases import CASES  # noqa: E402

MV_CASES = ROOT / "benchmarks" / "data" / "math_verify_cases.json"


@dataclass
class Labelled:
    response: str
    answer: str
    is_correct: bool


@dataclass
class Run:
    correct: int
    total: int
    wall_s: float
    latencies_s: list[float]
    batch_latencies_s: list[float]
    statuses: dict[str, int]

    @property
    def accuracy(self) -> float:
        return self.correct / self.total

    @property
    def rate(self) -> float:
        return self.total / self.wall_s


def our_cases() -> list[Labelled]:
    return [Labelled(c.response, c.answer, c.is_correct) for c in CASES]


def math_verify_cases() -> list[Labelled]:
    data = json.loads(MV_CASES.read_text())["cases"]
    return [Labelled(c["pred"], c["gold"], c["expected"]) for c in data]


def integer_cases(n: int, seed: int = 0) -> list[Labelled]:
    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        value = rng.randint(-(10**6), 10**6)
        is_correct = rng.random() < 0.5
        answer = value if is_correct else value + rng.choice((-1, 1))
        cases.append(
            Labelled(f"Adding up, the total is $\\boxed{{{value}}}$.", str(answer), is_correct)
        )
    return cases


def run_math_verify(cases: Sequence[Labelled]) -> Run:
    from math_verify import parse, verify

    logging.getLogger("math_verify").setLevel(logging.CRITICAL)
    latencies, correct, statuses = [], 0, {"passed": 0, "failed": 0}
    started = time.perf_counter()
    for case in cases:
        t0 = time.perf_counter()
        try:
            verdict = bool(verify(parse(case.answer), parse(case.response)))
        except Exception:
            verdict = False
        latencies.append(time.perf_counter() - t0)
        statuses["passed" if verdict else "failed"] += 1
        correct += verdict is case.is_correct
    return Run(correct, len(cases), time.perf_counter() - started, latencies, latencies, statuses)


def run_service(
    url: str,
    cases: Sequence[Labelled],
    batch_size: int,
    disagreements: list[tuple[Labelled, dict[str, object]]] | None = None,
) -> Run:
    latencies, batch_latencies, correct = [], [], 0
    statuses: dict[str, int] = {}
    with httpx.Client(base_url=url, timeout=120) as client:
        started = time.perf_counter()
        for offset in range(0, len(cases), batch_size):
            batch = cases[offset : offset + batch_size]
            items = [{"response": c.response, "answer": c.answer} for c in batch]
            t0 = time.perf_counter()
            reply = client.post("/math", json={"items": items})
            batch_latencies.append(time.perf_counter() - t0)
            reply.raise_for_status()
            for case, result in zip(batch, reply.json()["results"], strict=True):
                statuses[result["status"]] = statuses.get(result["status"], 0) + 1
                latencies.append(result["elapsed_s"])
                agrees = (result["status"] == "passed") is case.is_correct
                correct += agrees
                if not agrees and disagreements is not None:
                    disagreements.append((case, result))
        wall_s = time.perf_counter() - started
    return Run(correct, len(cases), wall_s, latencies, batch_latencies, statuses)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency_ms(values: Sequence[float]) -> str:
    return (
        f"{percentile(values, 0.5) * 1e3:.1f} / {percentile(values, 0.99) * 1e3:.0f}"
        f" / {max(values) * 1e3:.0f}"
    )


def table(rows: list[tuple[str, Run, Run]]) -> str:
    head = (
        "| case set | n | Math-Verify acc | ours acc | Math-Verify items/s | ours items/s "
        "| speed ratio | Math-Verify p50/p99/max ms | ours item p50/p99/max ms "
        "| ours batch p50/max ms | ours statuses |"
    )
    lines = [head, "|" + " --- |" * 11]
    for name, mv, ours in rows:
        statuses = ", ".join(f"{k} {v}" for k, v in sorted(ours.statuses.items()))
        lines.append(
            f"| {name} | {ours.total} | {mv.accuracy:.1%} | {ours.accuracy:.1%} "
            f"| {mv.rate:,.0f} | {ours.rate:,.0f} | {ours.rate / mv.rate:.1f}x "
            f"| {latency_ms(mv.latencies_s)} | {latency_ms(ours.latencies_s)} "
            f"| {percentile(ours.batch_latencies_s, 0.5) * 1e3:.0f} / "
            f"{max(ours.batch_latencies_s) * 1e3:.0f} | {statuses} |"
        )
    return "\n".join(lines)


# a shared machine under load may take minutes to start a service; the run is not timed then
STARTUP_TIMEOUT_S = 600.0


@contextmanager
def service(url: str | None) -> Iterator[str]:
    if url:
        with nullcontext(url) as given:
            yield given
        return
    with running_service({"VERIFIER_CODE__IS_ENABLED": "false"}, STARTUP_TIMEOUT_S) as started:
        yield started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="Use a running service instead of starting one.")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--integers", type=int, default=20_480, help="Plain-integer items.")
    parser.add_argument(
        "--integers-baseline", type=int, default=3_000, help="Of those, run by Math-Verify."
    )
    parser.add_argument(
        "--no-lenient", action="store_true", help="Skip the lenient-extraction Math-Verify row."
    )
    parser.add_argument(
        "--disagreements", action="store_true", help="List the Math-Verify cases we disagree on."
    )
    args = parser.parse_args()

    ours_set, mv_set = our_cases(), math_verify_cases()
    mixed = ours_set + mv_set
    random.Random(1).shuffle(mixed)
    integers = integer_cases(args.integers)
    print(f"load before: {os.getloadavg()}", flush=True)
    with service(args.url) as url:
        rows = []
        # a fresh service: every pair below is new to its cache
        mixed_ours = run_service(url, mixed, args.batch_size)
        mixed_mv = run_math_verify(mixed)
        rows.append(("mixed (both sets, shuffled, cold cache)", mixed_mv, mixed_ours))
        mv_run = run_math_verify(mv_set)
        rows.append(
            (
                "ours (labelled table)",
                run_math_verify(ours_set),
                run_service(url, ours_set, args.batch_size),
            )
        )
        strict_misses: list[tuple[Labelled, dict[str, object]]] = []
        rows.append(
            (
                "math-verify 0.9.0 tests, our defaults",
                mv_run,
                run_service(url, mv_set, args.batch_size, strict_misses),
            )
        )
        int_ours = run_service(url, integers, args.batch_size)
        int_mv = run_math_verify(integers[: args.integers_baseline])
        rows.append(("plain integers", int_mv, int_ours))
        health = httpx.get(f"{url}/health").json()["domains"]["math"]["stats"]
    lenient_misses: list[tuple[Labelled, dict[str, object]]] = []
    if not args.no_lenient:
        with running_service(
            {"VERIFIER_CODE__IS_ENABLED": "false", "VERIFIER_MATH__FALLBACK": "math_and_number"},
            STARTUP_TIMEOUT_S,
        ) as lenient_url:
            rows.insert(
                3,
                (
                    "math-verify 0.9.0 tests, fallback=math_and_number",
                    mv_run,
                    run_service(lenient_url, mv_set, args.batch_size, lenient_misses),
                ),
            )
    print(f"load after: {os.getloadavg()}")
    print()
    print(table(rows))
    print()
    print(
        "Rows 2-3 run after row 1 on the same service, so their SymPy pairs are cache hits; "
        "row 1 is the cold-cache throughput. Math-Verify ran "
        f"{args.integers_baseline} of the {args.integers} integer items."
    )
    print(f"service math stats: {json.dumps(health)}")
    if args.disagreements:
        for title, misses in (
            ("our defaults", strict_misses),
            ("fallback=math_and_number", lenient_misses),
        ):
            print(f"\nMath-Verify cases where {title} disagree with the label ({len(misses)}):")
            for case, result in misses:
                print(
                    f"- label {case.is_correct}: gold {case.answer[:70]!r}, "
                    f"response {case.response[-90:]!r} -> {result['status']}: "
                    f"{str(result['detail'])[:110]}"
                )


if __name__ == "__main__":
    main()
