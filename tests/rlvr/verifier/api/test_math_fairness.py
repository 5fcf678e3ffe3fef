"""Concurrent `/math` batches share the SymPy workers fairly, on a live uvicorn service: a small
batch sent while another client's big batch of slow items is running is served between the big
batch's items, not after all of them."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import httpx
import pytest

from tests.support.server import running_service

DEADLINE_S = 1.5  # each big-batch item runs to it (expanding a 4-variable power takes seconds)
BIG_ITEMS = 24  # one worker: 36 s of work queued ahead of the small batch
SMALL = [
    {"id": "a", "response": "\\boxed{(1+x)^3}", "answer": "(x+1)^3"},
    {"id": "b", "response": "\\boxed{2\\sqrt{2}}", "answer": "\\sqrt{8}"},
]


def _slow(k: int) -> dict[str, Any]:
    """A wrong answer that is slow to check (distinct per k: no verdict is reused)."""
    power = 20 + k
    return {
        "response": f"\\boxed{{(x+y+z+2w)^{{{power}}}}}",
        "answer": f"(x+y+z+w)^{{{power}}}",
        "timeout_s": DEADLINE_S,
    }


@pytest.fixture(scope="module")
def math_url() -> Iterator[str]:
    env = {
        "VERIFIER_MATH__WORKERS": "1",
        "VERIFIER_MATH__CACHE_SIZE": "0",
        "VERIFIER_MATH__QUICK_ATTEMPT_S": "0",
        "VERIFIER_CODE__IS_ENABLED": "false",
        "VERIFIER_LEAN__IS_ENABLED": "false",
    }
    with running_service(env) as url:
        yield url


def _post(url: str, items: Sequence[Mapping[str, object]]) -> list[dict[str, Any]]:
    response = httpx.post(f"{url}/math", json={"items": items}, timeout=120)
    assert response.status_code == 200, response.text
    results: list[dict[str, Any]] = response.json()["results"]
    return results


def _slow_items_started(url: str) -> int:
    stats = httpx.get(f"{url}/health").json()["domains"]["math"]["stats"]
    return int(stats["submitted"])


def test_a_small_batch_is_not_starved_by_a_big_batch_in_flight(math_url: str) -> None:
    big: dict[str, Any] = {}

    def send_big() -> None:
        started = time.perf_counter()
        big["results"] = _post(math_url, [_slow(k) for k in range(BIG_ITEMS)])
        big["seconds"] = time.perf_counter() - started

    before = _slow_items_started(math_url)
    sender = threading.Thread(target=send_big)
    sender.start()
    deadline = time.monotonic() + 30
    while _slow_items_started(math_url) < before + 2:  # the big batch is running
        assert time.monotonic() < deadline, "the big batch never started"
        time.sleep(0.05)

    started = time.perf_counter()
    small = _post(math_url, SMALL)
    small_s = time.perf_counter() - started
    big_still_running = sender.is_alive()
    sender.join()

    assert [(r["id"], r["status"]) for r in small] == [("a", "passed"), ("b", "passed")]
    assert big_still_running, "the big batch ended first: nothing was measured"
    # first in, first out, the small batch would wait for the big batch's 22+ remaining items
    # (33 s and more); served in turn, for the few handed to the pool and one per turn
    assert small_s < (BIG_ITEMS - 10) * DEADLINE_S, f"small batch took {small_s:.1f} s"
    # wrong answers all: scored 0 (failed, or timed_out at their own deadline), never `error`
    assert {r["status"] for r in big["results"]} <= {"timed_out", "failed"}
    assert {r["reward"] for r in big["results"]} == {0.0}
    print(f"small batch {small_s:.2f} s while the big batch ran {big['seconds']:.1f} s")
