"""The verdict logic and the Lean text it builds: statements, proof code, commands, judgements.

Replies here are written in the REPL's reply format (as `protocol.parse_reply` reads it); they are
constructed by hand, not recorded from a real Lean.
"""

from __future__ import annotations

import time

import pytest

from rlvr.verifier.domains.lean.check import (
    CheckNames,
    check_command,
    has_sorry,
    judge_check,
    judge_reference,
    judge_submission,
    open_scopes,
    parse_axioms,
    reference_command,
    reference_name,
    shift_lines,
    submission_command,
)
from rlvr.verifier.domains.lean.protocol import LeanMessage, parse_reply
from rlvr.verifier.domains.lean.source import (
    StatementError,
    declares,
    last_lean_block,
    parse_statement,
    proof_code,
)

NAMES = CheckNames("add_comm'", "rlvr_ref_r1", "rlvr_sec_n1", "rlvr_chk_n1")


def msg(severity: str, data: str, line: int = 1) -> dict[str, object]:
    return {"severity": severity, "pos": {"line": line, "column": 0}, "endPos": None, "data": data}


# -- statements and proof code -------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "name", "signature"),
    [
        ("theorem foo (a b : Nat) : a + b = b + a", "foo", " (a b : Nat) : a + b = b + a"),
        ("theorem foo (a : Nat) : a = a := by sorry", "foo", " (a : Nat) : a = a"),
        ("theorem foo : True := sorry", "foo", " : True"),
        ("lemma foo : True :=", "foo", " : True"),
        ("theorem foo: True := by\n  sorry", "foo", " : True"),
        ("  theorem Nat.foo' {n : Nat} : n = n", "Nat.foo'", " {n : Nat} : n = n"),
        ("/-- The doc. -/\ntheorem foo : True := by sorry", "foo", " : True"),
        (
            "theorem mathd_algebra_10 : abs ((120 : ℝ) / 100 * 30 - 130 / 100 * 20) = 10 "
            ":= by sorry",
            "mathd_algebra_10",
            " : abs ((120 : ℝ) / 100 * 30 - 130 / 100 * 20) = 10",
        ),
    ],
)
def test_statement_is_split_into_name_and_signature(text: str, name: str, signature: str) -> None:
    statement = parse_statement(text)
    assert statement.name == name
    assert statement.signature == signature


@pytest.mark.parametrize(
    "text",
    [
        "def foo : Nat := 1",
        "theorem : True",
        "theorem foo",
        "theorem foo : True := trivial",
        "theorem _root_.foo : True",
        "example : True",
    ],
)
def test_bad_statement_is_rejected(text: str) -> None:
    with pytest.raises(StatementError):
        parse_statement(text)


def test_reference_probes_the_name_then_declares_a_private_sorried_theorem() -> None:
    # A theorem header (auto-bound implicits, as the proof's), private (library search skips it).
    statement = parse_statement("theorem foo {α : Sort u} (a : α) : a = a := by sorry")
    assert reference_command(statement, "rlvr_ref_x").splitlines() == [
        "#print axioms _root_.foo",
        "private theorem rlvr_ref_x {α : Sort u} (a : α) : a = a",
        "  := sorry",
    ]


def test_a_statement_ending_in_a_comment_cannot_swallow_the_proof() -> None:
    statement = parse_statement("theorem foo : True -- the easy one")
    assert proof_code(statement, "trivial").splitlines()[-1] == ":= trivial"
    assert reference_command(statement, "r").splitlines()[-1] == "  := sorry"


def test_reference_lives_under_the_statements_prefix() -> None:
    # `theorem Nat.foo` is elaborated inside namespace Nat; so is `Nat.rlvr_ref_…`.
    dotted = reference_name(parse_statement("theorem Nat.Prime.foo : True"))
    assert dotted.startswith("Nat.Prime.rlvr_ref_") and len(dotted) > 30
    assert reference_name(parse_statement("theorem foo : True")).startswith("rlvr_ref_")
    assert reference_name(parse_statement("theorem foo : True")) != reference_name(
        parse_statement("theorem foo : True")
    )


@pytest.mark.parametrize(
    ("code", "scopes"),
    [
        ("theorem t : True := trivial", []),
        ("noncomputable section\ntheorem t : True := trivial", [""]),
        ("namespace A.B\nsection S\nnoncomputable section\nend\n", ["S", "A.B"]),
        ("namespace X\nend X\nsection\nend", []),
        ("section\nend\nend", []),  # closes one more than it opens: our section fails to close
        ("-- namespace X\n/- section Y -/\ntheorem t : True := trivial", []),
        ("namespace X\ntheorem t : True := trivial\nsection\nvariable (n : Nat)\nend", ["X"]),
        ("mutual\ntheorem a : True := trivial\ntheorem b : True := trivial\nend", []),
        ("section\ntheorem t : True := trivial", [""]),
    ],
)
def test_open_scopes_are_read_from_the_code_outside_comments(code: str, scopes: list[str]) -> None:
    assert open_scopes(code) == scopes


