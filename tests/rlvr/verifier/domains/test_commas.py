"""The comma splitter math answers and Lean attribute lists share."""

from __future__ import annotations

import random

import pytest

from rlvr.verifier.domains.commas import split_top_level


def reference(text: str, strings: bool) -> list[str]:
    """Character by character, as each domain scanned before they shared one scanner."""
    parts, depth, start, in_string, escaped = [], 0, 0, False, False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif strings and char == '"':
            in_string = True
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return parts


@pytest.mark.parametrize(
    ("text", "strings", "parts"),
    [
        ("a, (b, c), d", False, ["a", " (b, c)", " d"]),
        ("[1, 2), 3", False, ["[1, 2)", " 3"]),  # brackets need not match
        ("\\{1, 2\\}, 3", False, ["\\{1, 2\\}", " 3"]),
        ("\\frac{1}{2}", False, ["\\frac{1}{2}"]),
        ('"a, b", c', False, ['"a', ' b"', " c"]),
        ('"a, b", c', True, ['"a, b"', " c"]),
        ('simp, "x\\", y", z', True, ["simp", ' "x\\", y"', " z"]),
        ("", False, [""]),
    ],
)
def test_commas_outside_brackets_and_strings_split(
    text: str, strings: bool, parts: list[str]
) -> None:
    assert split_top_level(text, strings=strings) == parts


@pytest.mark.parametrize("strings", [False, True])
def test_scanner_agrees_with_a_character_by_character_scan(strings: bool) -> None:
    rng = random.Random(14)
    for _ in range(3000):
        text = "".join(rng.choice('ab,()[]{}"\\ ') for _ in range(rng.randint(0, 40)))
        assert split_top_level(text, strings=strings) == reference(text, strings), text
