"""Converted problems judged by the live service and a real sandbox: the reference solution of
each fixture passes, a wrong one fails (so the conversion kept the tests' meaning)."""

from __future__ import annotations

import pytest

from rlvr.formats.code import convert, from_codecontests
from tests.support.format_fixtures import (
    APPS_CALL_CLASS,
    APPS_STDIO,
    CODECONTESTS,
    HUMANEVAL,
    LCB_FUNCTIONAL,
    LCB_FUNCTIONAL_SOLUTION,
    LCB_STDIN,
    MBPP,
    TACO_CALL_FUNCTION,
    TACO_LINES,
)
from tests.support.http import post_code
from tests.support.server import service_fixture

pytestmark = [pytest.mark.docker]


url = service_fixture(
    {"VERIFIER_CODE__POOL_SIZE": "1", "VERIFIER_LEAN__IS_ENABLED": "false"}, needs_docker=True
)


TWICE_WRONG = "class Solution:\n    def twice(self, x):\n        return x\n"
ADD_TWO_WRONG = "class Solution:\n    def addTwo(self, a, b):\n        return a + b\n"
CASES = [
    ("apps stdio", APPS_STDIO, None, "print(0)\n"),
    ("apps call, class Solution", APPS_CALL_CLASS, None, TWICE_WRONG),
    ("taco call, function", TACO_CALL_FUNCTION, None, "def square(n):\n    return n + n\n"),
    ("taco lines", TACO_LINES, "print(int(input()) + int(input()))\n", "print(6)\n"),
    ("codecontests", CODECONTESTS, None, "print(3)\n"),
    ("livecodebench stdin", LCB_STDIN, "print(2 * int(input()))\n", "print(6)\n"),
    ("livecodebench functional", LCB_FUNCTIONAL, LCB_FUNCTIONAL_SOLUTION, ADD_TWO_WRONG),
    ("humaneval", HUMANEVAL, None, "def inc_all(xs):\n    return xs\n"),
    ("mbpp", MBPP, None, "def add(a, b):\n    return a - b\n"),
]  # fmt: skip


def test_reference_solutions_pass_and_wrong_ones_fail(url: str) -> None:
    items = []
    for label, row, solution, wrong in CASES:
        problem = convert(row)
        right = solution if solution is not None else problem.solution
        assert right is not None, label
        items.append(
            problem.item(code=right).model_dump(mode="json", exclude_unset=True) | {"id": label}
        )
        items.append(
            problem.item(code=wrong).model_dump(mode="json", exclude_unset=True) | {"id": label}
        )
    results = post_code(url, items)
    for index, (label, *_rest) in enumerate(CASES):
        good, bad = results[2 * index], results[2 * index + 1]
        assert good["status"] == "passed", (label, good)
        assert bad["status"] == "failed" and bad["reward"] < 1.0, (label, bad)


def test_codecontests_cpp_reference_passes_in_cpp(url: str) -> None:
    problem = from_codecontests(CODECONTESTS, language="cpp")
    assert problem.solution is not None
    (result,) = post_code(
        url, [problem.item(code=problem.solution).model_dump(mode="json", exclude_unset=True)]
    )
    assert result["status"] == "passed", result
