"""From an item's text to Lean source: the statement's parts, the proof code, the model's block."""

from __future__ import annotations

import re
from dataclasses import dataclass

_DECL = re.compile(
    r"^\s*(?:/--.*?-/\s*)?(?P<attrs>(?:@\[[^\]]*\]\s*)*)"
    r"(?P<kw>theorem|lemma)\s+(?P<name>[^\s(){}\[\]:⦃]+)(?P<sig>.*)$",
    re.DOTALL,
)
# A statement may come as dataset text does: `... := by sorry`, `... := sorry`, or a bare `:=`.
_PLACEHOLDER_TAIL = re.compile(r":=\s*(?:by\s+)?(?:sorry)?\s*$|:=\s*by\s*$")
_LEAN_OPENER = re.compile(r"```[ \t]*lean4?", re.IGNORECASE)
_NAME_OK = re.compile(r"^[^\W\d][\w'.!?₀-₉]*$")


class StatementError(ValueError):
    """The item's `statement` is not `theorem NAME binders : type` (the caller's mistake)."""


@dataclass(frozen=True)
class Statement:
    keyword: str
    name: str
    signature: str  # binders and `: type`, without `:=`

    def declaration(self, name: str | None = None, keyword: str | None = None) -> str:
        return f"{keyword or self.keyword} {name or self.name}{self.signature}"


def parse_statement(text: str) -> Statement:
    match = _DECL.match(text)
    if not match:
        raise StatementError("statement must read `theorem NAME (binders) : type`")
    name = match.group("name")
    if not _NAME_OK.match(name) or name.startswith("_root_"):
        raise StatementError(f"statement name {name!r} is not a plain Lean identifier")
    signature = _PLACEHOLDER_TAIL.sub("", match.group("sig").rstrip()).rstrip()
    if ":" not in signature:
        raise StatementError("statement has no `: type`")
    if ":=" in signature:
        raise StatementError("statement must not contain a proof (`:=`)")
    return Statement(keyword=match.group("kw"), name=name, signature=" " + signature.lstrip())


def last_lean_block(response: str) -> str | None:
    """The body of the last ```lean (or ```lean4) fenced block of a model's output: from the
    line after the opener to the next ```. One forward pass (a regex that looked for the end of
    the opener's line from every ```lean of a one-line response was quadratic: minutes on 1 MB,
    in C code that holds the GIL)."""
    last = None
    position = 0
    while (opener := _LEAN_OPENER.search(response, position)) is not None:
        newline = response.find("\n", opener.end())
        if newline < 0:  # no later opener has a line after it either
            break
        close = response.find("```", newline + 1)
        if close < 0:  # unclosed: no later block can close either
            break
        last = response[newline + 1 : close]
        position = close + 3
    return last


def declares(code: str, name: str) -> bool:
    """Whether `code` contains a `theorem NAME`/`lemma NAME` declaration (a full proof)."""
    pattern = rf"(?<![\w'.])(?:theorem|lemma)\s+(?:_root_\.)?{re.escape(name)}(?![\w'!?.])"
    return re.search(pattern, code) is not None


def proof_code(statement: Statement, proof: str) -> str:
    """The submission as Lean code: a full declaration as given, or `statement := proof`.

    The wrapper always says `theorem` (core Lean has no `lemma`); `:=` starts a new line, so a
    statement that ends in a `--` comment cannot swallow it."""
    if declares(proof, statement.name):
        return proof
    body = proof.strip()
    if body.startswith(":="):
        body = body[2:].lstrip()
    return f"{statement.declaration(keyword='theorem')}\n:= {body}"
