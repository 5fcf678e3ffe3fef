"""Every deadline the host sets for a code item, in one place: the compiler's, a checker's, how
long the host waits for a job's answer, how long an item waits for a free sandbox. (PID 1
enforces per-run deadlines from the job's limits; `total_timeout_s` cuts them there.)"""

from __future__ import annotations

from rlvr.schemas.code import CodeItem
from rlvr.verifier.domains.batching import item_timeout_s, within_cap
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.sandbox.wire.protocol import Job

# The least compile time any item gets: `#include <bits/stdc++.h>` at -O2 takes ~3 s on a loaded
# 2-core machine, so honest programs never come near it.
COMPILE_FLOOR_S = 10.0
# A checker's or interactor's own time per test (dataset code: generous, not the candidate's).
JUDGE_TIMEOUT_S = 10.0
# What one run costs PID 1 beyond the program's own time: spawn, sweep, wipe (each run's).
RUN_OVERHEAD_S = 3.0
# The host's margin over the job's own budget: the frames, the container's first start.
ANSWER_SLACK_S = 10.0
# A borrower waits for a free sandbox as long as a long job ahead of it may hold one: this many
# tests at the largest per-test timeout, plus a compile and a minute.
_ACQUIRE_TESTS = 8
_ACQUIRE_SLACK_S = 60.0


def compile_timeout_s(item: CodeItem, settings: CodeSettings) -> float:
    """g++'s deadline: the item's own run budget (per-test timeout x tests), at least the floor,
    at most `compile_timeout_s`. A `constexpr` or template busy-loop then holds a container no
    longer than the program itself could have run."""
    budget_s = item_timeout_s(item.timeout_s, settings) * max(1, len(item.tests))
    return min(settings.compile_timeout_s, max(COMPILE_FLOOR_S, budget_s))


def requested_compile_timeout_s(requested_s: float, settings: CodeSettings) -> float:
    """`/run_code`'s compile deadline: the request's own (SandboxFusion's `compile_timeout`),
    never above `compile_timeout_s`."""
    return within_cap(requested_s, settings.compile_timeout_s, settings.compile_timeout_s)


def job_deadline_s(job: Job) -> float:
    """How long the host waits for the executor's answer before declaring the sandbox lost."""
    tests = len(job["tests"])
    per_test = float(job["limits"]["timeout_s"]) + RUN_OVERHEAD_S
    program = job.get("program")
    needs_compile = bool(program and program["compile_argv"]) and "artefact" not in job
    compile_s = float(job["compile_timeout_s"]) if needs_compile else 0.0
    tests_s = per_test * tests
    if "total_timeout_s" in job:  # the budget cuts the tests' runs (not their sweeps)
        tests_s = min(tests_s, float(job["total_timeout_s"]) + RUN_OVERHEAD_S * tests)
    judge = job.get("checker") or job.get("interactor")
    judge_s = 0.0
    if judge is not None:  # its own time per test, and its compilation once
        judge_limits = job.get("judge_limits", job["limits"])
        judge_s = (float(judge_limits["timeout_s"]) + RUN_OVERHEAD_S) * tests
        judge_s += float(job["compile_timeout_s"]) if judge["language"] == "cpp" else 0.0
    return ANSWER_SLACK_S + compile_s + tests_s + judge_s


def acquire_timeout_s(settings: CodeSettings) -> float:
    """How long an item waits for a free sandbox before it is the verifier's error."""
    return settings.max_timeout_s * _ACQUIRE_TESTS + settings.compile_timeout_s + _ACQUIRE_SLACK_S
