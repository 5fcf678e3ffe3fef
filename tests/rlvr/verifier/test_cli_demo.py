"""`rlvr-verifier demo` (what `scripts/quickstart.sh` shows a newcomer) against a live service
with the Docker sandbox: every demo request comes back with the verdict it is there to show."""

from __future__ import annotations

import json

import pytest

from rlvr.verifier.cli import main
from tests.support.server import service_fixture

demo_url = service_fixture(
    {"VERIFIER_CODE__POOL_SIZE": "1", "VERIFIER_MATH__WORKERS": "1"}, needs_docker=True
)


@pytest.mark.docker
def test_the_demo_shows_each_verdict_it_promises(
    demo_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["demo", "--url", demo_url])
    printed = [line.strip() for line in capsys.readouterr().out.splitlines()]
    shown = [json.loads(line) for line in printed if line.startswith("{")]
    by_id = {row["id"]: row["status"] for row in shown if "id" in row}
    assert by_id == {
        "boxed-fraction": "passed",
        "answer-line": "passed",
        "wrong": "failed",
        "hedging": "failed",
        "code-correct": "passed",
        "code-exit-hack": "failed",
    }
    cells = [row for row in shown if "session_alive" in row]
    assert [cell["status"] for cell in cells] == ["ok", "ok", "error"]
    assert cells[1]["value"] == "12.566"  # state from the first cell
    assert cells[2]["error"].startswith("ZeroDivisionError") and cells[2]["session_alive"]
