"""Small rows in the public code formats, written here by hand (not copied from the datasets)."""

from __future__ import annotations

import base64
import json
import pickle
import zlib
from typing import Any

ADD_PY = "a, b = map(int, input().split())\nprint(a + b)\n"
ADD_CPP = '#include <cstdio>\nint main(){long a,b;scanf("%ld %ld",&a,&b);printf("%ld\\n",a+b);}\n'


def packed(value: Any) -> str:
    """LiveCodeBench's packing of private tests: base64(zlib(pickle(json text)))."""
    return base64.b64encode(zlib.compress(pickle.dumps(json.dumps(value)))).decode()


APPS_STDIO: dict[str, Any] = {
    "problem_id": 7,
    "question": "Given two integers, print their sum.",
    "input_output": json.dumps({"inputs": ["1 2\n", "5 7\n"], "outputs": ["3\n", "12\n"]}),
    "solutions": json.dumps([ADD_PY]),
    "starter_code": "",
}
APPS_CALL_CLASS: dict[str, Any] = {
    "problem_id": 8,
    "question": "Return the argument repeated twice.",
    "input_output": json.dumps(
        {"fn_name": "twice", "inputs": [[3], [[1, 2]]], "outputs": [[6], [[1, 2, 1, 2]]]}
    ),
    "starter_code": "class Solution:\n    def twice(self, x):\n        ",
    "solutions": json.dumps(["class Solution:\n    def twice(self, x):\n        return x * 2\n"]),
}
TACO_CALL_FUNCTION: dict[str, Any] = {
    "question": "Square a number.",
    "input_output": json.dumps({"fn_name": "square", "inputs": [[4], [-3]], "outputs": [16, [9]]}),
    "starter_code": "def square(n):\n\t",
    "solutions": ["def square(n):\n    return n * n\n"],
}
TACO_LINES: dict[str, Any] = {
    "question": "Sum of two lines.",
    "input_output": {"inputs": [["2", "3"]], "outputs": [["5"]]},
    "solutions": [],
}
CODECONTESTS: dict[str, Any] = {
    "name": "1000_A. Sum",
    "description": "Print a + b.",
    "public_tests": {"input": ["1 2\n"], "output": ["3\n"]},
    "private_tests": {"input": ["4 4\n"], "output": ["8\n"]},
    "generated_tests": {"input": ["0 0\n", "-5 2\n"], "output": ["0\n", "-3\n"]},
    "solutions": {"language": [1, 2, 3], "solution": ["print 3", ADD_CPP, ADD_PY]},
    "incorrect_solutions": {"language": [3], "solution": ["print(0)"]},
    "time_limit": {"seconds": 2, "nanos": 500000000},
    "memory_limit_bytes": 268435456,
}
LCB_STDIN: dict[str, Any] = {
    "question_id": "abc001_a",
    "question_title": "Double",
    "question_content": "Read n and print 2n.",
    "starter_code": "",
    "metadata": "{}",
    "public_test_cases": json.dumps([{"input": "3\n", "output": "6\n", "testtype": "stdin"}]),
    "private_test_cases": packed(
        [
            {"input": "10\n", "output": "20\n", "testtype": "stdin"},
            {"input": "0\n", "output": "0\n", "testtype": "stdin"},
        ]
    ),
}
LCB_FUNCTIONAL: dict[str, Any] = {
    "question_id": "2001",
    "question_content": "Add two numbers.",
    "starter_code": "class Solution:\n    def addTwo(self, a: int, b: int) -> int:\n        ",
    "metadata": json.dumps({"func_name": "addTwo"}),
    "public_test_cases": json.dumps([{"input": "1\n2", "output": "3", "testtype": "functional"}]),
    "private_test_cases": json.dumps(
        [{"input": "[1]\n-1", "output": "null", "testtype": "functional"}]
    ),
}
LCB_FUNCTIONAL_SOLUTION = (
    "class Solution:\n"
    "    def addTwo(self, a, b):\n"
    "        return None if isinstance(a, list) else a + b\n"
)
HUMANEVAL: dict[str, Any] = {
    "task_id": "Mine/0",
    "prompt": (
        "def helper(x):\n    return x + 1\n\n\n"
        'def inc_all(xs):\n    """Add one to every element."""\n'
    ),
    "entry_point": "inc_all",
    "canonical_solution": "    return [helper(x) for x in xs]\n",
    "test": (
        "def check(candidate):\n    assert candidate([1, 2]) == [2, 3]\n    assert helper(0) == 1\n"
    ),
}
MBPP: dict[str, Any] = {
    "task_id": 11,
    "text": "Write a function to add two numbers.",
    "code": "def add(a, b):\n    return a + b",
    "test_list": ["assert add(1, 2) == 3", "assert add(OFFSET, 0) == 5"],
    "test_setup_code": "OFFSET = 5",
    "challenge_test_list": ["assert add(-1, -1) == -2"],
}
