"""Blind probes round 2 (issue 27) against a live `/math`: every row gets its label's verdict.

A `wrong` row must come back with reward 0 and a status other than `error` (a wrong answer that
is slow to check is `timed_out`, never dropped); a `right` row must pass. The rows that fail
today are listed in `KNOWN_FAILURES` (row -> why) and run as strict xfails: the module is green
now and goes red when the verifier changes, in either direction. The table
(`blind_probes_r2.py`) was written without reading the math domain's code or tables.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.rlvr.verifier.domains.math.blind_probes_r2 import (
    HOSTILE,
    HOSTILE_BATCHES,
    LEAD,
    PROBES,
    Hostile,
    HostileBatch,
    Probe,
)
from tests.support.http import verdicts
from tests.support.server import service_fixture

math_url = service_fixture({"VERIFIER_CODE__IS_ENABLED": "false"})

CHUNK = 64
# A hostile input alone may cost its own deadline (`timed_out`), not the service's minutes.
HOSTILE_WALL_S = 30.0

Key = tuple[str, str, str | None]


# Rows that fail today (row -> what came back), run as strict xfails. Found by the first run
# of each wave (2026-12-07, branch blind27; the last at 565bc4e).
KNOWN_FAILURES: dict[Key, str] = {
    (
        LEAD + "Therefore, the final answer is $\\boxed{2\\cdot 2^{99}}$.",
        "2^{100}",
        None,
    ): "unevaluated: wrong, paid 1.0 (both read as one value)",
    (
        LEAD + "The answer is $2\\cdot 2^{99}$.",
        "2^{100}",
        None,
    ): "unevaluated: wrong, paid 1.0 (both read as one value)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{(3+2i)(1-i)}$.",
        "5-i",
        None,
    ): "unevaluated: wrong, paid 1.0 ((1 - I)*(3 + 2*I) against 5 - I)",
    (
        LEAD + "The answer is $(3+2i)(1-i)$.",
        "5-i",
        None,
    ): "unevaluated: wrong, paid 1.0 ((1 - I)*(3 + 2*I) against 5 - I)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{(1,2)}$.",
        "\\{1,2\\}",
        None,
    ): "kinds: wrong, paid 1.0 ((1, 2) against {1, 2})",
    (
        LEAD + "The answer is $(1,2)$.",
        "\\{1,2\\}",
        None,
    ): "kinds: wrong, paid 1.0 ((1, 2) against {1, 2})",
    (
        LEAD + "Therefore, the final answer is $\\boxed{(3,4)}$.",
        "\\{3,4\\}",
        None,
    ): "kinds: wrong, paid 1.0 ((3, 4) against {3, 4})",
    (
        LEAD + "The answer is $(3,4)$.",
        "\\{3,4\\}",
        None,
    ): "kinds: wrong, paid 1.0 ((3, 4) against {3, 4})",
    (
        LEAD + "Therefore, the final answer is $\\boxed{7 \\text{ square meters}}$.",
        "7 \\text{ square centimeters}",
        None,
    ): "unit_words_w2: wrong, paid 1.0 (7 against 7)",
    (
        LEAD + "The answer is $7 \\text{ square meters}$.",
        "7 \\text{ square centimeters}",
        None,
    ): "unit_words_w2: wrong, paid 1.0 (7 against 7)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{7 \\text{ cubic feet}}$.",
        "7 \\text{ square feet}",
        None,
    ): "unit_words_w2: wrong, paid 1.0 (7 against 7)",
    (
        LEAD + "The answer is $7 \\text{ cubic feet}$.",
        "7 \\text{ square feet}",
        None,
    ): "unit_words_w2: wrong, paid 1.0 (7 against 7)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{2\\times 2^{99}}$.",
        "2^{100}",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (both read as one value)",
    (
        LEAD + "The answer is $2\\times 2^{99}$.",
        "2^{100}",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (both read as one value)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{2^{99}\\cdot 2}$.",
        "2^{100}",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (both read as one value)",
    (
        LEAD + "The answer is $2^{99}\\cdot 2$.",
        "2^{100}",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (both read as one value)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{2^{99}+2^{99}}$.",
        "2^{100}",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (both read as one value)",
    (
        LEAD + "The answer is $2^{99}+2^{99}$.",
        "2^{100}",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (both read as one value)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{4\\cdot 2^{98}}$.",
        "2^{100}",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (both read as one value)",
    (
        LEAD + "The answer is $4\\cdot 2^{98}$.",
        "2^{100}",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (both read as one value)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{\\frac{2^{101}}{2}}$.",
        "2^{100}",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (both read as one value)",
    (
        LEAD + "The answer is $\\frac{2^{101}}{2}$.",
        "2^{100}",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (both read as one value)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{3\\cdot 3^{9}}$.",
        "3^{10}",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (59049 against 59049)",
    (
        LEAD + "The answer is $3\\cdot 3^{9}$.",
        "3^{10}",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (59049 against 59049)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{\\frac{1}{i}}$.",
        "-i",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (-I against -I)",
    (
        LEAD + "The answer is $\\frac{1}{i}$.",
        "-i",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (-I against -I)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{(1+2i)+(3-i)}$.",
        "4+i",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (4 + I against 4 + I)",
    (
        LEAD + "The answer is $(1+2i)+(3-i)$.",
        "4+i",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (4 + I against 4 + I)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{\\sqrt2 + 4\\sqrt2}$.",
        "5\\sqrt2",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (5*sqrt(2) against 5*sqrt(2))",
    (
        LEAD + "The answer is $\\sqrt2 + 4\\sqrt2$.",
        "5\\sqrt2",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (5*sqrt(2) against 5*sqrt(2))",
    (
        LEAD + "Therefore, the final answer is $\\boxed{\\pi\\cdot\\pi}$.",
        "\\pi^2",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (pi**2 against pi**2)",
    (
        LEAD + "The answer is $\\pi\\cdot\\pi$.",
        "\\pi^2",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (pi**2 against pi**2)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{2\\pi + 4\\pi}$.",
        "6\\pi",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (6*pi against 6*pi)",
    (
        LEAD + "The answer is $2\\pi + 4\\pi$.",
        "6\\pi",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (6*pi against 6*pi)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{2\\pi\\cdot 3}$.",
        "6\\pi",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (6*pi against 6*pi)",
    (
        LEAD + "The answer is $2\\pi\\cdot 3$.",
        "6\\pi",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (6*pi against 6*pi)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{e\\cdot e^2}$.",
        "e^3",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (exp(3) against exp(3))",
    (
        LEAD + "The answer is $e\\cdot e^2$.",
        "e^3",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (exp(3) against exp(3))",
    (
        LEAD + "Therefore, the final answer is $\\boxed{x^2\\cdot x^3}$.",
        "x^5",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (x**5 against x**5)",
    (
        LEAD + "The answer is $x^2\\cdot x^3$.",
        "x^5",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (x**5 against x**5)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{x+x}$.",
        "2x",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (2*x against 2*x)",
    (
        LEAD + "The answer is $x+x$.",
        "2x",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (2*x against 2*x)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{3x - x}$.",
        "2x",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (2*x against 2*x)",
    (
        LEAD + "The answer is $3x - x$.",
        "2x",
        None,
    ): "unevaluated_w2: wrong, paid 1.0 (2*x against 2*x)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{(2,1)}$.",
        "\\{1,2\\}",
        None,
    ): "kinds_w2: wrong, paid 1.0 ((2, 1) against {1, 2})",
    (
        LEAD + "The answer is $(2,1)$.",
        "\\{1,2\\}",
        None,
    ): "kinds_w2: wrong, paid 1.0 ((2, 1) against {1, 2})",
    (
        LEAD + "Therefore, the final answer is $\\boxed{\\left(1, 2\\right)}$.",
        "\\{1,2\\}",
        None,
    ): "kinds_w2: wrong, paid 1.0 ((1, 2) against {1, 2})",
    (
        LEAD + "The answer is $\\left(1, 2\\right)$.",
        "\\{1,2\\}",
        None,
    ): "kinds_w2: wrong, paid 1.0 ((1, 2) against {1, 2})",
    (
        LEAD + "Therefore, the final answer is $\\boxed{(1, 2)}$.",
        "\\{1, 2\\}",
        None,
    ): "kinds_w2: wrong, paid 1.0 ((1, 2) against {1, 2})",
    (
        LEAD + "The answer is $(1, 2)$.",
        "\\{1, 2\\}",
        None,
    ): "kinds_w2: wrong, paid 1.0 ((1, 2) against {1, 2})",
    (
        LEAD + "Therefore, the final answer is $\\boxed{(1,2,3)}$.",
        "\\{1,2,3\\}",
        None,
    ): "kinds_w2: wrong, paid 1.0 ((1, 2, 3) against {1, 2, 3})",
    (
        LEAD + "The answer is $(1,2,3)$.",
        "\\{1,2,3\\}",
        None,
    ): "kinds_w2: wrong, paid 1.0 ((1, 2, 3) against {1, 2, 3})",
    (
        LEAD + "Therefore, the final answer is $\\boxed{(-1, 4)}$.",
        "\\{-1, 4\\}",
        None,
    ): "kinds_w2: wrong, paid 1.0 ((-1, 4) against {-1, 4})",
    (
        LEAD + "The answer is $(-1, 4)$.",
        "\\{-1, 4\\}",
        None,
    ): "kinds_w2: wrong, paid 1.0 ((-1, 4) against {-1, 4})",
    (
        LEAD + "Therefore, the final answer is $\\boxed{(0,1)}$.",
        "\\{0,1\\}",
        None,
    ): "kinds_w2: wrong, paid 1.0 ((0, 1) against {0, 1})",
    (
        LEAD + "The answer is $(0,1)$.",
        "\\{0,1\\}",
        None,
    ): "kinds_w2: wrong, paid 1.0 ((0, 1) against {0, 1})",
    (
        LEAD + "Therefore, the final answer is $\\boxed{(3,4)}$.",
        "3, 4",
        None,
    ): "kinds_w2: wrong, paid 1.0 ((3, 4) against {3, 4})",
    (
        LEAD + "The answer is $(3,4)$.",
        "3, 4",
        None,
    ): "kinds_w2: wrong, paid 1.0 ((3, 4) against {3, 4})",
    (
        LEAD + "Therefore, the final answer is $\\boxed{(1,2)}$.",
        "1, 2",
        None,
    ): "kinds_w2: wrong, paid 1.0 ((1, 2) against {1, 2})",
    (
        LEAD + "The answer is $(1,2)$.",
        "1, 2",
        None,
    ): "kinds_w2: wrong, paid 1.0 ((1, 2) against {1, 2})",
    (
        LEAD + "Therefore, the final answer is $\\boxed{10 \\text{ square miles}}$.",
        "10 \\text{ square kilometers}",
        None,
    ): "unit_words_w3: wrong, paid 1.0 (10 against 10)",
    (
        LEAD + "The answer is $10 \\text{ square miles}$.",
        "10 \\text{ square kilometers}",
        None,
    ): "unit_words_w3: wrong, paid 1.0 (10 against 10)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{4 \\text{ cubic units}}$.",
        "4 \\text{ square units}",
        None,
    ): "unit_words_w3: wrong, paid 1.0 (4 against 4)",
    (
        LEAD + "The answer is $4 \\text{ cubic units}$.",
        "4 \\text{ square units}",
        None,
    ): "unit_words_w3: wrong, paid 1.0 (4 against 4)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{6 \\text{ square inches}}$.",
        "6 \\text{ cubic inches}",
        None,
    ): "unit_words_w3: wrong, paid 1.0 (6 against 6)",
    (
        LEAD + "The answer is $6 \\text{ square inches}$.",
        "6 \\text{ cubic inches}",
        None,
    ): "unit_words_w3: wrong, paid 1.0 (6 against 6)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{5\\%}$.",
        "\\$5",
        None,
    ): "unit_words_w3: wrong, paid 1.0 (5% against 5)",
    (LEAD + "The answer is $5\\%$.", "\\$5", None): "unit_words_w3: wrong, paid 1.0 (5% against 5)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{(3, 1, 2)}$.",
        "\\{1, 2, 3\\}",
        None,
    ): "kinds_w3: wrong, paid 1.0 ((3, 1, 2) against {1, 2, 3})",
    (
        LEAD + "The answer is $(3, 1, 2)$.",
        "\\{1, 2, 3\\}",
        None,
    ): "kinds_w3: wrong, paid 1.0 ((3, 1, 2) against {1, 2, 3})",
    (
        LEAD + "Therefore, the final answer is $\\boxed{(2,3)}$.",
        "2, 3",
        None,
    ): "kinds_w3: wrong, paid 1.0 ((2, 3) against {2, 3})",
    (
        LEAD + "The answer is $(2,3)$.",
        "2, 3",
        None,
    ): "kinds_w3: wrong, paid 1.0 ((2, 3) against {2, 3})",
    (
        LEAD + "Therefore, the final answer is $\\boxed{\\left(-2, 2\\right)}$.",
        "-2, 2",
        None,
    ): "kinds_w3: wrong, paid 1.0 ((-2, 2) against {-2, 2})",
    (
        LEAD + "The answer is $\\left(-2, 2\\right)$.",
        "-2, 2",
        None,
    ): "kinds_w3: wrong, paid 1.0 ((-2, 2) against {-2, 2})",
    (
        LEAD + "Therefore, the final answer is $\\boxed{(-2, 2)}$.",
        "\\pm 2",
        None,
    ): "kinds_w3: wrong, paid 1.0 ((-2, 2) against {-2, 2})",
    (
        LEAD + "The answer is $(-2, 2)$.",
        "\\pm 2",
        None,
    ): "kinds_w3: wrong, paid 1.0 ((-2, 2) against {-2, 2})",
    (
        LEAD + "Therefore, the final answer is $\\boxed{x^2 + x^2}$.",
        "2x^2",
        None,
    ): "unevaluated_w3: wrong, paid 1.0 (2*x**2 against 2*x**2)",
    (
        LEAD + "The answer is $x^2 + x^2$.",
        "2x^2",
        None,
    ): "unevaluated_w3: wrong, paid 1.0 (2*x**2 against 2*x**2)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{2(x+1) - 2}$.",
        "2x",
        None,
    ): "unevaluated_w3: wrong, paid 1.0 (2*x against 2*x)",
    (
        LEAD + "The answer is $2(x+1) - 2$.",
        "2x",
        None,
    ): "unevaluated_w3: wrong, paid 1.0 (2*x against 2*x)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{3 \\cdot 2x}$.",
        "6x",
        None,
    ): "unevaluated_w3: wrong, paid 1.0 (6*x against 6*x)",
    (
        LEAD + "The answer is $3 \\cdot 2x$.",
        "6x",
        None,
    ): "unevaluated_w3: wrong, paid 1.0 (6*x against 6*x)",
    (
        LEAD + "Therefore, the final answer is $\\boxed{\\frac{x}{2} + \\frac{x}{2}}$.",
        "x",
        None,
    ): "unevaluated_w3: wrong, paid 1.0 (x against x)",
    (
        LEAD + "The answer is $\\frac{x}{2} + \\frac{x}{2}$.",
        "x",
        None,
    ): "unevaluated_w3: wrong, paid 1.0 (x against x)",
}


def key(probe: Probe) -> Key:
    return (probe.response, probe.gold, probe.problem)


def item(response: str, gold: str, problem: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"response": response, "answer": gold}
    if problem is not None:
        body["problem"] = problem
    return body


@pytest.fixture(scope="module")
def results(math_url: str) -> Iterator[dict[Key, dict[str, Any]]]:
    """Every row's result, sent in chunks of 64 as a trainer would."""
    out: dict[Key, dict[str, Any]] = {}
    for start in range(0, len(PROBES), CHUNK):
        chunk = PROBES[start : start + CHUNK]
        replies = verdicts(math_url, "/math", [item(p.response, p.gold, p.problem) for p in chunk])
        out.update(zip(map(key, chunk), replies, strict=True))
    yield out


