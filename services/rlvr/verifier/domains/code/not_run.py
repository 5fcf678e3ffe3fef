"""What a test PID 1 did not run counts as, by its `SkipReason` code: the one place the codes
are worded (the code verifier's test verdicts, `/run_code`'s sandbox errors)."""

from __future__ import annotations

from rlvr.schemas.code import TestStatus
from rlvr.verifier.sandbox.wire.protocol import SkipReason

AFTER_FAILURE = "not run: an earlier test failed (stop_on_first_failure)"
OUT_OF_BUDGET = "the item's total time budget (total_timeout_s) ran out"

NOT_RUN: dict[SkipReason, tuple[TestStatus, str]] = {
    SkipReason.AFTER_FAILURE: (TestStatus.failed, AFTER_FAILURE),
    SkipReason.OUT_OF_BUDGET: (TestStatus.timed_out, f"not run: {OUT_OF_BUDGET}"),
    # (the code verifier makes this one the item's `error`: the problem's fault, not a verdict)
    SkipReason.JUDGE_NOT_COMPILED: (
        TestStatus.runtime_error,
        "not run: the problem's checker or interactor did not compile",
    ),
    SkipReason.JUDGE_FAILED: (
        TestStatus.runtime_error,
        "not run: the problem's checker or interactor failed on an earlier test",
    ),
    SkipReason.NOT_CLEANED: (
        TestStatus.runtime_error,
        "not run: the sandbox could not be cleaned after this program",
    ),
    SkipReason.SPAWNER_LOST: (
        TestStatus.runtime_error,
        "not run: the sandbox's process spawner was killed or stopped by this program",
    ),
}
