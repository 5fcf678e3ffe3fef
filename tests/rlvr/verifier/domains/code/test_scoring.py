"""Item scoring from per-test verdicts: weighted fraction, all-or-nothing, IOI subtask groups."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from rlvr.schemas.code import CodeItem, StdioTest, TestStatus, TestVerdict
from rlvr.schemas.common import Status
from rlvr.verifier.domains.code.scoring import group_indices, score, scored_outcome

P, F, T = TestStatus.passed, TestStatus.failed, TestStatus.timed_out


def stdio_tests(*specs: tuple[float, str | None]) -> list[StdioTest]:
    return [StdioTest(kind="stdio", stdout="", weight=w, group=g) for w, g in specs]


def verdicts_of(*statuses: TestStatus) -> list[TestVerdict]:
    return [TestVerdict(status=s, elapsed_s=0.0) for s in statuses]


@pytest.mark.parametrize(
    ("label", "specs", "statuses", "scoring", "reward"),
    [
        ("fraction, unweighted: share passed", [(1, None)] * 4, [P, P, F, P], "fraction", 0.75),
        ("fraction, weighted", [(1, None), (3, None)], [F, P], "fraction", 0.75),
        ("fraction, weighted, heavy one fails", [(1, None), (3, None)], [P, F], "fraction", 0.25),
        ("fraction, all pass is exactly 1", [(0.1, None)] * 3, [P, P, P], "fraction", 1.0),
        ("all: one failure is 0", [(1, None)] * 4, [P, P, F, P], "all", 0.0),
        ("all: every test passed is 1", [(1, None)] * 2, [P, P], "all", 1.0),
        ("all: a timeout is 0", [(5, None), (1, None)], [P, T], "all", 0.0),
        (
            "groups: a group with a failure earns nothing",
            [(1, "a"), (1, "a"), (2, "b")],
            [P, F, P],
            "groups",
            0.5,
        ),
        (
            "groups: weight of a group is the sum of its tests'",
            [(1, "a"), (1, "a"), (2, "b")],
            [P, P, F],
            "groups",
            0.5,
        ),
        (
            "groups: interleaved tests of one group",
            [(1, "a"), (1, "b"), (1, "a")],
            [P, P, F],
            "groups",
            1 / 3,
        ),
        (
            "groups: ungrouped tests are groups of their own",
            [(1, None), (1, None), (2, "g"), (2, "g")],
            [P, F, P, P],
            "groups",
            5 / 6,
        ),
        ("groups without groups is fraction", [(1, None)] * 4, [P, F, P, F], "groups", 0.5),
        ("groups: everything passes", [(1, "a"), (7, "b")], [P, P], "groups", 1.0),
        ("groups: nothing passes", [(1, "a"), (7, "b")], [F, T], "groups", 0.0),
    ],
)
def test_reward_by_scoring(
    label: str,
    specs: list[tuple[float, str | None]],
    statuses: list[TestStatus],
    scoring: str,
    reward: float,
) -> None:
    result = score(stdio_tests(*specs), verdicts_of(*statuses), scoring)
    assert result.reward == pytest.approx(reward), label
    assert 0.0 <= result.reward <= 1.0


def test_groups_keep_first_appearance_order_and_split_ungrouped() -> None:
    tests = stdio_tests((1, "b"), (1, None), (1, "a"), (1, "b"), (1, None))
    assert group_indices(tests) == [[0, 3], [1], [2], [4]]


def test_a_verdict_count_that_does_not_match_the_tests_is_refused() -> None:
    with pytest.raises(ValueError, match="2 verdicts for 3 tests"):
        score(stdio_tests((1, None), (1, None), (1, None)), verdicts_of(P, P), "fraction")


def item(scoring: str, specs: list[tuple[float, str | None]], **extra: Any) -> CodeItem:
    return CodeItem.model_validate(
        {
            "code": "print(1)",
            "scoring": scoring,
            "tests": [
                {"kind": "stdio", "stdout": "1", "weight": w, **({"group": g} if g else {})}
                for w, g in specs
            ],
            **extra,
        }
    )


def test_outcome_status_follows_verdicts_and_reward_follows_scoring() -> None:
    it = item("groups", [(1, "a"), (1, "a"), (2, "b")])
    status, reward, detail = scored_outcome(it, verdicts_of(P, F, P))
    assert (status, reward) == (Status.failed, 0.5)
    assert detail.startswith("2/3 tests passed, 1/2 groups; first failure: failed")


def test_outcome_all_timeouts_is_timed_out_with_zero_under_all() -> None:
    it = item("all", [(1, None), (1, None)])
    status, reward, _ = scored_outcome(it, verdicts_of(P, T))
    assert (status, reward) == (Status.timed_out, 0.0)


def test_outcome_every_test_passed_is_passed_with_reward_one() -> None:
    it = item("all", [(2, None), (1, None)])
    assert scored_outcome(it, verdicts_of(P, P)) == (Status.passed, 1.0, "2/2 tests passed")


def test_default_scoring_is_fraction_with_weight_one() -> None:
    it = CodeItem.model_validate({"code": "x", "tests": [{"kind": "stdio", "stdout": ""}]})
    assert it.scoring == "fraction"
    assert (it.tests[0].weight, it.tests[0].group) == (1.0, None)


@pytest.mark.parametrize(
    ("label", "patch"),
    [
        ("zero weight", {"tests": [{"kind": "stdio", "stdout": "", "weight": 0}]}),
        ("negative weight", {"tests": [{"kind": "stdio", "stdout": "", "weight": -1}]}),
        ("huge weight", {"tests": [{"kind": "stdio", "stdout": "", "weight": 1e300}]}),
        ("weight as a string", {"tests": [{"kind": "stdio", "stdout": "", "weight": "2"}]}),
        ("weight as a bool", {"tests": [{"kind": "stdio", "stdout": "", "weight": True}]}),
        ("group not a string", {"tests": [{"kind": "stdio", "stdout": "", "group": 1}]}),
        ("unknown scoring", {"scoring": "best"}),
        ("lone surrogate group", {"tests": [{"kind": "stdio", "stdout": "", "group": "\ud800"}]}),
    ],
)
def test_bad_scoring_fields_are_refused(label: str, patch: dict[str, Any]) -> None:
    body = {"code": "x", "tests": [{"kind": "stdio", "stdout": ""}], **patch}
    with pytest.raises(ValidationError):
        CodeItem.model_validate(body)


def test_weight_and_group_on_every_test_kind() -> None:
    it = CodeItem.model_validate(
        {
            "code": "def f(): return 1",
            "scoring": "groups",
            "tests": [
                {"kind": "assert", "code": "assert f() == 1", "weight": 2, "group": "s1"},
                {"kind": "call", "fn": "f", "expected": 1, "weight": 0.5, "group": "s1"},
                {"kind": "stdio", "stdout": "", "weight": 3},
            ],
        }
    )
    assert [(t.weight, t.group) for t in it.tests] == [(2.0, "s1"), (0.5, "s1"), (3.0, None)]