def test_reference_is_usable_when_only_the_probe_failed() -> None:
    statement = parse_statement("theorem foo : True")
    reply = parse_reply({"env": 1, "messages": [msg("error", "unknown constant 'foo'", 1)]})
    assert judge_reference(reply, statement) is None


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        (
            {"env": 1, "messages": [msg("info", "'foo' does not depend on any axioms", 1)]},
            "already exists",
        ),
        (
            {
                "env": 1,
                "messages": [
                    msg("error", "unknown constant 'foo'", 1),
                    msg("error", "unknown identifier 'Foo'", 2),
                ],
            },
            "does not elaborate",
        ),
        ({"message": "Unknown environment."}, "refused"),
    ],
)
def test_unusable_reference_says_why(reply: dict, words: str) -> None:
    problem = judge_reference(parse_reply(reply), parse_statement("theorem foo : True"))
    assert problem is not None and words in problem


def test_proof_body_is_attached_to_the_statement() -> None:
    statement = parse_statement("theorem foo (a : Nat) : a + 0 = a")
    assert proof_code(statement, "by simp") == "theorem foo (a : Nat) : a + 0 = a\n:= by simp"
    assert proof_code(statement, ":= rfl") == "theorem foo (a : Nat) : a + 0 = a\n:= rfl"


def test_wrapper_says_theorem_even_for_a_lemma_statement() -> None:
    statement = parse_statement("lemma foo : True := by sorry")
    assert proof_code(statement, "trivial") == "theorem foo : True\n:= trivial"


def test_full_declaration_is_kept_as_written() -> None:
    statement = parse_statement("theorem foo (a : Nat) : a + 0 = a")
    full = "theorem helper : True := trivial\n\ntheorem foo (a : Nat) : a + 0 = a := rfl"
    assert proof_code(statement, full) == full
    assert declares("lemma foo : x := y", "foo")
    assert not declares("theorem foo' : x := y", "foo")
    assert not declares("theorem Bar.foo : x := y", "foo")


def test_last_lean_block_of_a_response_is_taken() -> None:
    response = "Plan:\n```lean\nby simp\n```\nBetter:\n```lean4\nby omega\n```\nDone."
    assert last_lean_block(response) == "by omega\n"
    assert last_lean_block("```python\nprint(1)\n```") is None
    assert last_lean_block("```LEAN4 x\nby simp\n```<|im_end|>") == "by simp\n"
    assert last_lean_block("````lean\nby rfl\n```") == "by rfl\n"
    assert last_lean_block("```lean\nby simp") is None


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("```lean" * 150_000, None),  # one line: no block opens
        ("```lean\n" + "```lean" * 150_000, ""),  # as for 1 to 3 repetitions: an empty block
    ],
)
def test_last_lean_block_is_one_pass(response: str, expected: str | None) -> None:
    """Quadratic before (minutes for 1 MB on one line); milliseconds now, so 30 s is room for a
    loaded machine, not for a quadratic scan. The answer is a short text of that shape's."""
    started = time.perf_counter()
    assert last_lean_block(response) == expected
    assert time.perf_counter() - started < 30


# -- commands ------------------------------------------------------------------------------
def test_check_closes_the_scopes_the_proof_left_open_then_our_section() -> None:
    lines = check_command(NAMES, ["", "X.Y"]).splitlines()
    assert lines[:3] == ["end", "end X.Y", "end rlvr_sec_n1"]
    assert lines[3].startswith("theorem _root_.rlvr_chk_n1 : ")


def test_submission_runs_inside_a_nonce_section_closed_by_the_check() -> None:
    sub = submission_command("theorem add_comm' : True := trivial", NAMES)
    assert sub.splitlines()[0] == "section rlvr_sec_n1"
    check = check_command(NAMES)
    lines = check.splitlines()
    assert lines[0] == "end rlvr_sec_n1"
    assert lines[1] == (
        "theorem _root_.rlvr_chk_n1 : type_of% @_root_.rlvr_ref_r1 := @_root_.add_comm'"
    )
    assert lines[2] == (
        "example := (@_root_.Eq.refl _ _ : "
        "@_root_.Eq _ (type_of% @_root_.add_comm') (type_of% @_root_.rlvr_ref_r1))"
    )
    assert lines[3] == "#print axioms rlvr_chk_n1"


def test_fresh_names_differ_every_time() -> None:
    first, second = CheckNames.fresh("foo", "r"), CheckNames.fresh("foo", "r")
    assert first.section != second.section and first.check != second.check
    assert len(first.section) > 20


def test_message_lines_are_relative_to_the_proof_code() -> None:
    shifted = shift_lines((LeanMessage("error", 3, 4, "x"), LeanMessage("info", 0, 0, "y")), 1)
    assert [(m.line, m.column) for m in shifted] == [(2, 4), (0, 0)]


