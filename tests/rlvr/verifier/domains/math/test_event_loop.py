"""While a `/math` batch that is slow to check runs on a live uvicorn service, `/health` answers
within 50 ms every time it is asked, in one of three batches (issue 27: nothing a candidate sends
may hold the event loop or the GIL for longer).

The batch mixes the two ways an item can be slow: SymPy work that runs to its deadline in a
worker process (expanding a power of a sum), and texts of the size the in-process phase accepts,
each a repeated token that a backtracking pattern would choke on (the 500 tildes that once held
every domain for 15.7 s). Health is polled over one kept-alive connection, so each latency is the
server's answer, not a TCP handshake; the service gets one worker so the batch stays in flight for
seconds and the polls land while it runs.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from rlvr.verifier.domains.math.judge import MAX_NORMALIZE_CHARS
from tests.support.server import service_fixture

BOUND_S = 0.050
DEADLINE_S = 1.0  # each SymPy item runs to it
TOKENS = ["~", " \\text{ and } ", "x > 0 and ", "\\{x \\mid ", "1\\,", "\\boxed{1} or "]

math_url = service_fixture(
    {
        "VERIFIER_MATH__WORKERS": "1",
        "VERIFIER_MATH__CACHE_SIZE": "0",
        "VERIFIER_MATH__QUICK_ATTEMPT_S": "0",
        "VERIFIER_CODE__IS_ENABLED": "false",
        "VERIFIER_LEAN__IS_ENABLED": "false",
    }
)


def _slow_items() -> list[dict[str, Any]]:
    """Wrong answers, each slow to check: SymPy to its deadline, and item-limit texts."""
    items: list[dict[str, Any]] = [
        {
            "response": f"\\boxed{{(x+y+z+2w)^{{{30 + k}}}}}",
            "answer": f"(x+y+z+w)^{{{30 + k}}}",
            "timeout_s": DEADLINE_S,
        }
        for k in range(6)
    ]
    for token in TOKENS:
        body = (token * (MAX_NORMALIZE_CHARS // len(token) + 1))[: MAX_NORMALIZE_CHARS - 20]
        items.append({"response": f"\\boxed{{1{body}2}}", "answer": "12"})
        items.append({"response": f"The answer is $1{body}2$", "answer": body[:4000]})
    return [{"id": str(i), **item} for i, item in enumerate(items)]


# The batch is sent by another process: sending tens of megabytes (and reading the reply)
# takes GIL time in the sender, and a poll from the same process would time the client.
_SEND = """
import sys, httpx
body = open(sys.argv[2], "rb").read()
reply = httpx.post(sys.argv[1] + "/math", content=body,
                   headers={"content-type": "application/json"}, timeout=300)
open(sys.argv[3], "wb").write(b"%d\\n" % reply.status_code + reply.content)
"""


def _health_latencies_while(
    url: str, items: list[dict[str, Any]], workdir: Path
) -> tuple[list[float], Any]:
    """Polls `/health` over one kept-alive connection while another process sends `items` to
    `/math`; the latencies, and the batch's results."""
    body_path, reply_path = workdir / "body.json", workdir / "reply"
    body_path.write_bytes(json.dumps({"items": items}).encode())
    latencies: list[float] = []
    with httpx.Client(base_url=url, timeout=10) as client:
        for _ in range(3):  # the connection is open and the route warm before the batch
            assert client.get("/health").status_code == 200
        sender = subprocess.Popen(
            [sys.executable, "-c", _SEND, url, str(body_path), str(reply_path)]
        )
        try:
            while sender.poll() is None:
                started = time.perf_counter()
                reply = client.get("/health")
                latencies.append(time.perf_counter() - started)
                assert reply.status_code == 200
                time.sleep(0.02)
        finally:
            if sender.poll() is None:
                sender.kill()
            sender.wait()
    assert sender.returncode == 0, "the batch's sender failed"
    status, _, content = reply_path.read_bytes().partition(b"\n")
    assert status == b"200", content[:500]
    slowest = sorted(latencies)[-5:]
    print(f"{len(latencies)} polls, slowest {[round(s * 1000, 1) for s in slowest]} ms")
    return latencies, json.loads(content)["results"]


def test_health_answers_within_50_ms_while_a_slow_math_batch_runs(
    math_url: str, tmp_path: Path
) -> None:
    """Best of three batches, as `test_linear_time` takes the best of three: on a shared 2-core
    machine one poll can wait for a core; a hold in the service shows in every batch."""
    worst_s: list[float] = []
    for _ in range(3):
        latencies, results = _health_latencies_while(math_url, _slow_items(), tmp_path)
        assert len(latencies) >= 50, f"the batch ended after {len(latencies)} polls"
        # every item is a wrong answer: scored 0, never `error`
        assert {r["status"] for r in results} <= {"failed", "timed_out"}, results
        worst_s.append(max(latencies))
        if worst_s[-1] < BOUND_S:
            break
    assert min(worst_s) < BOUND_S, f"/health took {[round(s * 1000) for s in worst_s]} ms"


def test_health_answers_within_50_ms_while_a_batch_at_the_limits_is_read_and_answered(
    math_url: str, tmp_path: Path
) -> None:
    """The most items a request may hold (4096 by default), each of the size the in-process
    phase accepts: cheap to check, but the body and the reply are tens of megabytes. The body's
    bounds and parse, the in-process judging (which offers the GIL every 2 ms), the results
    and the reply's serialisation all run off the event loop. Best of three, as above."""
    filler = "Let me think. " * ((MAX_NORMALIZE_CHARS - 40) // 14)
    items = [
        {"id": str(i), "response": f"{filler}\\boxed{{{i}}}", "answer": str(i + 1)}
        for i in range(4000)
    ]
    worst_s: list[float] = []
    for _ in range(3):
        latencies, results = _health_latencies_while(math_url, items, tmp_path)
        assert {r["status"] for r in results} == {"failed"}
        worst_s.append(max(latencies))
        if worst_s[-1] < BOUND_S:
            break
    assert min(worst_s) < BOUND_S, f"/health took {[round(s * 1000) for s in worst_s]} ms"
