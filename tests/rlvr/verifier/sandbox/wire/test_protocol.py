"""`decode_run_report`: the host reads a run report only as one of its six tagged shapes; any
other answer (no tag, a missing or mistyped field, an unknown field, an unknown skip code) is
a ValueError, which the host makes the item's `error`."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rlvr.verifier.sandbox.wire.protocol import (
    RunReport,
    SkippedReport,
    SkipReason,
    decode_run_report,
)
from tests.support import run_reports

JUDGE = {"exit_code": 0, "signal": None, "timed_out": False, "stderr": "", "elapsed_s": 0.1}

VALID: list[RunReport] = [
    run_reports.stdio(stdout="5\n"),
    run_reports.stdio(exit_code=None, signal=9, timed_out=True, out_of_budget=True),
    run_reports.stdio(judge={**JUDGE, "exit_code": 1, "output_at_fault": True}),
    run_reports.stdio(files={"out.txt": "aGk="}, phases_ms={"spawn": 0.3, "run": 2}),
    run_reports.interactive(),
    run_reports.interactive(judge=JUDGE),
    run_reports.call([{"ready": True}, {"value": "[1]"}]),
    run_reports.call([{"load": "error", "detail": "SyntaxError"}]),
    run_reports.asserted({"status": "passed", "detail": ""}),
    run_reports.asserted(None, timed_out=True, out_of_budget=True),
    run_reports.skipped(SkipReason.AFTER_FAILURE),
    run_reports.skipped(SkipReason.JUDGE_NOT_COMPILED, judge={**JUDGE, "exit_code": None}),
    run_reports.compile_error(),
    run_reports.compile_error("compilation timed out", timed_out=True),
]


@pytest.mark.parametrize("report", VALID, ids=lambda r: str(r["kind"]))
def test_every_shape_decodes_after_a_trip_through_json(report: RunReport) -> None:
    sent = json.loads(json.dumps(report))  # as the host receives it: plain JSON
    assert decode_run_report(sent) == report


def test_a_skip_reason_comes_back_as_its_code() -> None:
    decoded = decode_run_report({"kind": "skipped", "reason": "out_of_budget"})
    assert decoded["kind"] == "skipped"
    reason = decoded["reason"]
    assert type(reason) is SkipReason and reason is SkipReason.OUT_OF_BUDGET


def test_decoding_does_not_change_what_it_was_given() -> None:
    sent: dict[str, Any] = {"kind": "skipped", "reason": "not_cleaned"}
    decode_run_report(sent)
    assert type(sent["reason"]) is str


def broken(report: RunReport, **changes: Any) -> dict[str, Any]:
    """`report` with fields replaced, or removed where the change is `...`."""
    out = {**report, **changes}
    return {k: v for k, v in out.items() if v is not ...}


MALFORMED: list[tuple[Any, str]] = [
    ("not a report", "not an object"),
    ([run_reports.stdio()], "not an object"),
    ({"exit_code": 0, "stdout": "5\n"}, "unknown kind"),  # the untagged shape of old
    (broken(run_reports.stdio(), kind="process"), "unknown kind 'process'"),
    (broken(run_reports.stdio(), kind=["stdio"]), "unknown kind of type list"),
    (broken(run_reports.stdio(), stdout=...), "lacks stdout"),
    (broken(run_reports.stdio(), stdout=None), "malformed 'stdout'"),
    (broken(run_reports.stdio(), exit_code="0"), "malformed 'exit_code'"),
    (broken(run_reports.stdio(), timed_out=0), "malformed 'timed_out'"),
    (broken(run_reports.stdio(), elapsed_s=True), "malformed 'elapsed_s'"),
    (broken(run_reports.stdio(), files={"a": 1}), "malformed 'files'"),
    (broken(run_reports.stdio(), phases_ms={"run": "1"}), "malformed 'phases_ms'"),
    (broken(run_reports.stdio(), replies=[]), "unknown field 'replies'"),
    (broken(run_reports.stdio(), judge={**JUDGE, "verdict": "ok"}), "malformed 'judge'"),
    (broken(run_reports.stdio(), judge={"exit_code": 0}), "malformed 'judge'"),
    (broken(run_reports.interactive(), stdout_over=False), "unknown field 'stdout_over'"),
    (broken(run_reports.call([]), replies=["ready"]), "malformed 'replies'"),
    (broken(run_reports.call([]), replies={"0": {}}), "malformed 'replies'"),
    (broken(run_reports.call([]), response_over=...), "lacks response_over"),
    (broken(run_reports.asserted(None), verdict="passed"), "malformed 'verdict'"),
    (broken(run_reports.asserted(None), verdict=...), "lacks verdict"),
    ({"kind": "skipped"}, "lacks reason"),
    ({"kind": "skipped", "reason": "not run: an earlier test failed"}, "malformed 'reason'"),
    ({"kind": "skipped", "skipped": "after_failure"}, "lacks reason"),
    ({"kind": "skipped", "reason": "after_failure", "detail": "x"}, "unknown field 'detail'"),
    ({"kind": "compile_error", "detail": "x", "elapsed_s": 0.0}, "lacks timed_out"),
    (broken(run_reports.compile_error(), detail=["x"]), "malformed 'detail'"),
]


@pytest.mark.parametrize(("obj", "why"), MALFORMED)
def test_anything_but_a_complete_tagged_report_is_refused(obj: Any, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        decode_run_report(obj)


def test_what_each_kind_requires_is_its_typed_dict() -> None:
    """The decoder derives its fields from the shapes: a field added to one is checked at once
    (and one without a type check fails here, not on the first report that carries it)."""
    from rlvr.verifier.sandbox.wire import protocol

    for kind, typed_dict in protocol._SHAPES.items():
        shape: Any = typed_dict
        declared = shape.__required_keys__ | shape.__optional_keys__
        assert "kind" in shape.__required_keys__, kind
        assert declared - {"kind"} <= protocol._FIELD_CHECKS.keys(), kind
    assert set(protocol._SHAPES) == {
        "stdio",
        "interactive",
        "call",
        "assert",
        "skipped",
        "compile_error",
    }
    assert SkippedReport.__optional_keys__ == {"judge"}
