"""Which CPU a new sandbox container is pinned to: one of its own where there are enough.

A job's processes hand work to each other all the time (PID 1 asks the zygote, the zygote forks
the run, the run's exit wakes them both). Left to roam, they land on different cores, and each
hand-over is a wake-up across cores (on a virtual machine, an interrupt through the hypervisor)
and a cold cache for the fork's page tables. Pinned to one core, a container's chain stays on
it. Measured on this project's 2-core machine (benchmarks/RESULTS.md, "Tool calls: one core per
container"): about 12% less CPU per `/run_code` call (median of ten pairs). It also gives each
container a core of its own while there are as many cores as containers: a program's time is
less at the mercy of its neighbours'.

The spread counts every container of this engine that carries `PINNED_CPU_LABEL` (other pools and
other replicas on the same host included), so two services on one host do not stack their
containers on the same cores.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable

PINNED_CPU_LABEL = "rlvr.cpu"  # the CPU a container is pinned to (its cpuset, one CPU)


def parse_cpuset(text: str) -> list[int]:
    """Docker's (and the kernel's) cpuset list, `0-3,6`, as sorted CPU numbers; ValueError on
    anything else."""
    cpus: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ValueError(f"not a cpuset: {text!r}")
        low, high = int(first), int(last or first)
        if high < low:
            raise ValueError(f"not a cpuset: {text!r}")
        cpus.update(range(low, high + 1))
    return sorted(cpus)


def allowed_cpus(cpuset: str | None) -> list[int]:
    """The CPUs containers may be pinned to: the `cpuset_cpus` setting where given, else the CPUs
    this process may run on (the engine's, where the service runs on its host)."""
    if cpuset:
        return parse_cpuset(cpuset)
    return sorted(os.sched_getaffinity(0))


def pinned_counts(labels: Iterable[dict[str, str] | None]) -> Counter[int]:
    """How many containers are pinned to each CPU, from their labels (a label that is not a CPU
    number is not counted)."""
    counts: Counter[int] = Counter()
    for container_labels in labels:
        value = (container_labels or {}).get(PINNED_CPU_LABEL, "")
        if value.isdigit():
            counts[int(value)] += 1
    return counts


def least_used_cpu(cpus: list[int], counts: Counter[int]) -> int:
    """The allowed CPU with the fewest containers pinned to it; the lowest number of those."""
    return min(cpus, key=lambda cpu: (counts[cpu], cpu))
