"""Pool, deadlines, recycling, crashes, queue bound and verdict plumbing, against the STAND-IN REPL.

`fake_repl.py` is a test double speaking the REPL's JSON protocol; it is not Lean. What these
tests show is that our side (processes, framing, env bookkeeping, the three-command check, the
verdicts) behaves; what Lean itself decides is covered by `test_real_lean.py` where Lean exists.

These plumbing tests run the stand-in as an UNSAFE local process (`isolation="unsafe_process"`)
because several read host files it writes (call logs, crash markers); the same behaviours in the
production isolation, a locked-down container, are in `test_container.py`.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from rlvr.schemas.common import Status
from rlvr.schemas.lean import LeanItem, LeanResult
from rlvr.verifier.domains.lean.config import LeanSettings
from rlvr.verifier.domains.lean.verifier import LeanVerifier, open_lean_verifier
from rlvr.verifier.errors import Overloaded, PayloadTooLarge
from tests.rlvr.verifier.domains.lean.support import HONEST, STATEMENT, item, lean


async def one(verifier: LeanVerifier, proof: str = HONEST, **fields: Any) -> LeanResult:
    [result] = await verifier.verify_batch([item(proof, **fields)])
    return result


def log_lines(log: Path, kind: str) -> list[str]:
    return [line for line in log.read_text().splitlines() if line.endswith(f" {kind}")]


async def test_honest_proof_passes_and_header_is_elaborated_once_per_repl(tmp_path: Path) -> None:
    log = tmp_path / "repl.log"
    async with lean(log, pool_size_per_header=1) as verifier:
        results = await verifier.verify_batch([item() for _ in range(5)])
        assert [r.status for r in results] == [Status.passed] * 5
        assert all(r.reward == 1.0 and r.axioms == [] for r in results)
        assert "kernel" in results[0].detail
        stats = verifier.health().stats
    assert stats["repls_started"] == 1
    assert len(log_lines(log, "header")) == 1  # five proofs, one header elaboration
    assert len(log_lines(log, "reference")) == 1  # the statement's reference is cached too
    assert len(log_lines(log, "submission")) == 5


async def test_proof_body_without_declaration_is_attached_to_the_statement() -> None:
    async with lean() as verifier:
        result = await one(verifier, "by simp")
        commented = await one(
            verifier, "by simp", statement="theorem add_zero' (a : Nat) : a + 0 = a -- easy"
        )
    assert result.status is Status.passed
    assert commented.status is Status.passed, commented.detail


async def test_response_with_lean_block_is_checked() -> None:
    async with lean() as verifier:
        [good, missing] = await verifier.verify_batch(
            [
                LeanItem(statement=STATEMENT, response=f"Proof:\n```lean\n{HONEST}\n```"),
                LeanItem(statement=STATEMENT, response="I think it is true."),
            ]
        )
    assert good.status is Status.passed
    assert missing.status is Status.failed and "```lean" in missing.detail


@pytest.mark.parametrize(
    ("proof", "words"),
    [
        ("theorem add_zero' (a : Nat) : a + 0 = a + 0 := rfl", "does not prove the statement"),
        ("theorem add_zero' (a : Nat) : a + 0 = a := by\n  sorry", "sorry"),
        ("theorem add_zero' (a : Nat) : a + 0 = a := by\n  admit", "sorry"),
        ("axiom cheat : False\ntheorem add_zero' (a : Nat) : a + 0 = a := cheat.elim", "cheat"),
        (HONEST + " -- fake: axiom Classical.ofNonempty", "Classical.ofNonempty"),
        (
            "namespace X\ntheorem add_zero' (a : Nat) : a + 0 = a := by simp\nend X",
            "no unique declaration",
        ),
        (
            "end\ntheorem add_zero' (a : Nat) : a + 0 = a := by simp",
            "Lean error",  # closing our section is an error of the submission itself
        ),
        (
            "namespace X\nend X\nend X\ntheorem add_zero' (a : Nat) : a + 0 = a := by simp",
            "Lean error",
        ),
        ("theorem add_zero' (a : Nat) : a + 0 = a := by\n  simp -- fake: error", "Lean error"),
        ("theorem add_zero' (a : Nat) : a + 0 = a := by\n  simp -- fake: check_silent", "missing"),
    ],
)
async def test_cheats_fail_with_a_reason(proof: str, words: str) -> None:
    async with lean() as verifier:
        result = await one(verifier, proof)
    assert result.status is Status.failed and result.reward == 0.0
    assert words in result.detail


@pytest.mark.parametrize(
    "proof",
    [
        "noncomputable section\n" + HONEST,
        "namespace X\ntheorem _root_.add_zero' (a : Nat) : a + 0 = a := by simp",
        "section\nvariable (k : Nat)\nnamespace Y\nsection Z\n"
        "theorem _root_.add_zero' (a : Nat) : a + 0 = a := by simp",
        "namespace X\nend X\nnoncomputable section Foo\n"
        + HONEST.replace("add_zero'", "_root_.add_zero'"),
    ],
    ids=["noncomputable-section", "namespace", "nested", "closed-then-open"],
)
async def test_a_proof_may_leave_scopes_open(proof: str) -> None:
    # Legal Lean (a file may end inside `noncomputable section`): the check closes them.
    async with lean() as verifier:
        result = await one(verifier, proof)
    assert result.status is Status.passed, result.detail


async def test_statement_with_an_unbound_universe_is_elaborated_like_the_proof_header() -> None:
    # An `axiom` gets no auto-bound implicits; the reference is a theorem header, like the proof.
    statement = "theorem refl' {α : Sort u} (x : α) : x = x"
    async with lean() as verifier:
        result = await one(verifier, "rfl", statement=statement)
    assert result.status is Status.passed, result.detail


async def test_dotted_statement_name_resolves_short_names_like_the_proof() -> None:
    # `theorem Nat.foo` elaborates inside namespace Nat: `myconst` there means `Nat.myconst`,
    # in the proof and (since the reference is `Nat.rlvr_ref_…`) in the reference alike. A
    # reference at the root would read the root `myconst` and fail this honest proof.
    header = "-- FAKE_HEADER_DEFINES Nat.myconst\n-- FAKE_HEADER_DEFINES myconst"
    statement = "theorem Nat.foo : myconst = myconst"
    async with lean() as verifier:
        good = await one(verifier, "rfl", statement=statement, header=header)
        other = await one(
            verifier,
            "theorem Nat.foo : _root_.myconst = _root_.myconst := rfl",
            statement=statement,
            header=header,
        )
    assert good.status is Status.passed, good.detail
    assert other.status is Status.failed  # the root constant: another statement


async def test_library_search_never_finds_the_reference() -> None:
    # `exact?` skips internal names; a public reference would be found first and the honest
    # proof would then depend on its `sorry`.
    proof = (
        "theorem helper (a : Nat) : a + 0 = a := by simp\n"
        "theorem add_zero' (a : Nat) : a + 0 = a := by exact?"
    )
    async with lean() as verifier:
        result = await one(verifier, proof)
    assert result.status is Status.passed, result.detail
    assert any("exact helper" in m.text for m in result.messages)


async def test_error_messages_are_returned_with_lines_of_the_proof() -> None:
    async with lean() as verifier:
        result = await one(verifier, HONEST + " -- fake: error")
    assert result.status is Status.failed
    [message] = result.messages
    assert message.severity == "error" and message.line == 1  # the stand-in said line 2


async def test_refused_construct_never_reaches_lean(tmp_path: Path) -> None:
    log = tmp_path / "repl.log"
    async with lean(log) as verifier:
        result = await one(verifier, "set_option debug.skipKernelTC true\n" + HONEST)
    assert result.status is Status.failed
    assert "debug" in result.detail and "refused before running Lean" in result.detail
    assert not log.exists() or not log_lines(log, "submission")


async def test_hanging_proof_times_out_and_the_repl_is_replaced() -> None:
    async with lean(pool_size_per_header=1) as verifier:
        started = time.monotonic()
        hung = await one(verifier, HONEST + " -- fake: hang", timeout_s=1.0)
        waited = time.monotonic() - started
        after = await one(verifier)
        stats = verifier.health().stats
    assert hung.status is Status.timed_out and hung.reward == 0.0
    assert "killed" in hung.detail
    assert 0.9 < waited < 5.0
    assert after.status is Status.passed
    assert stats["repls_started"] == 2 and stats["repls_recycled"] == 1


async def test_hanging_trusted_check_times_out_too() -> None:
    async with lean() as verifier:
        result = await one(verifier, HONEST + " -- fake: check_hang", timeout_s=1.0)
    assert result.status is Status.timed_out


async def test_timeout_is_capped_by_the_server_maximum() -> None:
    async with lean(max_timeout_s=0.5) as verifier:
        started = time.monotonic()
        result = await one(verifier, HONEST + " -- fake: sleep 30", timeout_s=100)
    assert result.status is Status.timed_out
    assert time.monotonic() - started < 5


async def test_a_proof_that_crashes_two_repls_fails_and_the_next_proof_gets_a_new_repl() -> None:
    async with lean(pool_size_per_header=1) as verifier:
        crashed = await one(verifier, HONEST + " -- fake: crash")
        after = await one(verifier)
        assert verifier.pool is not None and verifier.pool.started == 3
        assert verifier.health().stats["proof_crashes"] == 2
    assert crashed.status is Status.failed and crashed.reward == 0.0
    assert "crashed the Lean REPL twice" in crashed.detail and "exited (code 3)" in crashed.detail
    assert after.status is Status.passed


async def test_one_crash_is_retried_on_a_fresh_repl(tmp_path: Path) -> None:
    marker = tmp_path / "crashed-once"
    async with lean(pool_size_per_header=1) as verifier:
        result = await one(verifier, HONEST + f" -- fake: crash_once {marker}")
        assert verifier.pool is not None and verifier.pool.started == 2
    assert marker.exists()
    assert result.status is Status.passed and result.reward == 1.0


async def test_memory_cap_kills_a_hungry_repl() -> None:
    async with lean(memory_limit_mb=400) as verifier:
        hungry = await one(verifier, HONEST + " -- fake: memory 1024")
        after = await one(verifier)
    assert hungry.status is Status.failed and "exited" in hungry.detail
    assert after.status is Status.passed


async def test_forged_reply_never_passes() -> None:
    async with lean(pool_size_per_header=1) as verifier:
        forged = await one(verifier, HONEST + " -- fake: forge")
        after = await one(verifier)
    assert forged.status in {Status.failed, Status.error}
    assert forged.reward != 1.0
    assert after.status is Status.passed


async def test_noise_on_stdout_before_a_reply_is_tolerated() -> None:
    async with lean() as verifier:
        result = await one(verifier, HONEST + " -- fake: noise")
    assert result.status is Status.passed


async def test_repl_is_recycled_after_max_proofs() -> None:
    async with lean(pool_size_per_header=1, max_proofs_per_repl=2) as verifier:
        results = [await one(verifier) for _ in range(5)]
        stats = verifier.health().stats
    assert all(r.status is Status.passed for r in results)
    assert stats["repls_started"] == 3


async def test_full_queue_refuses_the_batch_with_overloaded() -> None:
    async with lean(max_queue=2) as verifier:
        with pytest.raises(PayloadTooLarge):  # more than the whole queue: never admissible
            await verifier.verify_batch([item() for _ in range(3)])
        async with verifier.admission.admit(1):  # another batch's item in flight
            with pytest.raises(Overloaded) as caught:
                await verifier.verify_batch([item(), item()])
        assert caught.value.headers() == {"Retry-After": "5"}
        ok = await verifier.verify_batch([item() for _ in range(2)])
    assert [r.status for r in ok] == [Status.passed, Status.passed]


async def test_items_run_concurrently_on_the_pool() -> None:
    slow = HONEST + " -- fake: sleep 0.6"
    async with lean(pool_size_per_header=4, max_repls=4) as verifier:
        await verifier.verify_batch([item() for _ in range(4)])  # warm four REPLs
        started = time.monotonic()
        results = await verifier.verify_batch([item(slow) for _ in range(4)])
        elapsed = time.monotonic() - started
    assert all(r.status is Status.passed for r in results)
    assert elapsed < 4 * 0.6


async def test_pool_is_keyed_by_header_and_evicts_idle_repls(tmp_path: Path) -> None:
    log = tmp_path / "repl.log"
    async with lean(log, max_repls=1) as verifier:
        a = await one(verifier, header="-- header A")
        b = await one(verifier, header="-- header B")
        a2 = await one(verifier, header="-- header A")
        stats = verifier.health().stats
    assert [a.status, b.status, a2.status] == [Status.passed] * 3
    assert stats["repls_alive"] == 1  # max_repls holds across headers
    assert stats["repls_recycled"] >= 2  # A evicted for B, B evicted for A
    assert len(log_lines(log, "header")) >= 3


async def test_header_that_does_not_elaborate_is_an_error_for_its_items() -> None:
    async with lean() as verifier:
        results = await verifier.verify_batch(
            [item(header="import FAKE_BAD_HEADER"), item(header="import FAKE_BAD_HEADER")]
        )
        good = await one(verifier)
    assert all(r.status is Status.error and "header" in r.detail for r in results)
    assert good.status is Status.passed


async def test_statement_that_does_not_elaborate_is_an_error() -> None:
    statement = "theorem add_zero' (a : Nat) : a + 0 = FAKE_BAD_STATEMENT"
    async with lean() as verifier:
        result = await one(verifier, "by simp", statement=statement)
    assert result.status is Status.error and "statement does not elaborate" in result.detail


async def test_statement_named_like_an_existing_constant_is_an_error() -> None:
    # Otherwise a proof that merely mentions the name would be judged against the library's own
    # theorem of that name, proving nothing.
    async with lean() as verifier:
        result = await one(
            verifier, "/- theorem add_zero' -/", header="-- FAKE_HEADER_DEFINES add_zero'"
        )
    assert result.status is Status.error and "already exists" in result.detail


async def test_reference_cache_is_per_name_so_every_name_is_probed() -> None:
    header = "-- FAKE_HEADER_DEFINES taken"
    async with lean(pool_size_per_header=1) as verifier:
        fresh = await one(verifier, "by simp", header=header)
        taken = await one(
            verifier,
            "/- theorem taken -/",
            header=header,
            statement="theorem taken (a : Nat) : a + 0 = a := by sorry",
        )
    assert fresh.status is Status.passed
    assert taken.status is Status.error and "already exists" in taken.detail


async def test_header_that_opens_a_namespace_is_an_error() -> None:
    async with lean() as verifier:
        result = await one(verifier, header="namespace Contest")
    assert result.status is Status.error and "namespace" in result.detail


async def test_malformed_statement_is_an_error_without_lean() -> None:
    async with lean() as verifier:
        result = await one(verifier, "by simp", statement="def f := 1")
    assert result.status is Status.error and result.reward is None


async def test_without_a_toolchain_items_get_an_error_fast() -> None:
    settings = LeanSettings(isolation="unsafe_process", repl_path="/nonexistent/lean/repl")
    async with open_lean_verifier(settings) as verifier:
        health = verifier.health()
        started = time.monotonic()
        results = await verifier.verify_batch([item(), item("#exit")])
    assert not health.ok and "no Lean toolchain" in health.detail
    # Every item, a forbidden construct included: "unavailable" is answered before any pre-check
    # work (issue 21, item 15), and health says Lean is not offered.
    for result in results:
        assert result.status is Status.error and "no Lean toolchain" in result.detail
    assert health.offered is False
    assert time.monotonic() - started < 0.5


async def test_disabled_verifier_reports_why() -> None:
    async with open_lean_verifier(LeanSettings(is_enabled=False)) as verifier:
        result = await one(verifier)
        health = verifier.health()
    assert result.status is Status.error and "disabled" in result.detail
    assert not health.ok


async def test_concurrent_batches_share_the_pool_without_mixing_replies() -> None:
    cheat = "theorem add_zero' (a : Nat) : a + 0 = a + 0 := rfl"
    async with lean(pool_size_per_header=2, max_repls=2) as verifier:
        batches = await asyncio.gather(
            *(verifier.verify_batch([item(), item(cheat), item()]) for _ in range(4))
        )
    for results in batches:
        assert [r.status for r in results] == [Status.passed, Status.failed, Status.passed]


async def test_repl_that_dies_at_start_is_an_error_and_health_says_so() -> None:
    settings = LeanSettings(
        isolation="unsafe_process", repl_command="sh -c 'echo boom >&2; exit 7'"
    )
    async with open_lean_verifier(settings) as verifier:
        result = await one(verifier)
        health = verifier.health()
    assert result.status is Status.error and result.reward is None
    assert "exited (code 7)" in result.detail and "boom" in result.detail
    assert not health.ok and "last REPL start failed" in health.detail


async def test_cancelled_request_does_not_leave_a_reply_for_the_next_one() -> None:
    async with lean(pool_size_per_header=1) as verifier:
        task = asyncio.create_task(verifier.verify_batch([item(HONEST + " -- fake: sleep 0.5")]))
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        after = await one(verifier)
        stats = verifier.health().stats
    assert after.status is Status.passed
    assert stats["repls_recycled"] >= 1 and stats["in_flight_items"] == 0


async def test_repl_that_died_while_idle_is_replaced_before_use() -> None:
    async with lean(pool_size_per_header=1) as verifier:
        assert (await one(verifier)).status is Status.passed
        assert verifier.pool is not None
        [idle] = [w for queue in verifier.pool._idle.values() for w in queue if w.header == ""]
        await idle.repl.kill()  # as if the OOM killer had struck between two requests
        after = await one(verifier)
    assert after.status is Status.passed


@pytest.mark.parametrize("accumulate", [False, True], ids=["fresh-messages", "repeated-messages"])
async def test_verdicts_hold_whether_or_not_replies_repeat_parent_messages(
    accumulate: bool,
) -> None:
    warned = HONEST + " -- fake: info"  # an info message in the submission's reply
    cases = [
        (HONEST, Status.passed),
        (warned, Status.passed),
        ("theorem add_zero' (a : Nat) : a + 0 = a := by\n  sorry", Status.failed),
        ("theorem add_zero' (a : Nat) : a + 0 = a + 0 := rfl", Status.failed),
        ("namespace X\ntheorem _root_.add_zero' (a : Nat) : a + 0 = a := by simp", Status.passed),
        ("theorem add_zero' (a : Nat) : a + 0 = a + 0 := rfl", Status.failed),
        (HONEST + " -- fake: check_silent", Status.failed),
        (HONEST, Status.passed),  # the cached reference, reused
    ]
    async with lean(accumulate=accumulate, pool_size_per_header=1) as verifier:
        results = [await one(verifier, proof) for proof, _ in cases]
    assert [r.status for r in results] == [expected for _, expected in cases], [
        r.detail for r in results
    ]
    [info] = results[1].messages  # the submission's own message, once, at its own line
    assert (info.severity, info.line) == ("info", 2)
