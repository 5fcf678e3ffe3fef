"""Hostile candidates against the host side of `/code` (issue 13: items 1, 2, 3, 6, 7, 9).

A live uvicorn service with a real Docker pool. What the host does with a candidate's text and
replies (extraction, decoding, comparison, rendering) must neither stall the event loop nor
turn a wrong answer into `error` or an HTTP 500. While each hostile request is processed,
`/health` is polled: its latency staying far below the hostile item's old cost (seconds to
hours) shows the loop stayed free. The bounds are generous on purpose: this is not a speed test.
"""

from __future__ import annotations

import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from tests.support.http import verdicts
from tests.support.server import service_fixture

pytestmark = [pytest.mark.docker]

HEALTH_BOUND_S = 3.0  # the attacks below cost the old host 10 s to hours on the event loop
HONEST = {
    "id": "honest",
    "code": "def add(a, b):\n    return a + b\n",
    "tests": [{"kind": "call", "fn": "add", "args": [2, 3], "expected": 5}],
}


url = service_fixture(
    {
        "VERIFIER_CODE__POOL_SIZE": "2",
        "VERIFIER_CODE__DEFAULT_TIMEOUT_S": "5",
        "VERIFIER_LEAN__IS_ENABLED": "false",
    },
    needs_docker=True,
)


@contextmanager
def health_watch(base: str) -> Iterator[list[float]]:
    """Poll `/health` until the block ends; yields the list of latencies (filled as it goes)."""
    latencies: list[float] = []
    done = threading.Event()

    def poll() -> None:
        with httpx.Client(timeout=600) as client:
            while not done.is_set():
                started = time.perf_counter()
                client.get(f"{base}/health")
                latencies.append(time.perf_counter() - started)
                time.sleep(0.05)

    thread = threading.Thread(target=poll, daemon=True)
    thread.start()
    while not latencies and thread.is_alive():  # the probe is up before the attack starts
        time.sleep(0.01)
    try:
        yield latencies
    finally:
        done.set()
        thread.join()


def hostile_round(base: str, items: list[dict[str, Any]]) -> tuple[list[dict], list[float]]:
    """The items plus an honest one in the same request, with `/health` polled meanwhile."""
    with health_watch(base) as latencies:
        results = verdicts(base, "/code", [*items, HONEST], timeout_s=600)
    assert results[-1]["status"] == "passed", results[-1]
    assert latencies, "the health probe never ran"
    assert max(latencies) < HEALTH_BOUND_S, latencies
    return results[:-1], latencies


def code_item(code: str, tests: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"code": textwrap.dedent(code), "tests": tests, "timeout_s": 5, **extra}


def call(expected: Any, fn: str = "f", **extra: Any) -> dict[str, Any]:
    return {"kind": "call", "fn": fn, "expected": expected, **extra}


# ---------------------------------------------------------------- 1. extraction stalls


@pytest.mark.parametrize(
    "response",
    [
        "```python\n" * 90_000,  # every opener unclosed: the old regex rescanned to the end
        "~~~python\n" * 90_000,
        "````\n```python\n" * 60_000,  # blocks of ```python lines: judged, and wrong
        "```python\r\n" * 90_000,
        "x\n```py\n" * 80_000 + "```python\nprint(1)\n",
    ],
    ids=["backticks", "tildes", "mixed-lengths", "crlf", "unclosed-at-end"],
)
def test_unclosed_fences_are_extracted_in_linear_time_off_the_loop(url: str, response: str) -> None:
    item = {"response": response, "tests": [{"kind": "stdio", "stdin": "", "stdout": "1\n"}]}
    results, _ = hostile_round(url, [item, item])
    for result in results:
        assert result["status"] == "failed", result


def test_a_fence_closed_right_before_an_end_token_is_a_block(url: str) -> None:
    body = "```python\nprint(1)\n```"
    tails = [
        "<|im_end|>",
        "<|eot_id|>",
        "</s>",
        "<｜end▁of▁sentence｜>",
        "\n<|im_end|>\n<|endoftext|>",
    ]
    items = [
        {"response": body + tail, "tests": [{"kind": "stdio", "stdin": "", "stdout": "1\n"}]}
        for tail in tails
    ]
    assert [r["status"] for r in verdicts(url, "/code", items, timeout_s=600)] == ["passed"] * len(
        tails
    )


def test_a_program_that_is_not_unicode_text_is_a_failure_not_an_error(url: str) -> None:
    """A lone surrogate cannot be written to the sandbox: it used to fault the executor, retire
    the container (twice, with the retry) and come back `error`."""
    stdio = [{"kind": "stdio", "stdin": "", "stdout": "1\n"}]
    items = [
        {"response": "```python\nx = '\ud800'\nprint(1)\n```", "tests": stdio},
        {"code": "print(1)  # \udfff", "tests": stdio},
    ]
    results, _ = hostile_round(url, items)
    assert [r["status"] for r in results] == ["failed", "failed"], results
    assert all("not valid Unicode" in r["detail"] for r in results)