# -- #print axioms -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "'rlvr_chk_n1' depends on axioms: [propext, Classical.choice, Quot.sound]",
            ("propext", "Classical.choice", "Quot.sound"),
        ),
        (
            "'rlvr_chk_n1' depends on axioms: [propext,\n Classical.choice,\n Quot.sound]",
            ("propext", "Classical.choice", "Quot.sound"),
        ),
        ("`rlvr_chk_n1` depends on axioms: [sorryAx]", ("sorryAx",)),
        ("'rlvr_chk_n1' does not depend on any axioms", ()),
        ("'_root_.rlvr_chk_n1' does not depend on any axioms", ()),
        ("'rlvr_chk_n2' does not depend on any axioms", None),
        ("'add_comm'' does not depend on any axioms", None),
        ("'rlvr_chk_n1'' does not depend on any axioms", None),
        ("[Elab.command] #print axioms rlvr_chk_n1", None),
        ("forged: 'rlvr_chk_n1' does not depend on any axioms", None),
    ],
)
def test_axioms_line_is_read_only_for_the_check_theorem(
    text: str, expected: tuple[str, ...] | None
) -> None:
    assert parse_axioms(text, "rlvr_chk_n1") == expected


# -- judgements ----------------------------------------------------------------------------
def test_axioms_line_of_a_primed_name_is_read() -> None:
    assert parse_axioms("'add_comm'' depends on axioms: [propext]", "add_comm'") == ("propext",)


def test_clean_submission_goes_on_to_the_check() -> None:
    assert judge_submission(parse_reply({"env": 3})) is None
    warn = parse_reply({"env": 3, "messages": [msg("warning", "unused variable `h`")]})
    assert judge_submission(warn) is None


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        ({"env": 3, "messages": [msg("error", "unsolved goals\n⊢ False", 3)]}, "line 2"),
        ({"env": 3, "messages": [msg("warning", "declaration uses 'sorry'")]}, "sorry"),
        ({"env": 3, "messages": [msg("warning", "declaration uses `sorry`")]}, "sorry"),
        ({"env": 3, "messages": [msg("warning", "declaration uses ‘sorry’")]}, "sorry"),
        ({"env": 3, "sorries": [{"goal": "⊢ False", "proofState": 0}]}, "sorry"),
        ({"message": "Unknown environment."}, "refused"),
    ],
)
def test_submission_with_error_or_sorry_fails(reply: dict, words: str) -> None:
    judgement = judge_submission(parse_reply(reply))
    assert judgement is not None and not judgement.is_passed
    assert words in judgement.detail


def test_sorry_detector_sees_every_form() -> None:
    assert has_sorry(parse_reply({"env": 1, "sorries": [{"goal": "x"}]}))
    assert not has_sorry(parse_reply({"env": 1, "messages": [msg("info", "no sorries here? ok")]}))


def axioms_reply(text: str, *extra: dict[str, object]) -> dict[str, object]:
    return {"env": 5, "messages": [*extra, msg("info", text, 3)]}


def test_check_with_standard_axioms_passes() -> None:
    reply = axioms_reply("'rlvr_chk_n1' depends on axioms: [propext, Quot.sound]")
    judgement = judge_check(parse_reply(reply), NAMES)
    assert judgement.is_passed
    assert judgement.axioms == ("propext", "Quot.sound")


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        (axioms_reply("'rlvr_chk_n1' depends on axioms: [sorryAx]"), "sorryAx"),
        (
            axioms_reply("'rlvr_chk_n1' depends on axioms: [propext, Lean.ofReduceBool]"),
            "Lean.ofReduceBool",
        ),
        (axioms_reply("'rlvr_chk_n1' depends on axioms: [my_axiom]"), "my_axiom"),
        (axioms_reply("'rlvr_chk_n1' depends on axioms: [rlvr_ref_r1]"), "rlvr_ref_r1"),
        ({"env": 5}, "missing"),  # the reply arrived but without the report
        (
            {"env": 5, "messages": [msg("info", "'rlvr_chk_n2' does not depend on any axioms")]},
            "missing",
        ),  # a report about another (forged or stale) check
        (
            axioms_reply(
                "'rlvr_chk_n1' does not depend on any axioms",
                msg("info", "'rlvr_chk_n1' does not depend on any axioms"),
            ),
            "missing",
        ),
        (
            {"env": 5, "messages": [msg("error", "invalid 'end', name mismatch", 1)]},
            "closed a `namespace`/`section`",
        ),
        (
            {"env": 5, "messages": [msg("error", "unknown identifier 'add_comm''", 2)]},
            "no unique declaration",
        ),
        (
            {"env": 5, "messages": [msg("error", "type mismatch\n  add_comm'\nhas type ...", 2)]},
            "does not prove the statement",
        ),
        ({"message": "Unknown environment."}, "did not run"),
    ],
)
def test_check_failures_are_failed_with_a_reason(reply: dict, words: str) -> None:
    judgement = judge_check(parse_reply(reply), NAMES)
    assert not judgement.is_passed
    assert words in judgement.detail


def test_error_anywhere_in_the_check_fails_even_with_an_axioms_line() -> None:
    reply = axioms_reply(
        "'rlvr_chk_n1' does not depend on any axioms",
        msg("error", "(kernel) declaration type mismatch, 'rlvr_chk_n1'", 2),
    )
    assert not judge_check(parse_reply(reply), NAMES).is_passed