def _param(index: int, probe: Probe) -> Any:
    marks = []
    if key(probe) in KNOWN_FAILURES:
        marks.append(pytest.mark.xfail(reason=KNOWN_FAILURES[key(probe)], strict=True))
    return pytest.param(probe, id=f"{probe.family}-{probe.label}-{index}", marks=marks)


def test_known_failures_are_rows_of_the_table() -> None:
    assert set(KNOWN_FAILURES) <= set(map(key, PROBES))


def test_table_is_as_large_as_issue_27_asks() -> None:
    assert sum(p.label == "wrong" for p in PROBES) >= 450
    assert sum(p.label == "right" for p in PROBES) >= 250
    assert len(set(map(key, PROBES))) == len(PROBES)


def assert_verdict(label: str, result: dict[str, Any]) -> None:
    if label == "wrong":
        assert result["status"] != "error", result
        assert result["reward"] == 0, result
    else:
        assert result["status"] == "passed", result
        assert result["reward"] > 0, result


@pytest.mark.parametrize("probe", [_param(i, p) for i, p in enumerate(PROBES)])
def test_row_gets_its_labels_verdict(probe: Probe, results: dict[Key, dict[str, Any]]) -> None:
    assert_verdict(probe.label, results[key(probe)])


@pytest.mark.parametrize("hostile", HOSTILE, ids=[h.name for h in HOSTILE])
def test_hostile_wrong_answer_is_refused_quickly_not_error(math_url: str, hostile: Hostile) -> None:
    started = time.monotonic()
    [result] = verdicts(math_url, "/math", [item(hostile.response, hostile.gold)])
    assert time.monotonic() - started < HOSTILE_WALL_S
    assert result["status"] in ("failed", "timed_out"), result
    assert result["reward"] == 0, result


@pytest.mark.slow
@pytest.mark.parametrize("batch", HOSTILE_BATCHES, ids=[b.name for b in HOSTILE_BATCHES])
def test_slow_wrong_answers_beside_an_honest_one(math_url: str, batch: HostileBatch) -> None:
    replies = verdicts(math_url, "/math", [item(r, g) for r, g, _ in batch.items], timeout_s=600)
    for (_, _, label), result in zip(batch.items, replies, strict=True):
        assert_verdict(label, result)
