"""A deterministic mixed workload (math + code, some pathological) and the verdict of each."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

ADD_OK = "def add(a, b):\n    return a + b\n"
ADD_WRONG = "def add(a, b):\n    return a - b\n"
ADD_LOOP = "def add(a, b):\n    while True:\n        pass\n"
ADD_EXIT = "import os\ndef add(a, b):\n    os._exit(0)\n"
ADD_TESTS = [
    {"kind": "call", "fn": "add", "args": [1, 2], "expected": 3},
    {"kind": "assert", "code": "assert add(-4, 4) == 0"},
]


@dataclass(frozen=True)
class Expected:
    statuses: frozenset[str]
    reward: float | None = None  # None: any reward the status allows
    kind: str = field(default="")


@dataclass(frozen=True)
class WorkItem:
    payload: dict[str, Any]
    expected: Expected


def _math(item_id: str, rng: random.Random) -> WorkItem:
    k = rng.randint(-10_000, 10_000)
    roll = rng.random()
    payload: dict[str, Any]
    if roll < 0.45:
        payload = {"response": f"Adding up, we get \\boxed{{{k}}}.", "answer": str(k)}
        return WorkItem(payload, Expected(frozenset({"passed"}), 1.0, "math-int"))
    if roll < 0.65:
        k |= 1  # odd: the fraction is in lowest terms (`\\frac{782}{2}` for 391 is refused)
        payload = {"response": f"The answer is $\\frac{{{k}}}{{2}}$", "answer": f"{k / 2}"}
        return WorkItem(payload, Expected(frozenset({"passed"}), 1.0, "math-frac"))
    if roll < 0.90:
        payload = {"response": f"\\boxed{{{k + 1}}}", "answer": str(k)}
        return WorkItem(payload, Expected(frozenset({"failed"}), 0.0, "math-wrong"))
    if roll < 0.95:
        filler = "Let me think step by step. " * 4000  # ~100 KB
        payload = {"response": f"{filler}\\boxed{{{k}}}", "answer": str(k)}
        return WorkItem(payload, Expected(frozenset({"passed"}), 1.0, "math-100kb"))
    payload = {"response": "\\boxed{10^{10^{10}}}", "answer": "7", "timeout_s": 1.0}
    return WorkItem(payload, Expected(frozenset({"failed", "timed_out"}), 0.0, "math-huge"))


def _code(item_id: str, rng: random.Random) -> WorkItem:
    roll = rng.random()
    if roll < 0.6:
        code, expected = ADD_OK, Expected(frozenset({"passed"}), 1.0, "code-ok")
    elif roll < 0.9:
        code, expected = ADD_WRONG, Expected(frozenset({"failed"}), 0.0, "code-wrong")
    elif roll < 0.97:
        code, expected = ADD_EXIT, Expected(frozenset({"failed"}), 0.0, "code-exit0")
    else:
        code, expected = ADD_LOOP, Expected(frozenset({"failed", "timed_out"}), 0.0, "code-loop")
    payload = {"code": code, "language": "python", "tests": ADD_TESTS, "timeout_s": 1.0}
    return WorkItem(payload, expected)


def mixed_workload(n_items: int, code_share: float, seed: int = 0) -> list[WorkItem]:
    """`n_items` `/verify` items, each with a unique `id` and the verdict it must get."""
    rng = random.Random(seed)
    items = []
    for index in range(n_items):
        item_id = f"w{seed}-{index}"
        if rng.random() < code_share:
            work = _code(item_id, rng)
            domain = "code"
        else:
            work = _math(item_id, rng)
            domain = "math"
        payload = {"id": item_id, "domain": domain, **work.payload}
        items.append(WorkItem(payload, work.expected))
    return items
