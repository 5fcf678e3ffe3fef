"""The comma splitter math answers and Lean attribute lists share."""

from __future__ import annotations

import itertools
import random

import pytest

from rlvr.verifier.domains.commas import split_top_level


def reference(text: str, strings: bool) -> list[str]:
    """Character by character (the scanner under test visits only the characters that matter)."""
    cuts, depth, quoted, index = [], 0, False, 0
    while index < len(text):
        char = text[index]
        if quoted:
            index += char == "\\"  # an escaped character cannot close the literal
            quoted = char != '"'
        elif strings and char == '"':
            quoted = True
        else:
            depth += (char in "([{") - (char in ")]}")
            if char == "," and depth == 0:
                cuts.append(index)
        index += 1
    bounds = [-1, *cuts, len(text)]
    return [text[a + 1 : b] for a, b in itertools.pairwise(bounds)]


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
