"""`/sessions` on a live service with real session containers: persistence within a session,
what a cell returns, the lifecycle (close, TTL, lifetime, the limit), bad ids and bodies."""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.support.sessions import (
    cell,
    close,
    new_session,
    open_session,
    run,
    session_service,
    session_stats,
    value,
)

pytestmark = [pytest.mark.docker]


@pytest.fixture(scope="module")
def url(docker_engine: None) -> Iterator[str]:
    # a CPU budget of 3 s per process: enough for every cell here but the spinning one
    with session_service(sessions_per_container="8", cpu_s="3") as service:
        yield service.url


def test_variables_imports_functions_and_files_persist_between_cells(url: str) -> None:
    sid = new_session(url)
    assert cell(url, sid, "import math\nx = 41\ndef twice(v):\n    return 2 * v")["status"] == "ok"
    assert value(url, sid, "x + 1") == "42"
    assert value(url, sid, "math.sqrt(16)") == "4.0"
    assert value(url, sid, "twice(x)") == "82"
    assert cell(url, sid, "open('notes.txt', 'w').write('kept')")["value"] == "4"
    assert value(url, sid, "open('notes.txt').read()") == "'kept'"
    assert close(url, sid).json() == {"session_id": sid, "closed": True}


def test_sympy_imported_in_one_cell_is_there_in_the_next(url: str) -> None:
    """What tool-integrated math reasoning does: import sympy once, use it cell after cell (the
    import is paid once per session, not per call)."""
    sid = new_session(url)
    assert cell(url, sid, "import sympy\nx = sympy.symbols('x')")["status"] == "ok"
    assert value(url, sid, "sympy.solve(x**2 - 4, x)") == "[-2, 2]"
    assert value(url, sid, "sympy.integrate(2 * x, (x, 0, 3))") == "9"
    close(url, sid)


def test_a_cell_returns_output_and_the_value_of_its_final_expression(url: str) -> None:
    sid = new_session(url)
    result = cell(url, sid, "import sys\nprint('out')\nprint('err', file=sys.stderr)\n[1, 2]")
    assert result["status"] == "ok" and result["session_alive"] is True
    assert result["stdout"] == "out\n" and result["stderr"] == "err\n"
    assert result["value"] == "[1, 2]" and result["error"] is None
    assert 0 <= result["elapsed_s"] < 5
    assert cell(url, sid, "None")["value"] is None  # as a notebook: None shows nothing
    assert cell(url, sid, "y = 3")["value"] is None  # a statement has no value
    assert value(url, sid, "_ + [3]") == "[1, 2, 3]"  # `_`: the last value shown


def test_an_exception_is_the_cells_error_and_the_session_goes_on(url: str) -> None:
    sid = new_session(url)
    cell(url, sid, "kept = 'yes'")
    result = cell(url, sid, "def f():\n    raise ValueError('bad input')\nf()")
    assert result["status"] == "error" and result["session_alive"] is True
    assert result["error"] == "ValueError: bad input"
    assert "Traceback" in result["stderr"] and "bad input" in result["stderr"]
    assert "<cell-" in result["stderr"]  # the cell's own frames, not the kernel's
    syntax = cell(url, sid, "def (")
    assert syntax["status"] == "error" and syntax["error"].startswith("SyntaxError")
    exited = cell(url, sid, "exit(3)")
    assert exited["status"] == "error" and exited["session_alive"] is True
    assert value(url, sid, "kept") == "'yes'"


def test_open_applies_files_setup_code_and_capped_limits(url: str) -> None:
    files = {"data/in.txt": base64.b64encode(b"3 4").decode()}
    answer = open_session(
        url, files=files, setup_code="a, b = map(int, open('data/in.txt').read().split())\na * b",
        memory_mb=10**6, timeout_s=5,
    )  # fmt: skip
    assert answer["setup"]["status"] == "ok" and answer["setup"]["value"] == "12"
    assert answer["limits"]["memory_mb"] == 2048  # capped by max_memory_mb
    assert answer["limits"]["timeout_s"] == 5
    assert value(url, answer["session_id"], "a + b") == "7"


def test_a_cell_past_its_timeout_kills_the_session_and_later_calls_say_so(url: str) -> None:
    sid = new_session(url)
    cell(url, sid, "x = 1")
    result = cell(url, sid, "import time\nprint('started', flush=True)\ntime.sleep(30)", 0.5)
    assert result["status"] == "timed_out" and result["session_alive"] is False
    assert result["stdout"] == "started\n"
    later = run(url, sid, "x")
    assert later.status_code == 404 and "timed_out" in later.json()["error"]["message"]
    assert close(url, sid).json()["closed"] is False  # it was dead, never silently reset


def test_memory_over_the_limit_is_memory_exceeded(url: str) -> None:
    sid = new_session(url, memory_mb=128)
    result = cell(url, sid, "blob = bytearray(512 * 1024 * 1024)")
    assert result["status"] == "memory_exceeded" and result["session_alive"] is False


def test_output_over_the_limit_is_output_limit_exceeded(url: str) -> None:
    sid = new_session(url)
    result = cell(url, sid, "while True:\n    print('x' * 10000)", 10)
    assert result["status"] == "output_limit_exceeded" and result["session_alive"] is False
    assert 0 < len(result["stdout"]) <= (1 << 20)


def test_a_thread_spinning_between_cells_ends_at_the_cpu_budget(url: str) -> None:
    sid = new_session(url)
    spin = "import threading\ndef spin():\n    while True:\n        pass\n"
    cell(url, sid, spin + "threading.Thread(target=spin, daemon=True).start()")
    reply = None
    for _ in range(40):  # 3 s of CPU, on a machine shared with other work
        time.sleep(0.5)
        reply = run(url, sid, "1")
        if reply.status_code == 404:
            break
    assert reply is not None and reply.status_code == 404, reply.text if reply else None
    assert "SIGXCPU (its CPU budget is spent)" in reply.json()["error"]["message"]


