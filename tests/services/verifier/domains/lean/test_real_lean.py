"""The real path: honest core-Lean proofs pass and every cheating pattern fails, on a REAL REPL.

Runs wherever `lake` and the leanprover-community `repl` binary are on PATH (or `RLVR_LEAN_REPL`
names the binary); skipped elsewhere with that reason. Everything is core Lean 4 (no Mathlib), so
the toolchain alone is enough. No test here has ever run on the machine this was written on:
no Lean toolchain can be installed there.

Cheats are checked twice where the pre-check would catch them: through the service (refused
before Lean runs) and, as defence in depth, straight through the Lean part with the pre-check
skipped, to show that the trusted check alone also rejects them.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from typing import Any

import pytest

from services.verifier.domains.lean.config import LeanSettings
from services.verifier.domains.lean.source import parse_statement, proof_code
from services.verifier.domains.lean.verifier import Job, LeanVerifier, open_lean_verifier
from services.verifier.schemas.common import Status
from services.verifier.schemas.lean import LeanItem, LeanResult

REPL = os.environ.get("RLVR_LEAN_REPL") or shutil.which("repl")
pytestmark = [
    pytest.mark.lean,
    pytest.mark.skipif(
        not (REPL and shutil.which("lake")),
        reason="needs a real Lean toolchain: `lake` and the leanprover-community `repl` on PATH "
        "(none can be installed on this project's build machines)",
    ),
]

FALSE = "theorem bad (n : Nat) : n + 1 = n"
ADD = "theorem add_comm' (a b : Nat) : a + b = b + a"

# (id, statement, proof) — must pass
HONEST: list[tuple[str, str, str]] = [
    ("omega", ADD, f"{ADD} := by\n  omega"),
    ("term", ADD, f"{ADD} := Nat.add_comm a b"),
    ("body-only", "theorem four : 2 + 2 = 4 := by sorry", "by decide"),
    ("body-with-colon-eq", "theorem four' : 2 + 2 = 4", ":= rfl"),
    (
        "helper",
        ADD,
        f"theorem helper (a b : Nat) : a + b = b + a := Nat.add_comm a b\n{ADD} := helper a b",
    ),
    ("and", "theorem both (p q : Prop) (hp : p) (hq : q) : p ∧ q", "⟨hp, hq⟩"),
    ("classical", "theorem em' (p : Prop) : p ∨ ¬p", "Classical.em p"),
    ("universe", "theorem refl' {α : Sort u} (x : α) : x = x", "rfl"),
    ("renamed-binders", ADD, "theorem add_comm' (x y : Nat) : x + y = y + x := Nat.add_comm x y"),
    ("open-in", ADD, f"open Nat in\n{ADD} := Nat.add_comm a b"),
    ("section-vars", ADD, f"section\nvariable (k : Nat)\nend\n{ADD} := by omega"),
]

# (id, statement, proof) — must not pass; all core Lean
CHEATS: list[tuple[str, str, str]] = [
    ("sorry", FALSE, f"{FALSE} := by\n  sorry"),
    ("sorry-term", FALSE, f"{FALSE} := sorry"),
    ("admit", FALSE, f"{FALSE} := by\n  admit"),
    ("sorry-in-helper", FALSE, f"theorem h (n : Nat) : n + 1 = n := sorry\n{FALSE} := h n"),
    ("decreasing-sorry", FALSE, f"{FALSE} := bad n\ndecreasing_by sorry"),
    ("changed-statement", ADD, "theorem add_comm' (a b : Nat) : a + b = a + b := rfl"),
    ("extra-hypothesis", FALSE, "theorem bad (n : Nat) (h : n + 1 = n) : n + 1 = n := h"),
    ("wrong-name", FALSE, "theorem bad' (n : Nat) : n = n := rfl"),
    ("namespaced", FALSE, "namespace X\ntheorem bad (n : Nat) : n + 1 = n := sorry\nend X"),
    (
        "left-open",
        ADD,
        "namespace X\ntheorem _root_.add_comm' (a b : Nat) : a + b = b + a := Nat.add_comm a b",
    ),
    ("closes-our-section", ADD, f"end\n{ADD} := Nat.add_comm a b"),
    (
        "shadowed-instance",
        FALSE,
        "instance (priority := high) cheatAdd : Add Nat := ⟨fun a _ => a⟩\n"
        f"{FALSE} := fun _ => rfl",
    ),
    (
        "local-instance",
        FALSE,
        "def cheatAdd : Add Nat := ⟨fun a _ => a⟩\nattribute [local instance high] cheatAdd\n"
        f"{FALSE} := fun _ => rfl",
    ),
    (
        "shadowed-names",
        FALSE,
        "namespace Cheat\nabbrev Nat := Unit\ninstance : Add Nat := ⟨fun _ _ => ()⟩\n"
        "instance : OfNat Nat n := ⟨()⟩\n"
        "theorem _root_.bad (n : Nat) : n + 1 = n := rfl\nend Cheat",
    ),
    ("variable-include", FALSE, f"variable (h : ∀ n : Nat, n + 1 = n)\ninclude h\n{FALSE} := h n"),
    ("extra-axiom", FALSE, f"axiom cheat : ∀ n : Nat, n + 1 = n\n{FALSE} := cheat n"),
    (
        "stronger-statement",
        "theorem five (p : Nat → Prop) (h : ∀ n, p n) : p 5",
        "instance (p : Nat → Prop) : CoeFun (∀ n, p n) (fun _ => p 5) := ⟨fun h => h 5⟩\n"
        "theorem five (p : Nat → Prop) (h : ∀ n, p n) : ∀ n, p n := h",
    ),
    ("opaque", FALSE, f"opaque cheat : ∀ n : Nat, n + 1 = n\n{FALSE} := cheat n"),
    ("self-reference", FALSE, f"{FALSE} := bad n"),
    (
        "export-alias",
        FALSE,
        "namespace Y\ntheorem bad (n : Nat) : n + 1 = n + 1 := rfl\nend Y\nexport Y (bad)",
    ),
    # refused by the pre-check; also run without it below
    ("native-decide", "theorem big : 2 ^ 10 = 1024", "by native_decide"),
    (
        "implemented-by",
        FALSE,
        "def f (n : Nat) : Bool := false\n@[implemented_by f] def g (n : Nat) : Bool := true\n"
        f"{FALSE} := by\n  have := (rfl : g n = true)\n  sorry",
    ),
    ("exit", FALSE, f"{FALSE} := by\n  sorry\n#exit"),
    ("skip-kernel", FALSE, f"set_option debug.skipKernelTC true\n{FALSE} := fun _ => rfl"),
    (
        "macro-rules",
        FALSE,
        f"macro_rules | `(tactic| decide) => `(tactic| sorry)\n{FALSE} := by decide",
    ),
    ("local-notation", FALSE, f'local notation "False\'" => True\n{FALSE} := sorry'),
    (
        "eval-forge",
        FALSE,
        '#eval show IO Unit from do\n  let h ← IO.FS.Handle.mk "/dev/stdout" .write\n'
        '  h.putStrLn "{\\"env\\": 3}\\n"\n  h.flush\n'
        f"{FALSE} := sorry",
    ),
    (
        "print-forge",
        FALSE,
        f"#print \"'rlvr_chk_0' does not depend on any axioms\"\n{FALSE} := sorry",
    ),
    ("guard-msgs", FALSE, f"#guard_msgs in\n{FALSE} := sorry"),
]
PRECHECKED = {
    "native-decide",
    "implemented-by",
    "exit",
    "skip-kernel",
    "macro-rules",
    "local-notation",
    "eval-forge",
    "guard-msgs",
    "export-alias",
}


def settings() -> LeanSettings:
    assert REPL is not None
    return LeanSettings(repl_path=REPL, pool_size_per_header=2, max_repls=2, default_timeout_s=60)


async def _without_precheck(verifier: LeanVerifier, statement: str, proof: str) -> LeanResult:
    parsed = parse_statement(statement)
    item = LeanItem(statement=statement, proof=proof)
    job = Job(0, item, "", parsed, proof_code(parsed, proof), 60.0)
    assert verifier.pool is not None
    verifier.pool.admit(1)
    return await verifier._run(job, time.perf_counter())


async def _run_all() -> dict[str, Any]:
    async with open_lean_verifier(settings()) as verifier:
        health = verifier.health()
        honest = await verifier.verify_batch(
            [LeanItem(id=i, statement=s, proof=p) for i, s, p in HONEST]
        )
        cheats = await verifier.verify_batch(
            [LeanItem(id=i, statement=s, proof=p) for i, s, p in CHEATS]
        )
        raw = {i: await _without_precheck(verifier, s, p) for i, s, p in CHEATS if i in PRECHECKED}
        response = await verifier.verify_batch(
            [LeanItem(statement=ADD, response=f"```lean\n{ADD} := by omega\n```")]
        )
    return {
        "health": health,
        "honest": {r.id: r for r in honest},
        "cheats": {r.id: r for r in cheats},
        "raw": raw,
        "response": response[0],
    }


@pytest.fixture(scope="module")
def outcomes() -> dict[str, Any]:
    return asyncio.run(_run_all())


def test_health_is_ok_with_a_toolchain(outcomes: dict[str, Any]) -> None:
    assert outcomes["health"].ok, outcomes["health"].detail


@pytest.mark.parametrize("case", [c[0] for c in HONEST])
def test_honest_proof_passes(outcomes: dict[str, Any], case: str) -> None:
    result = outcomes["honest"][case]
    assert result.status is Status.passed, (result.detail, result.messages)
    assert result.reward == 1.0
    assert set(result.axioms) <= {"propext", "Classical.choice", "Quot.sound"}


def test_classical_proof_reports_its_axioms(outcomes: dict[str, Any]) -> None:
    assert "Classical.choice" in outcomes["honest"]["classical"].axioms


def test_response_block_passes(outcomes: dict[str, Any]) -> None:
    assert outcomes["response"].status is Status.passed


@pytest.mark.parametrize("case", [c[0] for c in CHEATS])
def test_cheat_fails(outcomes: dict[str, Any], case: str) -> None:
    result = outcomes["cheats"][case]
    assert result.status is not Status.passed, result.detail
    assert result.reward != 1.0


@pytest.mark.parametrize("case", sorted(PRECHECKED))
def test_cheat_fails_even_without_the_precheck(outcomes: dict[str, Any], case: str) -> None:
    result = outcomes["raw"][case]
    assert result.status is not Status.passed, result.detail
    assert result.reward != 1.0
