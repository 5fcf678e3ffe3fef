"""The session containers' reports, decoded with checks: what PID 1 sends passes, anything else
is refused with a message (the host never trusts a report's shape)."""

from __future__ import annotations

from typing import Any

import pytest

from rlvr.schemas.sessions import CellStatus
from rlvr.verifier.sandbox.wire.session_protocol import CELL_OUTCOMES, decode_session_report

CELL: dict[str, Any] = {
    "kind": "cell", "seq": 3, "session": "s", "status": "ok", "stdout": "", "stderr": "",
    "value": "42", "error": None, "elapsed_s": 0.01, "alive": True,
}  # fmt: skip


@pytest.mark.parametrize(
    "report",
    [
        CELL,
        {**CELL, "status": "timed_out", "value": None, "error": "late", "alive": False},
        {"kind": "opened", "seq": 1, "session": "s", "ok": True, "detail": ""},
        {"kind": "opened", "seq": 1, "session": "s", "ok": False, "detail": "full",
         "phases_ms": {"space": 4.5}},
        {"kind": "closed", "seq": 2, "session": "s", "was_open": True},
        {"kind": "ended", "session": "s", "why": "killed"},
    ],
)  # fmt: skip
def test_what_pid_1_sends_decodes(report: dict[str, Any]) -> None:
    assert decode_session_report(report) == report


@pytest.mark.parametrize(
    "report, message",
    [
        ([], "not an object"),
        ({"kind": "shell"}, "unknown kind"),
        ({"kind": 7}, "unknown kind"),
        ({k: v for k, v in CELL.items() if k != "alive"}, "lacks alive"),
        ({**CELL, "extra": 1}, "unknown field"),
        ({**CELL, "status": "passed"}, "malformed 'status'"),
        ({**CELL, "value": 42}, "malformed 'value'"),
        ({**CELL, "seq": -1}, "malformed 'seq'"),
        ({**CELL, "seq": True}, "malformed 'seq'"),
        ({**CELL, "alive": 1}, "malformed 'alive'"),
        ({**CELL, "elapsed_s": float("nan")}, "malformed 'elapsed_s'"),
        ({"kind": "opened", "seq": 1, "session": "s", "ok": True, "detail": "",
          "phases_ms": {"x": "1"}}, "malformed 'phases_ms'"),
    ],
)  # fmt: skip
def test_anything_else_is_refused_with_what_is_wrong(report: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        decode_session_report(report)


def test_the_outcomes_are_the_wire_statuses_a_cell_can_end_with() -> None:
    assert {status.value for status in CellStatus} >= CELL_OUTCOMES
    assert {"session_lost", "sandbox_error"}.isdisjoint(CELL_OUTCOMES)  # the host's words