# ---------------------------------------------------------------- 2. decode costs

# The candidate writes its reply line to the response pipe (fd 4) itself: the bytes of a reply
# are the candidate's, whatever the codec in the sandbox would have written.
FORGE = """
import json, os
def f():
    os.write(4, (json.dumps({"value": VALUE}) + "\\n").encode())
    os._exit(0)
"""
COLLIDING = ",".join(str(k * (2**61 - 1)) for k in range(1, 40_000))  # all hash to 0


def forged(value: str, expected: Any, tests: int = 3) -> dict[str, Any]:
    return code_item(f"VALUE = {value!r}\n" + FORGE, [call(expected) for _ in range(tests)])


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('{"$t":"set","v":[' + COLLIDING + "]}", [0]),
        ('{"$t":"frozenset","v":[' + COLLIDING + "]}", [0]),
        (
            '{"$t":"dict","v":['
            + ",".join(f"[{m},0]" for m in COLLIDING.split(",")[:30_000])
            + "]}",
            {"a": 0},
        ),
        ('{"$t":"dict","v":[[{"$t":"set","v":[' + COLLIDING + "]},0]]}", {"a": 0}),
        ("[" * 100_000 + "]" * 100_000, [0]),  # nesting beyond any recursion limit
        ("[" + ",".join(["0"] * 400_000) + "]", [0]),  # many elements
        ('{"$t":"int","v":"0x' + "f" * 900_000 + '"}', 1),  # a 3.6-million-bit int
        ('{"$t":"int","v":"0x' + "f" * 900_000 + '"}', 2.5),
        ("9" * 5000, 1),  # a decimal int beyond Python's int-str limit
        ('"' + "x" * 900_000 + '"', "x"),
        ('{"$t":"bytes","v":"' + "ab" * 400_000 + '"}', "x"),
        ('{"$t":"complex","v":[[' + "[" * 5000 + "]" * 5000 + "],1]}", 1),
        ('{"$t":"nonsense","v":[]}', 1),
    ],
    ids=[
        "colliding-set",
        "colliding-frozenset",
        "colliding-dict-keys",
        "set-as-dict-key",
        "deep-nesting",
        "many-elements",
        "huge-int",
        "huge-int-vs-float",
        "decimal-int-over-limit",
        "huge-string",
        "huge-bytes",
        "malformed-complex",
        "unknown-tag",
    ],
)
def test_hostile_replies_are_judged_in_bounded_time_as_failures(
    url: str, value: str, expected: Any
) -> None:
    (result,), _ = hostile_round(url, [forged(value, expected)])
    assert result["status"] == "failed", result
    # each forged reply is judged `failed`; the process it exits from leaves the next test of
    # its session without an answer (`runtime_error`); nothing is an error or a pass
    statuses = [t["status"] for t in result["tests"]]
    assert statuses[0] == "failed" and set(statuses) <= {"failed", "runtime_error"}, statuses
    assert all(len(t["detail"]) < 1000 for t in result["tests"])


# ---------------------------------------------------------------- 3 & 6. faults stay per item


@pytest.mark.parametrize(
    ("code", "test", "status"),
    [
        ("def f():\n    return 10**400\n", call(2.5), "failed"),
        ("def f():\n    return 10**400\n", call(2.5, float_tolerance=1e300), "failed"),
        ("def f():\n    return -10**400\n", call(-1e308, float_tolerance=0.5), "failed"),
        ("def f():\n    return 10**5000\n", call(1), "failed"),
        ("def f():\n    return [10**5000] * 3\n", call([1, 2, 3]), "failed"),
        ("def f():\n    return {'a': 10**5000}\n", call({"a": 1.5}), "failed"),
        ("def f():\n    return float('nan')\n", call(1.0, float_tolerance=1e-6), "failed"),
        ("def f():\n    return float('inf')\n", call(1e308, float_tolerance=1e-6), "failed"),
        ("def f():\n    return (1, 10**5000)\n", call([1, 2]), "failed"),
        ("def f():\n    raise ValueError('\\ud800')\n", call(1), "runtime_error"),
        ("def f():\n    raise ValueError('x' * 10**6)\n", call(1), "runtime_error"),
        ("raise SystemExit('\\udcff' * 1000)\n", call(1), "runtime_error"),
        ("def f():\n    return '\\ud800'\n", call("x"), "failed"),
    ],
)
def test_a_wrong_answer_is_the_candidates_verdict_never_an_error(
    url: str, code: str, test: dict[str, Any], status: str
) -> None:
    (result,), _ = hostile_round(url, [code_item(code, [test, test])])
    assert result["status"] == "failed", result
    assert [t["status"] for t in result["tests"]] == [status, status], result["tests"]
    assert "Exceeds the limit" not in result["detail"]


