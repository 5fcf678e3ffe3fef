"""Stand-in REPL: cold start and warm throughput, container vs unsafe process (NOT Lean speed).

    PYTHONPATH=$PWD .venv/bin/python tests/rlvr/verifier/domains/lean/bench_isolation.py

Prints a markdown table. Needs Docker and rlvr-sandbox:latest (scripts/docker/build_images.sh).
"""

from __future__ import annotations

import asyncio
import time

from rlvr.schemas.lean import LeanItem
from rlvr.verifier.domains.lean.config import LeanSettings
from rlvr.verifier.domains.lean.verifier import open_lean_verifier
from tests.rlvr.verifier.domains.lean.support import container_settings, process_command

STATEMENT = "theorem add_zero' (a : Nat) : a + 0 = a := by sorry"
PROOF = "theorem add_zero' (a : Nat) : a + 0 = a := by\n  simp"
WARM_ITEMS = 200


async def measure(settings: LeanSettings, label: str) -> str:
    started = time.perf_counter()
    async with open_lean_verifier(settings) as verifier:
        item = LeanItem(statement=STATEMENT, proof=PROOF, header="-- cold")
        [first] = await verifier.verify_batch([item])
        cold_s = time.perf_counter() - started
        assert first.status.value == "passed", first.detail
        await verifier.verify_batch([LeanItem(statement=STATEMENT, proof=PROOF)] * 4)
        started = time.perf_counter()
        results = await verifier.verify_batch(
            [LeanItem(statement=STATEMENT, proof=PROOF)] * WARM_ITEMS
        )
        warm_s = time.perf_counter() - started
        assert all(r.status.value == "passed" for r in results)
    return f"| {label} | {cold_s:.2f} | {WARM_ITEMS / warm_s:.0f} |"


async def main() -> None:
    print("| isolation | first item incl. REPL start (s) | warm proofs/s (2 REPLs) |")
    print("|---|---|---|")
    pool = {"pool_size_per_header": 2, "max_repls": 2}
    print(await measure(container_settings(**pool), "container (stand-in)"))
    process = LeanSettings(isolation="unsafe_process", repl_command=process_command(), **pool)
    print(await measure(process, "unsafe_process (stand-in)"))


if __name__ == "__main__":
    asyncio.run(main())