def test_cells_of_one_session_run_one_at_a_time(url: str) -> None:
    sid = new_session(url)
    cell(url, sid, "import time\nlog = []")
    slow = "log.append('a0'); time.sleep(0.5); log.append('a1')"
    results: list[dict[str, object]] = []
    first = threading.Thread(target=lambda: results.append(cell(url, sid, slow)))
    first.start()
    time.sleep(0.1)
    results.append(cell(url, sid, "log.append('b')"))  # waits for the first cell
    first.join()
    assert value(url, sid, "log") == "['a0', 'a1', 'b']"


def test_closing_a_session_mid_cell_answers_the_cell_and_spares_the_container(url: str) -> None:
    busy, neighbour = new_session(url), new_session(url)
    results: list[dict[str, object]] = []
    running = threading.Thread(
        target=lambda: results.append(cell(url, busy, "import time\ntime.sleep(20)"))
    )
    running.start()
    time.sleep(0.5)
    started = time.monotonic()
    assert close(url, busy).json()["closed"] is True
    running.join()
    assert time.monotonic() - started < 5  # answered at the close, not at its deadline
    assert results[0]["status"] == "error" and results[0]["session_alive"] is False
    assert "closed" in str(results[0]["error"])
    assert value(url, neighbour, "'still here'") == "'still here'"
    assert session_stats(url)["containers_lost_total"] == 0


@pytest.mark.parametrize("path", ["nope", "x" * 128, "%2e%2e"])
def test_unknown_ids_are_404_with_a_message(url: str, path: str) -> None:
    for reply in (run(url, path, "1"), close(url, path)):
        assert reply.status_code == 404
        assert "the replica (and worker process) that opened it" in reply.json()["error"]["message"]


def test_an_unknown_id_of_this_process_is_404_with_a_message(url: str) -> None:
    sid = new_session(url)
    mine = sid.split("-", 1)[0] + "-neveropened"
    reply = run(url, mine, "1")
    assert reply.status_code == 404 and "never opened here" in reply.json()["error"]["message"]
    close(url, sid)


def test_a_closed_session_is_404_that_says_closed(url: str) -> None:
    sid = new_session(url)
    close(url, sid)
    reply = run(url, sid, "1")
    assert reply.status_code == 404 and "closed" in reply.json()["error"]["message"]
    assert close(url, sid).status_code == 404


@pytest.mark.parametrize(
    "path, body",
    [
        ("/sessions", {"memory_mb": -1}),
        ("/sessions", {"timeout_s": "5"}),
        ("/sessions", {"unknown": 1}),
        ("/sessions", {"files": {"../escape": "eA=="}}),
        ("/sessions", {"files": {"ok.txt": "not base64!"}}),
        ("/sessions/any/run", {}),
        ("/sessions/any/run", {"code": 1}),
        ("/sessions/any/run", {"code": "1", "timeout_s": 0}),
    ],
)
def test_bad_bodies_are_422(url: str, path: str, body: dict[str, object]) -> None:
    reply = httpx.post(f"{url}{path}", json=body, timeout=30)
    assert reply.status_code == 422, reply.text
    assert reply.json()["error"]["code"] == "validation_error"


def test_idle_sessions_expire_and_then_say_so(url: str) -> None:
    sid = new_session(url, idle_ttl_s=0.5)
    kept = new_session(url)
    time.sleep(1.5)
    reply = run(url, sid, "1")
    assert reply.status_code == 404 and "idle" in reply.json()["error"]["message"]
    assert value(url, kept, "1") == "1"


def test_a_session_past_its_lifetime_is_closed_even_when_busy(url: str) -> None:
    sid = new_session(url, max_lifetime_s=1.0)
    assert cell(url, sid, "import time; time.sleep(0.3); 1")["value"] == "1"
    time.sleep(1.5)
    reply = run(url, sid, "1")
    assert reply.status_code == 404 and "lifetime" in reply.json()["error"]["message"]


def test_health_and_metrics_report_sessions(url: str) -> None:
    sid = new_session(url)
    stats = session_stats(url)
    assert stats["open"] >= 1 and stats["max_sessions"] == 1024 and stats["containers"] >= 1
    metrics = httpx.get(f"{url}/metrics").text
    for name in (
        "rlvr_sessions_open",
        "rlvr_sessions_opened_total",
        "rlvr_sessions_closed_total",
        "rlvr_sessions_expired_total",
        "rlvr_sessions_lost_total",
        "rlvr_sessions_capacity 1024.0",
    ):
        assert name in metrics, name
    close(url, sid)


def test_beyond_the_host_limit_a_503_with_retry_after(docker_engine: None) -> None:
    with session_service(max_sessions="2", sessions_per_container="2") as service:
        first, second = new_session(service.url), new_session(service.url)
        reply = httpx.post(f"{service.url}/sessions", json={}, timeout=60)
        assert reply.status_code == 503 and reply.headers["Retry-After"] == "5"
        assert "max_sessions=2" in reply.json()["error"]["message"]
        close(service.url, first)
        third = new_session(service.url)  # a place came free
        assert value(service.url, second, "2 + 2") == "4"
        for _ in range(100):  # the second container, started ahead when the first filled
            if session_stats(service.url)["containers"] == 2:
                break
            time.sleep(0.2)
        assert session_stats(service.url)["containers"] == 2
        close(service.url, second)
        close(service.url, third)
        stats = session_stats(service.url)  # empty, one retired: a burst's containers go
        assert stats["containers"] == 1 and stats["containers_retired_total"] == 1
