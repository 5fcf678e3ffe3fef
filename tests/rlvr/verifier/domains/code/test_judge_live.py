"""Scoring and reuse of verdicts through the live service and a real Docker sandbox.

The verdicts come from the sandbox; these tests check that weights, groups and `scoring` turn
them into the right reward, that identical items of one request run once (the others get a
copy marked `reused: batch`), that later requests are served from the cache (`reused: cache`),
and that what must not be reused (timeouts across requests, different programs) is not.
"""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from tests.support.http import post_code
from tests.support.server import REUSE, service_fixture

pytestmark = [pytest.mark.docker]


# A one-container service with the reuse of verdicts on (the test suite's default is off).
code_url = service_fixture(
    {"VERIFIER_CODE__POOL_SIZE": "1", "VERIFIER_LEAN__IS_ENABLED": "false", **REUSE},
    needs_docker=True,
)


ECHO_DOUBLE = "n = int(input())\nprint(2 * n if n < 3 else 0)\n"


def stdio(n: int, **extra: Any) -> dict[str, Any]:
    return {"kind": "stdio", "stdin": f"{n}\n", "stdout": f"{2 * n}\n", **extra}


def fresh(program: str) -> str:
    """The program made unique to this test run, so the cache of earlier runs cannot answer."""
    return f"{program}# {uuid.uuid4().hex}\n"


def stats(url: str) -> dict[str, Any]:
    return dict(httpx.get(f"{url}/health", timeout=30).json()["domains"]["code"]["stats"])


@pytest.mark.parametrize(
    ("label", "scoring", "tests", "status", "reward"),
    [
        ("fraction, weighted", "fraction", [stdio(1), stdio(5, weight=3)], "failed", 0.25),
        ("all: one failure is 0", "all", [stdio(1), stdio(2), stdio(5)], "failed", 0.0),
        ("all: all pass is 1", "all", [stdio(1), stdio(2)], "passed", 1.0),
        (
            "groups: the failed subtask earns nothing",
            "groups",
            [
                stdio(1, group="small"),
                stdio(2, group="small"),
                stdio(5, group="big", weight=2),
                stdio(1, group="big", weight=2),
            ],
            "failed",
            2 / 6,
        ),
        (
            "groups: ungrouped test is its own subtask",
            "groups",
            [stdio(1), stdio(5, group="g"), stdio(2, group="g")],
            "failed",
            1 / 3,
        ),
    ],
)
def test_reward_follows_item_scoring(
    code_url: str,
    label: str,
    scoring: str,
    tests: list[dict[str, Any]],
    status: str,
    reward: float,
) -> None:
    item = {"id": label, "code": fresh(ECHO_DOUBLE), "scoring": scoring, "tests": tests}
    (result,) = post_code(code_url, [item])
    assert result["status"] == status, result
    assert result["reward"] == pytest.approx(reward), result
    statuses = [t["status"] for t in result["tests"]]
    expected = ["passed" if t["stdin"].strip() in ("1", "2") else "failed" for t in tests]
    assert statuses == expected


def test_stop_on_first_failure_still_skips_and_the_skipped_earn_nothing(code_url: str) -> None:
    item = {
        "code": fresh(ECHO_DOUBLE),
        "scoring": "groups",
        "stop_on_first_failure": True,
        "tests": [stdio(1, group="a"), stdio(5, group="b"), stdio(2, group="c")],
    }
    (result,) = post_code(code_url, [item])
    assert [t["status"] for t in result["tests"]] == ["passed", "failed", "failed"]
    assert "stop_on_first_failure" in result["tests"][2]["detail"]
    assert result["reward"] == pytest.approx(1 / 3)


def test_identical_items_run_once_and_the_copies_say_so(code_url: str) -> None:
    program = fresh("print(int(input()) * 2)\n")
    tests = [stdio(1), stdio(4), {"kind": "stdio", "stdin": "3\n", "stdout": "7\n"}]
    items = [
        {"id": "first", "code": program, "tests": tests},
        {"id": "fenced", "response": f"Here:\n```python\n{program}```\n", "tests": tests},
        {"id": "same", "code": program, "tests": tests},
        {"id": "other-tests", "code": program, "tests": tests[:2]},
        {"id": "other-program", "code": program + "\n", "tests": tests},
    ]
    before = stats(code_url)
    results = post_code(code_url, items)
    after = stats(code_url)
    by_id = {r["id"]: r for r in results}
    assert [r["id"] for r in results] == [i["id"] for i in items]
    assert by_id["first"]["reused"] is None
    assert by_id["fenced"]["reused"] == "batch" and by_id["same"]["reused"] == "batch"
    assert by_id["other-tests"]["reused"] is None
    assert by_id["other-program"]["reused"] is None
    for copy in ("fenced", "same"):
        assert by_id[copy]["elapsed_s"] == 0.0
        for field in ("status", "reward", "detail", "tests"):
            assert by_id[copy][field] == by_id["first"][field]
    assert by_id["first"]["reward"] == pytest.approx(2 / 3)
    assert by_id["other-tests"]["reward"] == 1.0
    assert after["items_run"] - before["items_run"] == 3
    assert after["reused_in_batch"] - before["reused_in_batch"] == 2

    # A later request with the same items is answered from the cache, without a run.
    again = post_code(code_url, [{**items[2], "id": "later"}, items[3]])
    assert [r["reused"] for r in again] == ["cache", "cache"]
    assert again[0]["id"] == "later"
    assert again[0]["tests"] == by_id["first"]["tests"]
    assert stats(code_url)["items_run"] == after["items_run"]


def test_timeouts_are_copied_within_a_request_but_never_cached(code_url: str) -> None:
    program = fresh("while True:\n    pass\n")
    item = {"code": program, "timeout_s": 1, "tests": [{"kind": "stdio", "stdout": "x"}]}
    first = post_code(code_url, [{**item, "id": "a"}, {**item, "id": "b"}])
    assert [r["status"] for r in first] == ["timed_out", "timed_out"]
    assert [r["reused"] for r in first] == [None, "batch"]
    (later,) = post_code(code_url, [{**item, "id": "c"}])
    assert later["status"] == "timed_out"
    assert later["reused"] is None  # ran again: a timeout may be the machine's load


def test_a_verdict_with_a_runtime_error_is_cached_like_any_other(code_url: str) -> None:
    item = {"code": fresh("raise SystemExit(3)\n"), "tests": [stdio(1)]}
    (first,) = post_code(code_url, [item])
    (second,) = post_code(code_url, [item])
    assert first["tests"][0]["status"] == second["tests"][0]["status"] == "runtime_error"
    assert (first["reused"], second["reused"]) == (None, "cache")


def test_candidates_that_differ_only_in_stdin_handling_are_not_confused(code_url: str) -> None:
    """Same program text, different tests' stdin: distinct verdicts, no copying between them."""
    program = fresh("print(int(input()) * 2)\n")
    items = [
        {"id": "x", "code": program, "tests": [stdio(1)]},
        {"id": "y", "code": program, "tests": [{"kind": "stdio", "stdin": "1\n", "stdout": "3"}]},
    ]
    x, y = post_code(code_url, items)
    assert (x["status"], y["status"]) == ("passed", "failed")
    assert (x["reused"], y["reused"]) == (None, None)
