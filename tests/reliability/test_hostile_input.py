"""Hostile request bodies: each gets a clear 4xx (or a right verdict) promptly, never a 5xx."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.support.http import post_body
from tests.support.server import service_fixture

pytestmark = pytest.mark.usefixtures("docker_engine")

ADD = "def add(a, b):\n    return a + b\n"


url = service_fixture(
    {"VERIFIER_CODE__SANDBOX__LABEL": "reliability-hostile", "VERIFIER_CODE__POOL_SIZE": "1"}
)


def post_checked(url: str, path: str, content: bytes) -> httpx.Response:
    """`post_body`, and what every hostile body must get: a reply in time, no 5xx, no trace."""
    started = time.monotonic()
    reply = post_body(url, path, content, timeout_s=120)
    assert time.monotonic() - started < 60
    assert reply.status_code < 500, reply.text[:500]
    assert "Traceback" not in reply.text
    return reply


@pytest.mark.parametrize("path", ["/math", "/code", "/lean", "/verify", "/openrlhf"])
def test_deeply_nested_json_is_a_clear_422(url: str, path: str) -> None:
    depth = 100_000
    body = b'{"items": [' + b"[" * depth + b"]" * depth + b"]}"
    reply = post_checked(url, path, body)
    assert reply.status_code == 422
    assert reply.json()["error"]["code"] == "validation_error"


@pytest.mark.parametrize("path", ["/math", "/code", "/lean", "/verify", "/openrlhf"])
def test_invalid_utf8_is_a_clear_422(url: str, path: str) -> None:
    reply = post_checked(url, path, b'{"items": [{"response": "\xff\xfe\xfa"}]}')
    assert reply.status_code == 422


def test_huge_number_of_tests_is_413_naming_the_limit(url: str) -> None:
    tests = [{"kind": "assert", "code": "assert add(1, 1) == 2"}] * 50_000
    item = {"code": ADD, "language": "python", "tests": tests}
    reply = httpx.post(f"{url}/code", json={"items": [item]}, timeout=120)
    assert reply.status_code == 413
    assert "max_tests_per_item=1000" in reply.json()["error"]["message"]


def test_expected_output_over_the_item_limit_is_413(url: str) -> None:
    tests = [{"kind": "stdio", "stdin": "", "stdout": "y\n" * 600_000}]
    item = {"code": "print('y')", "language": "python", "tests": tests}
    reply = httpx.post(f"{url}/code", json={"items": [item]}, timeout=120)
    assert reply.status_code == 413
    assert "tests[0].stdout" in reply.json()["error"]["message"]


def test_enormous_expected_output_within_limits_is_judged(url: str) -> None:
    lines = 200_000  # 400 KB expected; the program prints something else
    tests = [{"kind": "stdio", "stdin": "", "stdout": "y\n" * lines}]
    wrong = {"id": "wrong", "code": "print('n')", "language": "python", "tests": tests}
    right = {
        "id": "right",
        "code": f"import sys\nsys.stdout.write('y\\n' * {lines})",
        "language": "python",
        "tests": tests,
    }
    reply = httpx.post(f"{url}/code", json={"items": [wrong, right]}, timeout=120)
    assert reply.status_code == 200
    results = {r["id"]: r for r in reply.json()["results"]}
    assert results["wrong"]["status"] == "failed" and results["wrong"]["reward"] == 0.0
    assert len(results["wrong"]["detail"]) < 5000  # the detail is a tail, not the whole output
    assert results["right"]["status"] == "passed"


def test_huge_math_batch_of_pathological_items_answers_every_item(url: str) -> None:
    items = [{"id": str(i), "response": "{" * 5000 + "}" * 5000, "answer": "1"} for i in range(200)]
    items.append({"id": "good", "response": "\\boxed{1}", "answer": "1"})
    reply = httpx.post(f"{url}/math", json={"items": items}, timeout=120)
    results = reply.json()["results"]
    assert len(results) == 201
    assert results[-1]["status"] == "passed"
    assert {r["status"] for r in results[:-1]} <= {"failed", "timed_out"}
