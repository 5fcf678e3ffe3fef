"""The REPL wire protocol: command encoding, reply framing and reply parsing."""

from __future__ import annotations

import json

import pytest

from rlvr.verifier.domains.lean.protocol import (
    ProtocolError,
    ReplyFramer,
    encode_command,
    parse_reply,
)

# The shape the REPL prints (pretty JSON, then a blank line), as in its README's example.
PRETTY_REPLY = """{"sorries":
 [{"pos": {"line": 1, "column": 18},
   "endPos": {"line": 1, "column": 23},
   "goal": "\\n⊢ Nat",
   "proofState": 0}],
 "messages":
 [{"severity": "error",
   "pos": {"line": 1, "column": 23},
   "endPos": {"line": 1, "column": 26},
   "data": "type mismatch\\n  rfl\\nhas type\\n  f = f : Prop"}],
 "env": 6}
"""


def feed_all(framer: ReplyFramer, text: str) -> list[object]:
    out = []
    for line in text.split("\n"):
        obj = framer.feed(line)
        if obj is not None:
            out.append(obj)
    return out


def test_command_is_one_json_line_and_a_blank_line() -> None:
    raw = encode_command('theorem t : "a\n\nb" = "a\n\nb" := rfl', env=4)
    text = raw.decode()
    assert text.endswith("\n\n") and text.count("\n") == 2
    assert json.loads(text) == {"cmd": 'theorem t : "a\n\nb" = "a\n\nb" := rfl', "env": 4}
    assert "env" not in json.loads(encode_command("import Mathlib"))


def test_pretty_reply_is_framed_at_the_blank_line() -> None:
    objs = feed_all(ReplyFramer(), PRETTY_REPLY + "\n")
    assert len(objs) == 1
    reply = parse_reply(objs[0])
    assert reply.env == 6
    assert reply.sorries == 1
    [message] = reply.messages
    assert (message.severity, message.line, message.column) == ("error", 1, 23)
    assert message.text.startswith("type mismatch\n")
    assert reply.errors == (message,)


def test_noise_before_a_reply_is_skipped() -> None:
    text = "Processing incremental state [pos: 0..12]:\ntheorem x\n\n" + '{"env": 0}\n\n'
    objs = feed_all(ReplyFramer(), text)
    assert objs == [{"env": 0}]


def test_echoed_input_with_braces_before_a_reply_is_dropped() -> None:
    # Some REPL builds echo the processed text; a proof line may start with `{`.
    text = "Processing incremental state [pos: 0..40]:\n{ intro h\n  exact h }\n\n" + (
        '{"env": 2,\n "messages": []}\n\n'
    )
    assert feed_all(ReplyFramer(), text) == [{"env": 2, "messages": []}]


def test_echo_and_reply_without_a_blank_line_between_them_still_frame() -> None:
    text = "Processing:\n{ exact h }\n" + '{"env": 4}\n\n'
    assert feed_all(ReplyFramer(), text) == [{"env": 4}]


def test_two_replies_in_a_row_are_two_objects() -> None:
    assert feed_all(ReplyFramer(), '{"env": 0}\n\n{"env": 1,\n "messages": []}\n\n') == [
        {"env": 0},
        {"env": 1, "messages": []},
    ]


def test_oversized_reply_is_a_protocol_error() -> None:
    framer = ReplyFramer(max_chars=100)
    framer.feed("{")
    with pytest.raises(ProtocolError):
        framer.feed('"data": "' + "x" * 200)


def test_repl_error_object_is_kept_as_error() -> None:
    reply = parse_reply({"message": "Unknown environment."})
    assert reply.env is None and reply.error == "Unknown environment."


@pytest.mark.parametrize(
    "obj",
    [
        [],
        {"envv": 1},
        {"env": "1"},
        {"env": True},
        {"env": 1, "messages": "x"},
        {"env": 1, "messages": [{"severity": "error"}]},
        {"env": 1, "messages": [7]},
    ],
)
def test_malformed_reply_is_a_protocol_error(obj: object) -> None:
    with pytest.raises(ProtocolError):
        parse_reply(obj)


def test_missing_lists_mean_empty() -> None:
    reply = parse_reply({"env": 2})
    assert reply.messages == () and reply.sorries == 0 and reply.error is None


def test_since_drops_only_a_leading_copy_of_the_parent_messages() -> None:
    probe = {"severity": "error", "pos": {"line": 1, "column": 0}, "data": "unknown constant 'x'"}
    own = {"severity": "warning", "pos": {"line": 3, "column": 2}, "data": "unused variable"}
    parent = parse_reply({"env": 1, "messages": [probe]}).messages
    repeated = parse_reply({"env": 2, "messages": [probe, own]})
    assert [m.text for m in repeated.since(parent).messages] == ["unused variable"]
    fresh = parse_reply({"env": 2, "messages": [own]})
    assert fresh.since(parent) == fresh
    reordered = parse_reply({"env": 2, "messages": [own, probe]})
    assert reordered.since(parent) == reordered  # not a leading copy: kept as is
