"""Find the program in a model's response: the last fenced code block of the item's language.

A block opens with a line of three or more backticks (or tildes) plus an optional language tag
and closes at the next line holding exactly the same fence; an opener without such a line is
not a block (its lines are searched for other blocks). The scan is linear: each line is looked
at once, and an opener finds its closer through an index of closer lines (a regex that rescans
to the end of the text for every unclosed opener took 15 s on 60 KB of ```` ```python ````).
"""

from __future__ import annotations

import bisect
import re

from services.verifier.domains.template_tokens import strip_end_tokens

_OPENER = re.compile(r"[ \t]*(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*")
_CLOSER = re.compile(r"[ \t]*(`{3,}|~{3,})[ \t\r]*")
_LANGUAGE_TAGS = {
    "python": {"python", "python3", "py", "py3"},
    "cpp": {"cpp", "c++", "cc", "cxx", "c"},
}


def _line_starts(text: str) -> list[int]:
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(language tag lower-cased, body) of each fenced block, in order."""
    starts = _line_starts(text)
    ends = [start - 1 for start in starts[1:]] + [len(text)]
    closers: dict[str, list[int]] = {}
    for number, (start, end) in enumerate(zip(starts, ends, strict=True)):
        if text.startswith(("`", " ", "\t", "~"), start):
            match = _CLOSER.fullmatch(text, start, end)
            if match:
                closers.setdefault(match.group(1), []).append(number)
    blocks: list[tuple[str, str]] = []
    number = 0
    while number < len(starts):
        start, end = starts[number], ends[number]
        opener = _OPENER.fullmatch(text, start, end) if end < len(text) else None
        if opener is None:
            number += 1
            continue
        lines = closers.get(opener.group(1), [])
        at = bisect.bisect_right(lines, number)
        if at == len(lines):  # unclosed: not a block; later lines may open others
            number += 1
            continue
        close = lines[at]
        body = text[end + 1 : starts[close]]
        blocks.append((opener.group(2).lower(), body))
        number = close + 1
    return blocks


def extract_code(response: str, language: str) -> str | None:
    """The last block tagged with `language`; else the last untagged block; else None.

    Trailing chat-template tokens (`<|im_end|>`, `</s>`) are dropped first: a closing fence
    followed directly by one still closes the block.
    """
    blocks = fenced_blocks(strip_end_tokens(response))
    tags = _LANGUAGE_TAGS.get(language, {language})
    tagged = [body for tag, body in blocks if tag in tags]
    if tagged:
        return tagged[-1]
    untagged = [body for tag, body in blocks if not tag]
    return untagged[-1] if untagged else None
