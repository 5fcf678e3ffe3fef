"""Load: 10,000 mixed items (math + code, some pathological) from 32 concurrent clients.

Every item must be answered exactly once, in order, with the verdict it deserves; no 5xx but
deliberate 503 back-pressure (which the client retries); memory must stay bounded; the sandbox
pool must end with the containers it started with. The numbers are printed for RESULTS.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator

import httpx
import psutil
import pytest

from rlvr.client import AsyncVerifierClient
from tests.reliability.workload import WorkItem, mixed_workload
from tests.support.server import LiveService, live_service

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("docker_engine")]

N_ITEMS = 10_000
N_CLIENTS = 32
ITEMS_PER_REQUEST = 64
CODE_SHARE = 0.2
POOL_LABEL = "reliability-load"


def _tree_rss_mb(process: psutil.Process) -> float:
    total = 0
    for proc in [process, *process.children(recursive=True)]:
        with contextlib.suppress(psutil.Error):
            total += proc.memory_info().rss
    return total / 2**20


class RssSampler(threading.Thread):
    """Samples the service's RSS (with its worker processes) every 0.25 s."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.process = psutil.Process(pid)
        self.peak_mb = 0.0
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.wait(0.25):
            self.peak_mb = max(self.peak_mb, _tree_rss_mb(self.process))

    def stop(self) -> float:
        self._stop_event.set()
        self.join()
        return self.peak_mb


def _sandbox_containers() -> int:
    import docker

    client = docker.from_env()
    try:
        return len(client.containers.list(filters={"label": f"rlvr.pool={POOL_LABEL}"}))
    finally:
        client.close()


def _server_errors(url: str) -> Counter[str]:
    text = httpx.get(f"{url}/metrics").text
    codes: Counter[str] = Counter()
    for match in re.finditer(r'rlvr_requests_total\{code="(\d+)",endpoint="(\w+)"\} (\S+)', text):
        codes[match.group(1)] += int(float(match.group(3)))
    return codes


async def _client_task(url: str, work: list[WorkItem], latencies: list[float]) -> list[dict]:
    answered: list[dict] = []
    async with AsyncVerifierClient(url, chunk_size=ITEMS_PER_REQUEST, deadline_s=600) as client:
        for start in range(0, len(work), ITEMS_PER_REQUEST):
            batch = [w.payload for w in work[start : start + ITEMS_PER_REQUEST]]
            sent = time.perf_counter()
            results = await client.verify(batch)
            latencies.append(time.perf_counter() - sent)
            answered.extend(r.model_dump() for r in results)
    return answered


async def _run_round(url: str, work: list[WorkItem], latencies: list[float]) -> list[list[dict]]:
    shares = [work[i::N_CLIENTS] for i in range(N_CLIENTS)]
    return list(await asyncio.gather(*(_client_task(url, s, latencies) for s in shares)))


@pytest.fixture(scope="module")
def service() -> Iterator[LiveService]:
    env = {"VERIFIER_CODE__SANDBOX__LABEL": POOL_LABEL}
    with live_service(env) as live:
        yield live


def test_ten_thousand_mixed_items_from_32_clients(service: LiveService) -> None:
    containers_before = _sandbox_containers()
    work = mixed_workload(N_ITEMS, CODE_SHARE, seed=7)
    halves = [work[: N_ITEMS // 2], work[N_ITEMS // 2 :]]
    sampler = RssSampler(service.process.pid)
    sampler.start()
    latencies: list[float] = []
    rss_after_round: list[float] = []
    mismatches: list[str] = []
    answered_ids: Counter[str] = Counter()
    started = time.perf_counter()
    for half in halves:
        per_client = asyncio.run(_run_round(service.url, half, latencies))
        rss_after_round.append(_tree_rss_mb(psutil.Process(service.process.pid)))
        shares = [half[i::N_CLIENTS] for i in range(N_CLIENTS)]
        for share, answers in zip(shares, per_client, strict=True):
            assert len(answers) == len(share)
            for sent, got in zip(share, answers, strict=True):
                assert got["id"] == sent.payload["id"], "results out of order"
                answered_ids[got["id"]] += 1
                expected = sent.expected
                if got["status"] not in expected.statuses or (
                    expected.reward is not None and got["reward"] != expected.reward
                ):
                    mismatches.append(
                        f"{got['id']} ({expected.kind}): {got['status']} {got['reward']} "
                        f"{got['detail'][:120]}"
                    )
    elapsed_s = time.perf_counter() - started
    peak_mb = sampler.stop()
    containers_after = _sandbox_containers()
    codes = _server_errors(service.url)
    latencies.sort()
    p99 = latencies[int(0.99 * (len(latencies) - 1))]
    print(
        f"\nload: {N_ITEMS} items / {N_CLIENTS} clients in {elapsed_s:.1f}s = "
        f"{N_ITEMS / elapsed_s:.0f} items/s; request p50 {latencies[len(latencies) // 2]:.2f}s "
        f"p99 {p99:.2f}s; peak RSS {peak_mb:.0f} MB (after rounds: "
        f"{', '.join(f'{r:.0f}' for r in rss_after_round)} MB); sandbox containers "
        f"{containers_before} -> {containers_after}; HTTP codes {dict(codes)}"
    )
    assert len(answered_ids) == N_ITEMS and set(answered_ids.values()) == {1}
    assert not mismatches, f"{len(mismatches)} wrong verdicts:\n" + "\n".join(mismatches[:20])
    unexpected_5xx = {c: n for c, n in codes.items() if c.startswith("5") and c != "503"}
    assert not unexpected_5xx
    assert containers_after == containers_before > 0
    # Memory is stable: the second half did not grow the service much past the first.
    assert rss_after_round[1] <= rss_after_round[0] * 1.3 + 64
