"""The verdict logic: the Lean commands that check one proof, and how their replies are judged.

One proof costs three REPL commands on a warm REPL whose header env `H` is already elaborated:

1. reference (once per statement and REPL), run on `H`, giving env `R`:

       #print axioms _root_.NAME
       axiom _root_.rlvr_ref_<r> <binders> : <type>

   The statement is elaborated here, in the header's clean environment, before the submission
   exists, so nothing the submission does can change what it means. The first line is a probe:
   it must fail ("unknown constant"), because if `NAME` already exists (a library theorem) the
   check below would accept that constant without the submission proving anything.
2. submission, on `R`: `section rlvr_sec_<n>` followed by the proof's code, giving env `S`.
   `<n>` is a fresh random nonce the submission cannot know.
3. trusted check, on `S`, a separate command (so `#exit`, an unterminated comment or anything else
   in the submission cannot reach it):

       end rlvr_sec_<n>
       theorem _root_.rlvr_chk_<n> : type_of% @_root_.rlvr_ref_<r> := @_root_.NAME
       example := (@_root_.Eq.refl _ _ :
         @_root_.Eq _ (type_of% @_root_.NAME) (type_of% @_root_.rlvr_ref_<r>))
       #print axioms rlvr_chk_<n>

   `end rlvr_sec_<n>` succeeds only if the submission closed every scope it opened, and drops all
   of its `variable`s, `include`s, `open`s, `namespace`s and `set_option`s: the check elaborates
   in the header's own scope. The theorem asks the kernel to accept the submission's `NAME` as a
   proof of the *reference's* type, and the `#print axioms` of that theorem covers every axiom the
   proof depends on. The `example` asks the kernel for `NAME`'s own type to be definitionally
   equal to the reference's (so no coercion or instance can stand in between; universe levels
   are unified, not fixed). Its reply must arrive, without any error, and must contain the axioms
   line naming the nonce: a missing, forged or reordered reply fails.

A proof passes only if the submission's reply has no error and no `sorry` (the `sorries` field or
the "declaration uses sorry" warning in any quoting), the check's reply has no error, and the
axioms are a subset of `propext`, `Classical.choice`, `Quot.sound` (so `sorryAx`,
`Lean.ofReduceBool`, the reference axiom itself and any new `axiom` all fail).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from services.verifier.domains.lean.protocol import LeanMessage, Reply
from services.verifier.domains.lean.source import Statement

ALLOWED_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})
_INFO = frozenset({"info", "information"})

_SORRY_WARNING = re.compile(r"declaration uses\s*['`‘’\"]?sorry['`‘’\"]?", re.IGNORECASE)
_AXIOMS_LINE = re.compile(
    r"^\s*['`‘\"]?(?P<name>\S+?)['`’\"]?\s+"
    r"(?:depends on axioms:\s*\[(?P<axioms>[^\]]*)\]|does not depend on any axioms)\s*\.?\s*$",
    re.DOTALL,
)


def new_nonce() -> str:
    return secrets.token_hex(12)


@dataclass(frozen=True)
class CheckNames:
    """The names one check uses: the reference axiom, the section and the check theorem."""

    target: str  # the statement's NAME
    reference: str
    section: str
    check: str

    @classmethod
    def fresh(cls, target: str, reference: str) -> CheckNames:
        nonce = new_nonce()
        return cls(target, reference, f"rlvr_sec_{nonce}", f"rlvr_chk_{nonce}")


def reference_name() -> str:
    return f"rlvr_ref_{new_nonce()}"


def reference_command(statement: Statement, reference: str) -> str:
    """The name probe on line 1, then the reference axiom from line 2 on."""
    probe = f"#print axioms _root_.{statement.name}"
    return f"{probe}\n{statement.declaration(name=f'_root_.{reference}', keyword='axiom')}"


def judge_reference(reply: Reply, statement: Statement) -> str | None:
    """Why the reference cannot be used (the caller's statement), or None when it is fine."""
    if reply.error is not None or reply.env is None:
        return f"the REPL refused the statement: {first_line(reply.error or 'no env')}"
    for message in reply.messages:
        if message.severity in _INFO and parse_axioms(message.text, statement.name) is not None:
            return (
                f"`{statement.name}` already exists in the header's environment; give the "
                "statement a new name (otherwise the existing constant would be accepted as is)"
            )
    # Line 1 is the probe, whose "unknown constant" error is the expected outcome.
    errors = [m for m in reply.errors if m.line != 1]
    if errors:
        return f"the statement does not elaborate: {first_line(errors[0].text)}"
    return None


def submission_command(code: str, names: CheckNames) -> str:
    """The proof's code inside a section whose name the submission cannot guess."""
    return f"section {names.section}\n{code}"


#: Lines the submission command adds before the proof's own first line.
SUBMISSION_LINE_OFFSET = 1


def check_command(names: CheckNames) -> str:
    target, reference = f"@_root_.{names.target}", f"@_root_.{names.reference}"
    return (
        f"end {names.section}\n"
        f"theorem _root_.{names.check} : type_of% {reference} := {target}\n"
        f"example := (@_root_.Eq.refl _ _ : "
        f"@_root_.Eq _ (type_of% {target}) (type_of% {reference}))\n"
        f"#print axioms {names.check}\n"
    )


@dataclass(frozen=True)
class Judgement:
    is_passed: bool
    detail: str
    axioms: tuple[str, ...] = ()


def shift_lines(messages: tuple[LeanMessage, ...], offset: int) -> list[LeanMessage]:
    """Messages with line numbers relative to the proof's code (not our wrapper)."""
    return [
        LeanMessage(m.severity, max(m.line - offset, 0) if m.line else 0, m.column, m.text)
        for m in messages
    ]


def first_line(text: str, limit: int = 300) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def has_sorry(reply: Reply) -> bool:
    return reply.sorries > 0 or any(_SORRY_WARNING.search(m.text) for m in reply.messages)


def parse_axioms(text: str, constant: str) -> tuple[str, ...] | None:
    """The axioms listed by `#print axioms constant`, or None if `text` is not that line."""
    match = _AXIOMS_LINE.match(text.strip())
    if not match:
        return None
    name = match.group("name").replace("«", "").replace("»", "")
    if name.removeprefix("_root_.") != constant:
        return None
    listed = match.group("axioms")
    if listed is None:
        return ()
    return tuple(
        a.strip().replace("«", "").replace("»", "") for a in listed.split(",") if a.strip()
    )


def judge_submission(reply: Reply) -> Judgement | None:
    """A failing judgement from the submission's own reply, or None if it may go on to the check."""
    if reply.error is not None:
        return Judgement(False, f"the REPL refused the proof: {first_line(reply.error)}")
    errors = reply.errors
    if errors:
        first = errors[0]
        line = max(first.line - SUBMISSION_LINE_OFFSET, 0)
        return Judgement(
            False, f"Lean error at line {line}: {first_line(first.text)} ({len(errors)} errors)"
        )
    if has_sorry(reply):
        return Judgement(False, "the proof uses `sorry` (or `admit`)")
    return None


def _check_error_detail(error: LeanMessage, names: CheckNames) -> str:
    text = first_line(error.text)
    if error.line == 1 or names.section in error.text:
        return f"the proof left a `namespace`/`section` open or closed one it did not open: {text}"
    if names.target in error.text and ("unknown" in text or "ambiguous" in text):
        return f"no unique declaration named `{names.target}` after the proof: {text}"
    return f"`{names.target}` does not prove the statement as given: {text}"


def judge_check(reply: Reply, names: CheckNames) -> Judgement:
    """Judge the trusted check's reply (the submission's reply already passed)."""
    if reply.error is not None:
        return Judgement(False, f"the trusted check did not run: {first_line(reply.error)}")
    if reply.errors:
        return Judgement(False, _check_error_detail(reply.errors[0], names))
    found = [
        axioms
        for m in reply.messages
        if m.severity in _INFO and (axioms := parse_axioms(m.text, names.check)) is not None
    ]
    if len(found) != 1:
        return Judgement(False, "the trusted check's axioms report is missing; not verified")
    axioms = found[0]
    if any("sorry" in a for a in axioms):
        return Judgement(False, "the proof depends on `sorryAx`", axioms)
    extra = sorted(set(axioms) - ALLOWED_AXIOMS)
    if extra:
        return Judgement(
            False,
            "the proof depends on axioms outside propext/Classical.choice/Quot.sound: "
            + ", ".join(extra),
            axioms,
        )
    return Judgement(True, "proof checked by the kernel against the reference statement", axioms)