def test_honest_values_still_pass(url: str) -> None:
    code = """
    def f(kind):
        return {"big": 10**1200, "float": 2.5, "int_for_float": 3, "tuple": (1, [2.0]),
                "dict": {"a": [1, {"b": None}]}, "str": "é\\x00"}[kind]
    """
    tests = [
        call(10**1200, args=["big"]),
        call(2.5000001, args=["float"], float_tolerance=1e-6),
        call(3.0, args=["int_for_float"]),
        call([1, [2.0]], args=["tuple"]),
        call({"a": [1, {"b": None}]}, args=["dict"]),
        call("é\x00", args=["str"]),
    ]
    (result,) = verdicts(url, "/code", [code_item(code, tests)], timeout_s=600)
    assert [t["status"] for t in result["tests"]] == ["passed"] * len(tests), result["tests"]


@pytest.mark.parametrize(
    "line",
    [
        '{"raised": [' + ",".join(["0"] * 200_000) + '], "message": {"a": 1}}',
        '{"raised": "E", "message": "\\ud800\\udfff\\ud800"}',
        '{"memory": ' + "[" * 50 + "]" * 50 + "}",
    ],
    ids=["non-text-exception", "surrogates", "odd-memory-flag"],
)
def test_forged_reply_fields_are_judged_not_expanded(url: str, line: str) -> None:
    code = f"import os\ndef f():\n    os.write(4, {line + chr(10)!r}.encode())\n    os._exit(0)\n"
    (result,), _ = hostile_round(url, [code_item(code, [call(1)])])
    assert result["status"] == "failed", result
    assert result["tests"][0]["status"] in ("runtime_error", "memory_exceeded"), result["tests"]


@pytest.mark.parametrize(
    ("code", "status"),
    [
        ("import sys\nsys.stdout.buffer.write(b'\\xff\\xfe\\xed\\n')\n", "failed"),
        (
            "import sys\nsys.stderr.buffer.write(b'\\xff' * 5000)\nraise SystemExit(1)\n",
            "runtime_error",
        ),
        ("import sys\nsys.stdout.write('\\ud800\\n')\n", "runtime_error"),
    ],
    ids=["bad-utf8-stdout", "bad-utf8-stderr", "surrogate-print"],
)
def test_output_that_is_not_text_is_judged(url: str, code: str, status: str) -> None:
    stdio = [{"kind": "stdio", "stdin": "", "stdout": "1\n"}]
    (result,), _ = hostile_round(url, [code_item(code, stdio)])
    assert result["tests"][0]["status"] == status, result


# ---------------------------------------------------------------- 7. stdio tolerance


@pytest.mark.parametrize(
    ("printed", "expected", "tolerance", "status"),
    [
        ("1152921504606846977", "1152921504606846976", 0.0, "failed"),
        ("1000000100", "1000000007", 1e-6, "failed"),
        ("inf", "1e400", 1e-6, "failed"),
        ("1e400", "inf", 1e-6, "failed"),
        ("nan", "0.5", 1e9, "failed"),
        ("9" * 6000, "9" * 5999 + "8", 1e-6, "failed"),
        ("1.0000001e9", "1000000007", 1e-6, "failed"),  # an expected integer is exact
        ("1000000007.0", "1000000007", 1e-6, "passed"),
        ("0.30000000000000004", "0.3", 1e-9, "passed"),
        ("1000000007", "1000000007", 1e-6, "passed"),
        ("1.00000000001e400", "1e400", 1e-6, "passed"),
    ],
)
def test_stdio_integers_compare_exactly_and_infinities_never_match_finite_values(
    url: str, printed: str, expected: str, tolerance: float, status: str
) -> None:
    test = {"kind": "stdio", "stdin": "", "stdout": expected + "\n", "float_tolerance": tolerance}
    (result,) = verdicts(url, "/code", [code_item(f"print({printed!r})\n", [test])], timeout_s=600)
    assert result["tests"][0]["status"] == status, result


def test_forged_replies_carrying_json_trees_never_reach_the_host_as_trees(url: str) -> None:
    """Each of 120 calls answers with a forged line whose `value` is a 300,000-element list plus
    unknown keys: ~70 MB of JSON tree the host would otherwise parse on its event loop as part
    of the job's answer. Each test is a malformed answer, and the loop stays free (that the tree
    is dropped inside the sandbox is shown by `test_procs.py`'s unit test of `_reply_fields`)."""
    line = '{"value": [' + ",".join(["0"] * 300_000) + '], "junk": {"a": [1, 2]}}'
    code = f"import os\ndef f(i):\n    os.write(4, {line + chr(10)!r}.encode())\n"
    tests = [call(i, args=[i]) for i in range(120)]
    (result,), _ = hostile_round(url, [code_item(code, tests, timeout_s=5)])
    assert result["status"] == "failed", result
    statuses = {t["status"] for t in result["tests"]}
    assert statuses <= {"runtime_error", "failed"}, statuses
    assert result["tests"][0]["detail"] in ("malformed answer", "return value too large"), result
