"""Which CPU a new sandbox container is pinned to (pure; the engine's side is in test_docker.py)."""

from __future__ import annotations

import os
from collections import Counter

import pytest

from rlvr.verifier.sandbox.host.cpu_spread import (
    PINNED_CPU_LABEL,
    allowed_cpus,
    least_used_cpu,
    parse_cpuset,
    pinned_counts,
)


@pytest.mark.parametrize(
    ("text", "cpus"),
    [("0", [0]), ("0-3", [0, 1, 2, 3]), ("1,3", [1, 3]), ("0-1, 4-5,7", [0, 1, 4, 5, 7]),
     ("2,0-2", [0, 1, 2])],
)  # fmt: skip
def test_a_cpuset_reads_as_its_cpus(text: str, cpus: list[int]) -> None:
    assert parse_cpuset(text) == cpus


@pytest.mark.parametrize("text", ["", "a", "1-", "-1", "3-1", "1;2", "0x1"])
def test_anything_else_is_not_a_cpuset(text: str) -> None:
    with pytest.raises(ValueError, match="not a cpuset"):
        parse_cpuset(text)


def test_the_cpus_are_the_setting_else_this_process_s() -> None:
    assert allowed_cpus("2-3") == [2, 3]
    assert allowed_cpus(None) == sorted(os.sched_getaffinity(0))


def test_containers_are_counted_per_cpu_by_their_label() -> None:
    labels = [
        {PINNED_CPU_LABEL: "0", "rlvr.pool": "code"},
        {PINNED_CPU_LABEL: "0"},
        {PINNED_CPU_LABEL: "3"},
        {PINNED_CPU_LABEL: "x"},  # not a CPU: not counted
        {"rlvr.pool": "sessions"},  # not pinned
        None,  # the engine may list a container without labels
    ]
    assert pinned_counts(labels) == Counter({0: 2, 3: 1})


def test_the_least_used_cpu_is_chosen_the_lowest_of_equals() -> None:
    assert least_used_cpu([0, 1, 2], Counter()) == 0
    assert least_used_cpu([0, 1, 2], Counter({0: 1})) == 1
    assert least_used_cpu([0, 1, 2], Counter({0: 1, 1: 1, 2: 1})) == 0
    assert least_used_cpu([2, 5], Counter({2: 2, 5: 1, 0: 0})) == 5
    # containers pinned to CPUs outside the allowed set change nothing
    assert least_used_cpu([1, 2], Counter({0: 9, 2: 1})) == 1
