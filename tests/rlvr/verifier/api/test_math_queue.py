"""`/math`'s bounded queue on a live uvicorn service: a full queue is a 503 with `Retry-After`
(as `/code` and `/lean`), and a client that hangs up mid-batch gets its queue places back."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import httpx

from tests.support.http import post_items
from tests.support.server import service_fixture

MAX_QUEUE = 4
DEADLINE_S = 8  # per SymPy item: a full batch of them, one worker, would take 4 x 8 s
HUGE = {"response": "\\boxed{10^{10^{10}}}", "answer": "10^{10^{10}}+1", "timeout_s": DEADLINE_S}


math_url = service_fixture(
    {
        "VERIFIER_MATH__WORKERS": "1",
        "VERIFIER_MATH__MAX_QUEUE_ITEMS": str(MAX_QUEUE),
        "VERIFIER_MATH__RETRY_AFTER_S": "3",
        "VERIFIER_MATH__CACHE_SIZE": "0",
        "VERIFIER_MATH__QUICK_ATTEMPT_S": "0",
        "VERIFIER_CODE__IS_ENABLED": "false",
        "VERIFIER_LEAN__IS_ENABLED": "false",
    }
)


def math_stats(url: str) -> dict[str, Any]:
    stats: dict[str, Any] = httpx.get(f"{url}/health").json()["domains"]["math"]["stats"]
    return stats


def wait_until(predicate: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not predicate():
        assert time.monotonic() < deadline, f"not {what} within {timeout_s} s"
        time.sleep(0.05)


def test_full_queue_is_503_with_retry_after_and_a_hang_up_gives_the_places_back(
    math_url: str,
) -> None:
    too_many = post_items(
        math_url, "/math", [{"response": "\\boxed{4}", "answer": "4"}] * (MAX_QUEUE + 1)
    )
    assert too_many.status_code == 413  # more than the whole queue: no retry could help
    error = too_many.json()["error"]
    assert error["code"] == "payload_too_large"
    assert f"max_queue_items={MAX_QUEUE}" in error["message"]

    outcome: dict[str, BaseException] = {}

    def hang_up_mid_batch() -> None:
        # the client gives up (read timeout) while its batch is running, and closes the socket
        try:
            post_items(math_url, "/math", [HUGE] * MAX_QUEUE, timeout_s=4)
        except httpx.ReadTimeout as exc:
            outcome["error"] = exc

    client = threading.Thread(target=hang_up_mid_batch)
    client.start()
    wait_until(lambda: math_stats(math_url)["in_flight_items"] == MAX_QUEUE, 10, "admitted")
    while_full = post_items(math_url, "/math", [{"response": "\\boxed{4}", "answer": "4"}])
    assert while_full.status_code == 503 and while_full.headers["Retry-After"] == "3"
    error = while_full.json()["error"]
    assert error["code"] == "overloaded" and f"max_queue_items={MAX_QUEUE}" in error["message"]
    client.join()
    assert isinstance(outcome.get("error"), httpx.ReadTimeout)

    # well before the batch could have run to its end (4 x 8 s), its places are free again
    wait_until(lambda: math_stats(math_url)["in_flight_items"] == 0, 15, "given back")
    assert math_stats(math_url)["timeouts"] == 0  # no item ran to its deadline: cancelled
    full = post_items(
        math_url,
        "/math",
        [
            {"id": "a", "response": "\\boxed{4}", "answer": "4"},
            {"id": "b", "response": "\\boxed{5}", "answer": "4"},
            {"id": "c", "response": "\\boxed{(1+x)^2}", "answer": "(x+1)^2"},
            {"id": "d", "response": "no answer here", "answer": "4"},
        ],
    )
    assert full.status_code == 200
    results = full.json()["results"]
    assert [(r["id"], r["status"], r["reward"]) for r in results] == [
        ("a", "passed", 1.0),
        ("b", "failed", 0.0),
        ("c", "passed", 1.0),
        ("d", "failed", 0.0),
    ]
