"""Worked solutions: each step one reduction, the last the answer."""

from __future__ import annotations

import pytest

from rlvr_train.worked_solutions import reduction_steps, worked_solution


@pytest.mark.parametrize(
    ("expression", "steps"),
    [
        ("5 - 3 - 6", ["5 - 3 - 6", "2 - 6", "-4"]),
        ("( 56 + -33 ) - 84", ["56 + -33 - 84", "23 - 84", "-61"]),
        ("2 * (3 + 4)", ["2 * (3 + 4)", "2 * 7", "14"]),
        ("4 * 3 / 2", ["4 * 3 / 2", "12 / 2", "6"]),
        ("7", ["7"]),
        ("-( 20 + 67 + -59 )", ["-(20 + 67 + -59)", "-(87 + -59)", "-28"]),
        ("85 / 17", ["85 / 17", "5"]),
        ("-33 - -( -44 + -27 )", ["-33 - -(-44 + -27)", "-33 - 71", "-104"]),
        ("x + 1", []),
        ("1 +", []),
    ],
)
def test_reduction_steps(expression: str, steps: list[str]) -> None:
    assert reduction_steps(expression) == steps


def test_worked_solution_thinks_then_boxes_the_answer() -> None:
    assert (
        worked_solution("5 - 3 - 6", "-4") == "<think>5 - 3 - 6 = 2 - 6 = -4</think>\n\\boxed{-4}"
    )
    assert worked_solution(None, "12").endswith("\\boxed{12}")
