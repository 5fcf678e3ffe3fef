"""The leanprover-community REPL's JSON protocol: encoding commands, framing and parsing replies.

A command is one JSON object followed by a blank line (`{"cmd": ..., "env": N}`). A reply is a
JSON object (the REPL pretty-prints it over several lines, never with a blank line inside, since
newlines in strings are escaped) followed by a blank line: `{"env": N, "messages": [...],
"sorries": [...]}`, where each message is `{"severity", "pos": {"line", "column"}, "endPos",
"data"}`; absent lists mean empty. A failed request is `{"message": "..."}`. Some releases repeat
the parent env's messages at the start of a reply (`Reply.since` removes them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any


class ProtocolError(Exception):
    """The REPL said something that is not a reply (a verifier fault, never the candidate's)."""


@dataclass(frozen=True)
class LeanMessage:
    severity: str
    line: int
    column: int
    text: str


@dataclass(frozen=True)
class Reply:
    env: int | None
    messages: tuple[LeanMessage, ...] = ()
    sorries: int = 0
    error: str | None = None  # the REPL's own `{"message": ...}` (unknown env, bad JSON, ...)
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def errors(self) -> tuple[LeanMessage, ...]:
        return tuple(m for m in self.messages if m.severity == "error")

    def since(self, parent: tuple[LeanMessage, ...]) -> Reply:
        """This reply without the messages its parent env's reply already had.

        Some REPL releases carry a command state's messages into the commands run on top of it,
        so a reply repeats its parent's messages first. Those are dropped here (only as an exact
        leading run), so a verdict only ever looks at what this command itself produced.
        """
        if parent and self.messages[: len(parent)] == parent:
            return replace(self, messages=self.messages[len(parent) :])
        return self


def encode_command(cmd: str, env: int | None = None) -> bytes:
    """One REPL command: compact JSON on one line, then a blank line that ends it."""
    payload: dict[str, Any] = {"cmd": cmd}
    if env is not None:
        payload["env"] = env
    return (json.dumps(payload, ensure_ascii=False) + "\n\n").encode("utf-8")


def _position(raw: Any) -> tuple[int, int]:
    if isinstance(raw, dict):
        line, column = raw.get("line", 0), raw.get("column", 0)
        if isinstance(line, int) and isinstance(column, int):
            return line, column
    return 0, 0


def parse_message(raw: Any) -> LeanMessage:
    if not isinstance(raw, dict):
        raise ProtocolError(f"message is not an object: {raw!r:.200}")
    severity = raw.get("severity")
    data = raw.get("data")
    if not isinstance(severity, str) or not isinstance(data, str):
        raise ProtocolError(f"message lacks severity/data: {raw!r:.200}")
    line, column = _position(raw.get("pos"))
    return LeanMessage(severity=severity, line=line, column=column, text=data)


def parse_reply(obj: Any) -> Reply:
    """Turn one decoded reply object into a `Reply`; raise `ProtocolError` if it is not one."""
    if not isinstance(obj, dict):
        raise ProtocolError(f"reply is not a JSON object: {obj!r:.200}")
    if "env" not in obj:
        message = obj.get("message")
        if isinstance(message, str):
            return Reply(env=None, error=message, raw=obj)
        raise ProtocolError(f"reply has neither env nor message: {obj!r:.200}")
    env = obj["env"]
    if not isinstance(env, int) or isinstance(env, bool):
        raise ProtocolError(f"reply env is not an integer: {env!r:.50}")
    messages = obj.get("messages", [])
    sorries = obj.get("sorries", [])
    if not isinstance(messages, list) or not isinstance(sorries, list):
        raise ProtocolError("reply messages/sorries are not lists")
    return Reply(
        env=env,
        messages=tuple(parse_message(m) for m in messages),
        sorries=len(sorries),
        raw=obj,
    )


class ReplyFramer:
    """Accumulates stdout lines and yields a reply object at the blank line that closes it.

    A reply never contains a blank line, so at each blank line the reply, if one has started, is
    complete. Lines that are not part of it (a REPL build that echoes its input or logs progress
    to stdout) are dropped: the reply is the longest tail of the collected lines, starting at a
    line that opens with `{`, that parses as JSON. An object printed by code running inside the
    REPL would parse too, and such code sees our commands (nonces, env ids) on its stdin: what
    keeps it out is the pre-check, and the container keeps whatever gets in from reaching
    anything; framing and numbering only catch a REPL that is out of step by accident.
    """

    def __init__(self, max_chars: int = 64 * 1024 * 1024) -> None:
        self._lines: list[str] = []
        self._chars = 0
        self._max_chars = max_chars

    def feed(self, line: str) -> Any | None:
        """Feed one line (without its newline); return a decoded object when one is complete."""
        if line.strip():
            if not self._lines and not line.lstrip().startswith("{"):
                return None  # noise between replies
            self._lines.append(line)
            self._chars += len(line)
            if self._chars > self._max_chars:
                raise ProtocolError(f"reply larger than {self._max_chars} characters")
            return None
        lines, self._lines, self._chars = self._lines, [], 0
        for start, first in enumerate(lines):
            if not first.lstrip().startswith("{"):
                continue
            try:
                return json.loads("\n".join(lines[start:]))
            except json.JSONDecodeError:
                continue
        return None
