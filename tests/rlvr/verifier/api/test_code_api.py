"""`POST /code` and `/health` on a live service with a real Docker sandbox pool."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
import pytest

from tests.support.http import post_items
from tests.support.server import running_service, service_fixture

pytestmark = [pytest.mark.docker]

MAX_QUEUE = 40


code_api_url = service_fixture(
    {
        "VERIFIER_CODE__POOL_SIZE": "2",
        "VERIFIER_CODE__MAX_QUEUE_ITEMS": str(MAX_QUEUE),
        "VERIFIER_LEAN__IS_ENABLED": "false",
    },
    needs_docker=True,
)


def in_flight_items(url: str) -> int:
    return int(httpx.get(f"{url}/health").json()["domains"]["code"]["stats"]["in_flight_items"])


ADD = "def add(a, b):\n    return a + b\n"
CPP_SUM = (
    "#include <iostream>\nint main(){ long a, b; std::cin >> a >> b; std::cout << a + b << '\\n'; }"
)


def test_a_function_answering_with_numpy_is_judged_on_the_value_it_holds(
    code_api_url: str,
) -> None:
    """numpy is in the image: `arr.sum()` (an np.int64) equals the expected 6, as `==` in a
    reference harness says; an array where a list is expected stays a refused value."""
    code = (
        "import numpy as np\n"
        "def total(xs):\n    return np.array(xs).sum()\n"
        "def mean(xs):\n    return np.mean(xs)\n"
        "def doubled(xs):\n    return np.array(xs) * 2\n"
    )
    item = {
        "code": code,
        "tests": [
            {"kind": "call", "fn": "total", "args": [[1, 2, 3]], "expected": 6},
            {"kind": "call", "fn": "mean", "args": [[1, 2]], "expected": 1.5},
            {"kind": "call", "fn": "total", "args": [[1, 2, 3]], "expected": 7},
            {"kind": "call", "fn": "doubled", "args": [[1, 2]], "expected": [2, 4]},
        ],
    }
    response = post_items(code_api_url, "/code", [item])
    assert response.status_code == 200, response.text
    tests = response.json()["results"][0]["tests"]
    assert [t["status"] for t in tests] == ["passed", "passed", "failed", "failed"], tests
    assert "not plain data" in tests[3]["detail"]


def test_verdicts_per_item_and_test_in_order(code_api_url: str) -> None:
    items: list[dict[str, Any]] = [
        {
            "id": "py-all",
            "code": ADD,
            "tests": [
                {"kind": "assert", "code": "assert add(1, 2) == 3"},
                {"kind": "call", "fn": "add", "args": [2, 2], "expected": 4},
                {"kind": "call", "fn": "add", "args": [0.1, 0.2], "expected": 0.3},
            ],
        },
        {
            "id": "py-stdio",
            "response": "Sure:\n```python\na, b = map(int, input().split())\nprint(a + b)\n```\n",
            "tests": [
                {"kind": "stdio", "stdin": "1 2\n", "stdout": "3\n"},
                {"kind": "stdio", "stdin": "5 5\n", "stdout": "11\n"},
            ],
        },
        {
            "id": "cpp",
            "language": "cpp",
            "response": f"```cpp\n{CPP_SUM}\n```",
            "tests": [{"kind": "stdio", "stdin": "40 2", "stdout": "42"}],
        },
        {
            "id": "cpp-broken",
            "language": "cpp",
            "code": "int main( {",
            "tests": [{"kind": "stdio", "stdin": "", "stdout": ""}],
        },
        {
            "id": "no-block",
            "response": "I think the answer is 3.",
            "tests": [{"kind": "assert", "code": "pass"}],
        },
        {
            "id": "leetcode",
            "response": (
                "```python\nclass Solution:\n    def twoSum(self, nums, target):\n"
                "        seen = {}\n        for i, x in enumerate(nums):\n"
                "            if target - x in seen:\n                return [seen[target - x], i]\n"
                "            seen[x] = i\n```"
            ),
            "tests": [
                {
                    "kind": "call",
                    "fn": "Solution.twoSum",
                    "args": [[2, 7, 11], 9],
                    "expected": [0, 1],
                },
                {"kind": "call", "fn": "Solution.twoSum", "args": [[3, 3], 6], "expected": [1, 0]},
                {"kind": "call", "fn": "Solution.nope", "args": [], "expected": None},
            ],
        },
        {
            "id": "bigint",
            "code": "def f(n):\n    return 7 ** n\n",
            "tests": [
                {"kind": "assert", "code": "assert f(20000) == 7 ** 20000"},
                {"kind": "assert", "code": "assert f(20000) == 7 ** 20000 + 1"},
            ],
        },
        {
            "id": "slow",
            "code": "def f():\n    while True:\n        pass\n",
            "timeout_s": 1,
            "tests": [{"kind": "call", "fn": "f", "expected": None}],
        },
    ]
    response = post_items(code_api_url, "/code", items)
    assert response.status_code == 200, response.text
    results = {r["id"]: r for r in response.json()["results"]}
    assert [r["id"] for r in response.json()["results"]] == [i["id"] for i in items]

    py_all = results["py-all"]
    assert [t["status"] for t in py_all["tests"]] == ["passed", "passed", "failed"]
    assert py_all["status"] == "failed" and py_all["reward"] == pytest.approx(2 / 3)
    assert "0.3" in py_all["tests"][2]["detail"]

    stdio = results["py-stdio"]
    assert [t["status"] for t in stdio["tests"]] == ["passed", "failed"]
    assert "expected '11', got '10'" in stdio["tests"][1]["detail"]

    assert results["cpp"]["status"] == "passed" and results["cpp"]["reward"] == 1.0
    broken = results["cpp-broken"]
    assert broken["tests"][0]["status"] == "compile_error" and broken["reward"] == 0.0
    assert "error" in broken["tests"][0]["detail"]

    assert results["no-block"]["status"] == "failed" and results["no-block"]["reward"] == 0.0
    assert [t["status"] for t in results["bigint"]["tests"]] == ["passed", "failed"]
    leetcode = [t["status"] for t in results["leetcode"]["tests"]]
    assert leetcode == ["passed", "failed", "runtime_error"]
    assert results["slow"]["status"] == "timed_out" and results["slow"]["reward"] == 0.0


@pytest.mark.parametrize(
    "item",
    [
        {"code": "x", "response": "x", "tests": [{"kind": "assert", "code": "pass"}]},
        {"tests": [{"kind": "assert", "code": "pass"}]},
        {"code": "x", "tests": []},
        {"code": "x", "language": "cpp", "tests": [{"kind": "assert", "code": "pass"}]},
        {"code": "x", "language": "rust", "tests": [{"kind": "assert", "code": "pass"}]},
        {"code": "x", "tests": [{"kind": "stdio", "stdin": ""}]},
        {"code": "x", "tests": [{"kind": "call", "fn": "f"}]},
    ],
)
def test_malformed_items_are_422(code_api_url: str, item: dict[str, Any]) -> None:
    response = post_items(code_api_url, "/code", [item])
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "validation_error"


def test_health_reports_the_warm_pool(code_api_url: str) -> None:
    code = httpx.get(f"{code_api_url}/health").json()["domains"]["code"]
    assert code["ok"] is True
    assert code["stats"]["live"] == 2


def test_full_queue_answers_503_with_retry_after_and_recovers(code_api_url: str) -> None:
    sleeper = {
        "code": "import time\ndef f():\n    time.sleep(0.3)\n    return 1\n",
        "tests": [{"kind": "call", "fn": "f", "expected": 1}],
    }
    never_fits = post_items(code_api_url, "/code", [sleeper] * (MAX_QUEUE + 1))
    assert never_fits.status_code == 413  # larger than the whole queue: retrying cannot help
    assert never_fits.json()["error"]["code"] == "payload_too_large"

    first: dict[str, Any] = {}
    background = threading.Thread(
        target=lambda: first.setdefault(
            "r", post_items(code_api_url, "/code", [sleeper] * (MAX_QUEUE - 2))
        )
    )
    background.start()
    deadline = time.monotonic() + 30
    while in_flight_items(code_api_url) < MAX_QUEUE - 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    while_busy = post_items(code_api_url, "/code", [sleeper] * 5)
    assert while_busy.status_code == 503
    assert int(while_busy.headers["Retry-After"]) >= 1
    assert while_busy.json()["error"]["code"] == "overloaded"
    background.join()
    assert first["r"].status_code == 200
    assert all(r["reward"] == 1.0 for r in first["r"].json()["results"])
    after = post_items(code_api_url, "/code", [sleeper])
    assert after.status_code == 200 and after.json()["results"][0]["reward"] == 1.0


def test_unreachable_docker_is_degraded_health_and_fast_error_verdicts() -> None:
    env = {
        "VERIFIER_CODE__SANDBOX__DOCKER_HOST": "unix:///nonexistent/docker.sock",
        "VERIFIER_LEAN__IS_ENABLED": "false",
    }
    with running_service(env) as url:
        health = httpx.get(f"{url}/health").json()
        assert health["status"] == "degraded"
        assert health["domains"]["code"]["ok"] is False
        started = time.monotonic()
        response = post_items(
            url, "/code", [{"id": "a", "code": ADD, "tests": [{"kind": "assert", "code": "pass"}]}]
        )
        assert time.monotonic() - started < 5
        assert response.status_code == 200
        (result,) = response.json()["results"]
        assert result["status"] == "error" and result["reward"] is None
        assert "sandbox" in result["detail"]


@pytest.mark.parametrize(
    ("test", "needle"),
    [
        ({"kind": "stdio", "stdin": "\ud800", "stdout": ""}, "not valid Unicode"),
        ({"kind": "stdio", "stdin": "", "stdout": "\udfff"}, "not valid Unicode"),
        ({"kind": "assert", "code": "assert '\ud800'"}, "not valid Unicode"),
        ({"kind": "call", "fn": "f", "args": [[[[[[0]]]]]] * 1, "expected": 0}, None),
        ({"kind": "call", "fn": "f", "args": ["DEEP"], "expected": 0}, "deeper than"),
        ({"kind": "call", "fn": "f", "kwargs": {"x": "DEEP"}, "expected": 0}, "deeper than"),
    ],
)
def test_test_data_the_sandbox_cannot_carry_is_a_422(
    code_api_url: str, test: dict[str, Any], needle: str | None
) -> None:
    """The request's own fault is a 422, not an item `error` (nor an executor fault that retires
    containers) found later."""
    deep = "[" * 300 + "0" + "]" * 300
    body = json.dumps({"items": [{"code": "def f(*a, **k):\n    return 0\n", "tests": [test]}]})
    body = body.replace('"DEEP"', deep)
    response = httpx.post(
        f"{code_api_url}/code",
        content=body,
        headers={"content-type": "application/json"},
        timeout=120,
    )
    if needle is None:
        assert response.status_code == 200, response.text
        assert response.json()["results"][0]["status"] == "passed"
    else:
        assert response.status_code == 422, response.text
        assert needle in response.json()["error"]["message"]


def test_an_id_that_cannot_be_echoed_is_a_422_not_a_500(code_api_url: str) -> None:
    item = {"id": "ID", "code": "x = 1", "tests": [{"kind": "assert", "code": "pass"}]}
    body = json.dumps({"items": [item]}).replace("ID", "\\ud800")
    response = httpx.post(
        f"{code_api_url}/code", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422, response.text
