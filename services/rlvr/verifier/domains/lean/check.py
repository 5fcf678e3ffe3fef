"""The verdict logic: the Lean commands that check one proof, and how their replies are judged.

One proof costs three REPL commands on a warm REPL whose header env `H` is already elaborated:

1. reference (once per statement and REPL), run on `H`, giving env `R`:

       #print axioms _root_.NAME
       private theorem P.rlvr_ref_<r> <binders> : <type> := sorry

   The statement is elaborated here, in the header's clean environment, before the submission
   exists, so nothing the submission does can change what it means; and it is elaborated the way
   the proof's own `theorem NAME <binders> : <type>` is: as a theorem header (auto-bound implicits
   apply, so `{α : Sort u}` needs no `universe u`; an `axiom` gets none), under the same prefix `P`
   of `NAME` (`theorem Nat.foo` elaborates inside namespace `Nat`, so short names resolve alike;
   `P` is empty for a root name). The `sorry` never reaches a verdict: only the reference's type is
   used below. It is `private`, so its name is internal and `exact?`/`apply?`/`hint`/`rw?` never
   offer it (they skip internal names), and an honest proof that searches the library cannot end
   up depending on it. The first line is a probe: it must fail ("unknown constant"), because if
   `NAME` already exists (a library theorem) the check below would accept that constant without
   the submission proving anything.
2. submission, on `R`: `section rlvr_sec_<n>` followed by the proof's code, giving env `S`.
   `<n>` is a fresh random nonce the submission cannot know.
3. trusted check, on `S`, a separate command (so `#exit`, an unterminated comment or anything else
   in the submission cannot reach it):

       end X  (one per scope the proof left open, innermost first: `noncomputable section`, ...)
       end rlvr_sec_<n>
       theorem _root_.rlvr_chk_<n> : type_of% @_root_.P.rlvr_ref_<r> := @_root_.NAME
       example := (@_root_.Eq.refl _ _ :
         @_root_.Eq _ (type_of% @_root_.NAME) (type_of% @_root_.P.rlvr_ref_<r>))
       #print axioms rlvr_chk_<n>

   A proof may leave scopes open (legal Lean: a file may end inside `noncomputable section`); the
   check closes them (`open_scopes` reads them from the proof's code) and then our section, whose
   name the submission cannot know, so `end rlvr_sec_<n>` fails if the proof closed our section
   or if the scopes were not what the code says. Either way every `variable`, `include`, `open`,
   `namespace` and `set_option` of the proof is gone: the check elaborates in the header's own
   scope. The theorem asks the kernel to accept the submission's `NAME` as a proof of the
   *reference's* type, and the `#print axioms` of that theorem covers every axiom the proof
   depends on. The `example` asks the kernel for `NAME`'s own type to be definitionally equal to
   the reference's (so no coercion or instance can stand in between; universe levels are
   unified, not fixed). Its reply must arrive, without any error, and must contain the axioms line
   naming the nonce: a missing or stale reply fails.

   What the nonce does NOT do: code running inside the REPL reads every command on its stdin,
   nonce and env ids included, and could print a reply in step. Such code is kept out by the
   pre-check and contained by the REPL's container; no protocol detail here is a defence
   against it.

A proof passes only if the submission's reply has no error and no `sorry` (the `sorries` field or
the "declaration uses sorry" warning in any quoting), the check's reply has no error, and the
axioms are a subset of `propext`, `Classical.choice`, `Quot.sound` (so `sorryAx`,
`Lean.ofReduceBool` and any new `axiom` all fail).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from rlvr.verifier.domains.lean.lexer import visible_code
from rlvr.verifier.domains.lean.protocol import LeanMessage, Reply
from rlvr.verifier.domains.lean.source import Statement

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
    """The names one check uses: the reference theorem, the section and the check theorem."""

    target: str  # the statement's NAME
    reference: str  # the reference's full name, under NAME's prefix
    section: str
    check: str

    @classmethod
    def fresh(cls, target: str, reference: str) -> CheckNames:
        nonce = new_nonce()
        return cls(target, reference, f"rlvr_sec_{nonce}", f"rlvr_chk_{nonce}")


def reference_name(statement: Statement) -> str:
    """A fresh reference name under the statement's own prefix (`Nat.foo` -> `Nat.rlvr_ref_…`)."""
    prefix, dot, _ = statement.name.rpartition(".")
    return f"{prefix}{dot}rlvr_ref_{new_nonce()}"


def reference_command(statement: Statement, reference: str) -> str:
    """The name probe on line 1, then the reference theorem from line 2 on."""
    probe = f"#print axioms _root_.{statement.name}"
    declaration = statement.declaration(name=reference, keyword="private theorem")
    # `:=` on its own line: a statement ending in a `--` comment cannot swallow it
    return f"{probe}\n{declaration}\n  := sorry"


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


_SCOPE = re.compile(
    r"(?<![\w'.])(?P<kind>noncomputable\s+section|section|namespace|mutual|end)(?![\w'!?])"
    r"(?:[ \t]+(?P<name>«[^»]*»(?:\.«[^»]*»|\.[^\W\d][\w'!?]*)*|[^\W\d][\w'!?.«»]*))?"
)
# Words that may follow `section`/`end` on a line without being its name.
_NOT_A_SCOPE_NAME = frozenset(
    {
        "theorem",
        "lemma",
        "def",
        "example",
        "open",
        "variable",
        "section",
        "namespace",
        "end",
        "noncomputable",
        "instance",
        "abbrev",
        "set_option",
        "universe",
        "attribute",
        "private",
        "protected",
        "in",
        "where",
    }
)


def open_scopes(code: str) -> list[str]:
    """The names of the scopes `code` leaves open, innermost first (`""` for an anonymous
    section), as `end` needs them; `[]` when it closes more than it opens (our section then
    fails to close, which fails the check)."""
    text = visible_code(code)
    stack: list[str] = []
    for match in _SCOPE.finditer(code if text is None else text):
        kind, name = match["kind"], match["name"] or ""
        if name in _NOT_A_SCOPE_NAME:
            name = ""
        if kind == "end":
            if not stack:
                return []
            stack.pop()
        elif kind != "mutual":
            stack.append(name)
        else:
            stack.append("\0mutual")
    return [name for name in reversed(stack) if name != "\0mutual"]


def check_command(names: CheckNames, scopes: list[str] | tuple[str, ...] = ()) -> str:
    """The trusted check; `scopes` are the ones the proof left open (see `open_scopes`)."""
    target, reference = f"@_root_.{names.target}", f"@_root_.{names.reference}"
    closing = "".join(f"end {name}".rstrip() + "\n" for name in scopes)
    return (
        closing + f"end {names.section}\n"
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
    if "'end'" in error.text or names.section in error.text:
        return f"the proof closed a `namespace`/`section` it did not open: {text}"
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
