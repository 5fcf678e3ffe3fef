"""`POST /lean` on a live uvicorn server whose REPL is the STAND-IN (`fake_repl.py`, not Lean),
configured the way a deployment configures the real one: through `VERIFIER_LEAN__*` settings,
each REPL in a locked-down container on the real Docker engine (the production isolation), the
service holding an API key that an escaped proof would want."""

from __future__ import annotations

import json
import shutil
import socket
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import httpx
import pytest

from tests.rlvr.verifier.domains.lean.support import container_env, require_stand_in_image
from tests.support.http import post_items
from tests.support.server import running_service

API_KEY = "lean-test-key-" + "k" * 24
STATEMENT = "theorem two_mul' (n : Nat) : 2 * n = n + n := by sorry"
HONEST = "theorem two_mul' (n : Nat) : 2 * n = n + n := by\n  omega"


@pytest.fixture(scope="module")
def lean_url() -> Iterator[str]:
    require_stand_in_image()
    env = {
        **container_env(),
        "VERIFIER_API_KEY": API_KEY,
        "VERIFIER_CODE__IS_ENABLED": "false",
        "VERIFIER_LEAN__MAX_QUEUE": "3",
        "VERIFIER_LEAN__RETRY_AFTER_S": "7",
    }
    with running_service(env) as url:
        yield url


def post_lean(url: str, items: Sequence[Mapping[str, object]]) -> httpx.Response:
    # the key of the Lean service here; a service without one ignores the header
    return post_items(url, "/lean", items, timeout_s=60, headers={"X-API-Key": API_KEY})


def test_honest_proof_passes_with_messages_and_axioms(lean_url: str) -> None:
    reply = post_lean(lean_url, [{"id": "a", "statement": STATEMENT, "proof": HONEST}])
    assert reply.status_code == 200
    [result] = reply.json()["results"]
    assert result["id"] == "a"
    assert result["status"] == "passed" and result["reward"] == 1.0
    assert result["messages"] == [] and result["axioms"] == []


def test_batch_keeps_order_and_judges_each_item(lean_url: str) -> None:
    items = [
        {"statement": STATEMENT, "proof": HONEST},
        {"statement": STATEMENT, "proof": "theorem two_mul' (n : Nat) : 2 * n = n + n := sorry"},
        {"statement": STATEMENT, "proof": "theorem two_mul' (n : Nat) : n = n := rfl"},
    ]
    results = post_lean(lean_url, items).json()["results"]
    assert [r["status"] for r in results] == ["passed", "failed", "failed"]
    assert "sorry" in results[1]["detail"]
    assert "does not prove the statement" in results[2]["detail"]
    assert [r["reward"] for r in results] == [1.0, 0.0, 0.0]


def test_response_field_takes_the_last_lean_block(lean_url: str) -> None:
    response = f"First try:\n```lean\nby sorry\n```\nFixed:\n```lean\n{HONEST}\n```"
    reply = post_lean(lean_url, [{"statement": STATEMENT, "response": response}])
    [result] = reply.json()["results"]
    assert result["status"] == "passed"


def test_forbidden_construct_is_refused_with_a_clear_detail(lean_url: str) -> None:
    proof = "macro_rules | `(tactic| omega) => `(tactic| sorry)\n" + HONEST
    [result] = post_lean(lean_url, [{"statement": STATEMENT, "proof": proof}]).json()["results"]
    assert result["status"] == "failed" and result["reward"] == 0.0
    assert result["detail"].startswith("refused before running Lean: `macro_rules`")


def test_escape_from_inside_a_repl_reaches_neither_the_service_nor_the_host(
    lean_url: str, tmp_path: Path
) -> None:
    port = int(lean_url.rsplit(":", 1)[1])
    secret = tmp_path / ".env"  # a host file holding the key, as a deployment's .env does
    secret.write_text(f"VERIFIER_API_KEY={API_KEY}\n")
    with socket.socket() as server:  # something listening on every host interface as well
        server.bind(("0.0.0.0", 0))
        server.listen(1)
        other = server.getsockname()[1]
        directive = f" -- fake: escape port={port} port={other} file={secret}"
        item = {"statement": STATEMENT, "proof": HONEST + directive}
        [result] = post_lean(lean_url, [item]).json()["results"]
    assert result["status"] == "passed"
    [text] = [m["text"] for m in result["messages"] if m["text"].startswith("escape report: ")]
    report = json.loads(text.removeprefix("escape report: "))
    assert f"loopback:{port}" in report and "docker_socket" in report
    gained = {k: v for k, v in report.items() if not v.startswith("blocked")}
    assert gained == {}, gained
    assert API_KEY not in text
    lean = httpx.get(f"{lean_url}/health", headers={"X-API-Key": API_KEY}).json()
    assert lean["domains"]["lean"]["stats"]["isolation"] == "container"


def test_timeout_is_data_not_an_http_error(lean_url: str) -> None:
    item = {"statement": STATEMENT, "proof": HONEST + " -- fake: hang", "timeout_s": 1}
    reply = post_lean(lean_url, [item])
    assert reply.status_code == 200
    assert reply.json()["results"][0]["status"] == "timed_out"


def test_a_batch_larger_than_the_queue_is_413(lean_url: str) -> None:
    items = [{"statement": STATEMENT, "proof": HONEST}] * 4
    reply = post_lean(lean_url, items)
    assert reply.status_code == 413  # it could never be admitted: retrying would not help
    error = reply.json()["error"]
    assert error["code"] == "payload_too_large" and "max_queue=3" in error["message"]


@pytest.mark.parametrize(
    "item",
    [
        {"statement": STATEMENT},
        {"statement": STATEMENT, "proof": HONEST, "response": HONEST},
        {"proof": HONEST},
        {"statement": STATEMENT, "proof": HONEST, "timeout_s": 0},
        {"statement": STATEMENT, "proof": HONEST, "imports": "Mathlib"},
    ],
    ids=["no-proof", "proof-and-response", "no-statement", "zero-timeout", "unknown-field"],
)
def test_invalid_item_is_422(lean_url: str, item: dict[str, object]) -> None:
    reply = post_lean(lean_url, [item])
    assert reply.status_code == 422
    assert reply.json()["error"]["code"] == "validation_error"


def test_health_reports_the_lean_pool_and_pinned_versions(lean_url: str) -> None:
    post_lean(lean_url, [{"statement": STATEMENT, "proof": HONEST}])
    lean = httpx.get(f"{lean_url}/health", headers={"X-API-Key": API_KEY}).json()
    lean = lean["domains"]["lean"]
    assert lean["ok"] is True
    assert lean["stats"]["lean_toolchain"].startswith("leanprover/lean4:")
    assert lean["stats"]["repls_started"] >= 1
    metrics = httpx.get(f"{lean_url}/metrics", headers={"X-API-Key": API_KEY}).text
    assert 'rlvr_items_total{endpoint="lean",status="passed"}' in metrics


@pytest.mark.skipif(shutil.which("repl") is not None, reason="a Lean REPL is on PATH here")
def test_without_a_toolchain_items_are_errors_and_health_says_why(verifier_url: str) -> None:
    # The shared server has no Lean configured, as on this machine.
    reply = post_lean(verifier_url, [{"statement": STATEMENT, "proof": HONEST}])
    [result] = reply.json()["results"]
    assert result["status"] == "error" and result["reward"] is None
    assert "no Lean toolchain" in result["detail"]
    lean = httpx.get(f"{verifier_url}/health").json()["domains"]["lean"]
    assert lean["ok"] is False and "no Lean toolchain" in lean["detail"]
