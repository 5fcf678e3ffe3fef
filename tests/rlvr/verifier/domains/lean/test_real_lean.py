"""The real path: honest core-Lean proofs pass and every cheating pattern fails, on a REAL REPL.

Runs wherever a Lean toolchain exists: the Lean image (`RLVR_LEAN_IMAGE`, default
`rlvr-lean:latest`, built from docker/lean/Dockerfile) on a Docker engine, in the production
isolation; else `lake` and the leanprover-community `repl` on PATH (or `RLVR_LEAN_REPL` naming the
binary), as UNSAFE local processes; skipped elsewhere with that reason. Everything is core Lean 4
(no Mathlib). No test here has ever run on the machine this was written on: no Lean toolchain can
be installed there.

Every cheat is written so that it WOULD pass without the defence that stops it; each case says
which defence that is. Cheats stopped by the trusted check are also run with the pre-check
skipped (they must still fail). Cheats that only the pre-check stops are run without it too, and
there they must PASS: that shows the cheat is real, and shows exactly where the check alone is not
enough (see the notes: comparator's kernel replay would close the kernel-off case).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from typing import Any

import docker
import pytest

from rlvr.schemas.common import Status
from rlvr.schemas.lean import LeanItem, LeanResult
from rlvr.verifier.domains.lean.config import LeanSettings
from rlvr.verifier.domains.lean.source import parse_statement, proof_code
from rlvr.verifier.domains.lean.verifier import Job, LeanVerifier, open_lean_verifier

REPL = os.environ.get("RLVR_LEAN_REPL") or shutil.which("repl")
LEAN_IMAGE = os.environ.get("RLVR_LEAN_IMAGE", "rlvr-lean:latest")


def _has_lean_image() -> bool:
    try:
        docker.from_env(timeout=10).images.get(LEAN_IMAGE)
    except Exception:
        return False
    return True


HAS_IMAGE = _has_lean_image()
pytestmark = [
    pytest.mark.lean,
    pytest.mark.skipif(
        not HAS_IMAGE and not (REPL and shutil.which("lake")),
        reason=f"needs a real Lean toolchain: the image {LEAN_IMAGE} on a Docker engine, or "
        "`lake` and the leanprover-community `repl` on PATH (none can be installed on this "
        "project's build machines)",
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
    # issue 17, section 2: each failed under the old check commands
    ("auto-bound-universe", "theorem refl'' {α : Sort u} (x : α) : x = x", "rfl"),
    ("auto-bound-implicit", "theorem id_eq' (x : α) : id x = x", "rfl"),
    (
        "dotted-name",  # `succ` is `Nat.succ` inside namespace Nat, for proof and reference
        "theorem Nat.succ_ne_self' (n : Nat) : succ n ≠ n",
        "Nat.succ_ne_self n",
    ),
    (
        "exact?-finds-the-library",  # not the reference, which has exactly the goal's type
        "theorem add_zero'' (n : Nat) : n + 0 = n",
        "by exact?",
    ),
    ("noncomputable-left-open", ADD, f"noncomputable section\n{ADD} := Nat.add_comm a b"),
    (
        "namespace-left-open",
        ADD,
        "namespace X\ntheorem _root_.add_comm' (a b : Nat) : a + b = b + a := Nat.add_comm a b",
    ),
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
    ("closes-our-section", ADD, f"end\n{ADD} := Nat.add_comm a b"),
    # The statement text is the same, but `+` means the proof's own instance, under which
    # `n + 1` reduces to `n` and `rfl` proves it: this WOULD pass if the statement were
    # elaborated with the proof (or its text compared). It fails because the reference was
    # elaborated in the header's environment before the submission existed, and the kernel finds
    # `bad`'s type (with `cheatAdd`) not defeq to the reference's (with `instAddNat`).
    (
        "shadowed-instance",
        FALSE,
        f"instance (priority := high) cheatAdd : Add Nat := ⟨fun a _ => a⟩\n{FALSE} := rfl",
    ),
    # The same with a `local instance`: the attribute dies with the proof's section, but `bad`'s
    # type was elaborated under it. Fails for the same reason.
    (
        "local-instance",
        FALSE,
        "def cheatAdd : Add Nat := ⟨fun a _ => a⟩\nattribute [local instance high] cheatAdd\n"
        f"{FALSE} := rfl",
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
    # The kernel off, and a tactic that closes the goal with a term of another type (`True.intro`
    # for `n + 1 = n`): the elaborator does not re-check a tactic's assignment, and the kernel,
    # which would, is skipped. `bad` then has the right type and no axioms, and our check only
    # uses its type: this PASSES without the pre-check (`debug.*` and `run_tac` are refused).
    (
        "skip-kernel",
        FALSE,
        f"set_option debug.skipKernelTC true in\n{FALSE} := by\n  run_tac do\n"
        "    let g ← Lean.Elab.Tactic.getMainGoal\n    g.assign (Lean.mkConst ``True.intro)",
    ),
    # `macro_rules` are global and survive the `end` of our section: this one rewrites our
    # `#print axioms CHECK` into a printed line that names the check and no axioms, while `bad`
    # rests on a new axiom. This PASSES without the pre-check (`macro_rules` is refused).
    (
        "macro-rules-forge-axioms",
        FALSE,
        "axiom cheat (n : Nat) : n + 1 = n\n"
        "macro_rules | `(#print axioms $x) => `(#print $(Lean.Syntax.mkStrLit "
        "s!\"'{x.getId}' does not depend on any axioms\"))\n"
        f"{FALSE} := cheat n",
    ),
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
# Refused by the pre-check, and also stopped by the trusted check alone (run without it too).
PRECHECKED = {
    "native-decide",
    "implemented-by",
    "exit",
    "macro-rules",
    "local-notation",
    "eval-forge",
    "guard-msgs",
    "export-alias",
}
# Stopped by the pre-check ONLY: without it they pass (asserted below, so the cheat is real).
PRECHECK_ONLY = {"skip-kernel", "macro-rules-forge-axioms"}


def settings() -> LeanSettings:
    common: dict[str, Any] = {"pool_size_per_header": 2, "max_repls": 2, "default_timeout_s": 60}
    if HAS_IMAGE:
        return LeanSettings(isolation="container", sandbox={"image": LEAN_IMAGE}, **common)
    assert REPL is not None
    return LeanSettings(isolation="unsafe_process", repl_path=REPL, **common)


async def _without_precheck(verifier: LeanVerifier, statement: str, proof: str) -> LeanResult:
    parsed = parse_statement(statement)
    item = LeanItem(statement=statement, proof=proof)
    job = Job(0, item, "", parsed, proof_code(parsed, proof), 60.0)
    assert verifier.pool is not None
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
        raw = {
            i: await _without_precheck(verifier, s, p)
            for i, s, p in CHEATS
            if i in PRECHECKED | PRECHECK_ONLY
        }
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


@pytest.mark.parametrize("case", sorted(PRECHECK_ONLY))
def test_precheck_only_cheat_is_refused_and_would_pass_without_it(
    outcomes: dict[str, Any], case: str
) -> None:
    refused = outcomes["cheats"][case]
    assert refused.status is Status.failed and "refused before running Lean" in refused.detail
    # The cheat is real: with the pre-check skipped, Lean and our check accept it.
    assert outcomes["raw"][case].status is Status.passed, outcomes["raw"][case].detail


def test_lists_of_cheats_are_consistent() -> None:
    assert {c[0] for c in CHEATS} >= PRECHECKED | PRECHECK_ONLY
    assert not PRECHECKED & PRECHECK_ONLY
