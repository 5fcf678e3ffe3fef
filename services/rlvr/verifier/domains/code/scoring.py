"""An item's reward from its tests' verdicts: weighted fraction, all-or-nothing, or subtask groups.

Pure and host-side: the verdicts are already judged (`check.py`); this only weighs them. A test
skipped by `stop_on_first_failure` arrives as a failed verdict, so it earns nothing, and a group
holding it earns nothing either.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rlvr.schemas.code import CodeItem, TestScoring, TestStatus, TestVerdict
from rlvr.schemas.common import Status
from rlvr.verifier.domains.code.check import item_outcome


@dataclass(frozen=True, slots=True)
class Score:
    """The reward and the counts that explain it (for the item's `detail`)."""

    reward: float
    passed_tests: int
    total_tests: int
    passed_groups: int
    total_groups: int


def group_indices(tests: Sequence[TestScoring]) -> list[list[int]]:
    """Indices of the tests of each group, in order of first appearance; a test without a
    `group` is a group of its own (so `groups` scoring without groups is `fraction`)."""
    groups: list[list[int]] = []
    named: dict[str, list[int]] = {}
    for index, test in enumerate(tests):
        if test.group is None:
            groups.append([index])
        elif test.group in named:
            named[test.group].append(index)
        else:
            named[test.group] = [index]
            groups.append(named[test.group])
    return groups


def score(tests: Sequence[TestScoring], verdicts: Sequence[TestVerdict], scoring: str) -> Score:
    """The reward in [0, 1] of `verdicts` (one per test, in order) under `scoring`.

    `fraction`: passed weight / total weight. `all`: 1 if every test passed, else 0. `groups`:
    the weight of the groups whose tests all passed / total weight, a group weighing the sum of
    its tests' weights.
    """
    if len(tests) != len(verdicts):
        raise ValueError(f"{len(verdicts)} verdicts for {len(tests)} tests")
    passed = [v.status == TestStatus.passed for v in verdicts]
    groups = group_indices(tests)
    group_passed = [all(passed[i] for i in group) for group in groups]
    total_weight = sum(t.weight for t in tests)
    if scoring == "fraction":
        earned = sum(t.weight for t, ok in zip(tests, passed, strict=True) if ok)
    elif scoring == "all":
        earned = total_weight if all(passed) else 0.0
    elif scoring == "groups":
        earned = sum(
            sum(tests[i].weight for i in group)
            for group, ok in zip(groups, group_passed, strict=True)
            if ok
        )
    else:
        raise ValueError(f"unknown scoring {scoring!r}")
    # Weights are floats: clamp, so a sum rounded the other way never leaves [0, 1].
    reward = min(1.0, max(0.0, earned / total_weight)) if total_weight > 0 else 0.0
    if all(passed):
        reward = 1.0  # exact, whatever the float sums did
    return Score(
        reward=reward,
        passed_tests=sum(passed),
        total_tests=len(tests),
        passed_groups=sum(group_passed),
        total_groups=len(groups),
    )


def score_summary(result: Score, scoring: str) -> str:
    """`3/4 tests passed` (+ `, 1/2 groups` under `groups` scoring), for the item's detail."""
    text = f"{result.passed_tests}/{result.total_tests} tests passed"
    if scoring == "groups":
        text += f", {result.passed_groups}/{result.total_groups} groups"
    return text


def scored_outcome(item: CodeItem, verdicts: Sequence[TestVerdict]) -> tuple[Status, float, str]:
    """(status, reward, detail) of an item: the status and first failure as `item_outcome`
    says (passed iff all passed; timed_out iff every failure timed out), the reward as the
    item's `scoring` says."""
    status, _, detail = item_outcome(verdicts)
    result = score(item.tests, verdicts, item.scoring)
    counts = f"{result.passed_tests}/{result.total_tests} tests passed"
    rest = detail[len(counts) :] if detail.startswith(counts) else f"; {detail}"
    return status, result.reward, score_summary(result, item.scoring) + rest
