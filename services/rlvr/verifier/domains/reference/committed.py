"""Where a response commits to an answer: the text after thinking, tags, boxes, answer markers.

Shared by `/choice` and `/answer` (and the `<answer>` tag by `/gym`). Only the answer section
counts: the text after the last `</think>`; a response still inside `<think>` has none, so an
answer written while thinking is never paid. Every scan is `str.find` / `str.rfind` or a regex
with a literal anchor and bounded quantifiers, so the cost is linear in the response's length;
the segments handed to the domains' readers are clipped to `MAX_SEGMENT_CHARS`.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

MAX_SEGMENT_CHARS = 400
# Only the last few answer markers are read: the committed answer is near the end, and a
# response repeating "the answer is" 20,000 times must not cost 20,000 readings.
MAX_MARKERS = 8
_THINK_OPEN = "<think>"
_THINK_CLOSE = "</think>"
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_BOX_RE = re.compile(r"\\(?:boxed|fbox)[ \t]{0,4}\{")
_ANSWER_TAG_RE = re.compile(r"<[ \t]{0,3}answer[ \t]{0,3}>", re.IGNORECASE)
_ANSWER_CLOSE_RE = re.compile(r"<[ \t]{0,3}/[ \t]{0,3}answer[ \t]{0,3}>", re.IGNORECASE)
# The words a model writes right before the answer it commits to. Found in an ASCII-lowered
# copy (same length as the text, so positions carry over).
_MARKER_RE = re.compile(
    r"(?:final|correct|right|best)[ \t]{1,3}(?:answer|option|choice)[ \t]{0,3}"
    r"(?:is|:|：|=|would be)"
    r"|final[ \t]{1,3}answer[ \t]{0,3}[*_]{1,3}[ \t]{0,3}[:：]?"
    r"|(?:the|my)[ \t]{1,3}answer[ \t]{0,3}(?:is|would be|will be|:|：|=)"
    r"|answer[ \t]{0,3}[*_]{0,3}[ \t]{0,3}(?:[:：=]|is\b|[-–—](?=[ \t]))"
    r"|(?:correct|right)[ \t]{1,3}(?:one|letter)[ \t]{0,3}is"
    r"|(?:i|we)[ \t]{1,3}(?:choose|pick|select|go with)\b"
)
_MARKER_TAIL = " \t*_:：="


class Source(StrEnum):
    """Where the committed answer was found (reported in results, for debugging a reward)."""

    answer_tag = "answer_tag"
    boxed = "boxed"
    marker = "marker"
    bare = "bare"


@dataclass(frozen=True, slots=True)
class Committed:
    """The text a response committed to, and where it was found.

    `alternatives` holds the other committed texts of the same kind (every distinct box, every
    answer tag): a reader refuses a response whose alternatives disagree.
    """

    text: str
    source: Source
    alternatives: tuple[str, ...] = ()


def answer_section(response: str) -> str | None:
    """The response after its last `</think>`; None when a `<think>` is never closed (the
    model never left its thinking, so nothing is committed)."""
    close = response.rfind(_THINK_CLOSE)
    if close >= 0:
        return response[close + len(_THINK_CLOSE) :]
    if _THINK_OPEN in response:
        return None
    return response


def boxed_contents(text: str) -> list[str]:
    r"""The contents of every top-level `\boxed{...}` / `\fbox{...}`, braces matched, in order.

    One pass: after a box's closing brace the scan resumes there, so nested boxes are inside
    their outer box's content and not scanned twice. An unclosed box runs to the end.
    """
    found: list[str] = []
    position = 0
    while True:
        match = _BOX_RE.search(text, position)
        if match is None:
            return found
        start = match.end()
        depth = 1
        index = start
        while index < len(text) and depth:
            char = text[index]
            if char == "\\":
                index += 2
                continue
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
            index += 1
        end = index - 1 if depth == 0 else len(text)
        found.append(text[start:end])
        position = index


def answer_tags(text: str) -> list[str]:
    """The contents of every `<answer>...</answer>` (tag case and inner spaces tolerated); an
    unclosed last tag runs to the end of the text (a response cut right after its answer)."""
    found: list[str] = []
    position = 0
    while True:
        opening = _ANSWER_TAG_RE.search(text, position)
        if opening is None:
            return found
        closing = _ANSWER_CLOSE_RE.search(text, opening.end())
        if closing is None:
            found.append(text[opening.end() :])
            return found
        found.append(text[opening.end() : closing.start()])
        position = closing.end()


def marked_segments(text: str) -> list[str]:
    """The text after each of the last `MAX_MARKERS` answer markers up to the end of its line,
    last marker first."""
    lowered = text.translate(_ASCII_LOWER)
    segments: list[str] = []
    matches = deque(_MARKER_RE.finditer(lowered), maxlen=MAX_MARKERS)
    for match in matches:
        start = match.end()
        while start < len(text) and (
            text[start] in _MARKER_TAIL
            or (text[start] in "-–—" and text[start + 1 : start + 2].isspace())
        ):
            start += 1  # `Answer: B`, `**Answer:** B`, `Answer - B`; not the sign of `-3`
        end = text.find("\n", start)
        if end == start:  # the answer is on the next line (`**Final answer:**\n\nB`)
            start = len(text) - len(text[start:].lstrip())
            end = text.find("\n", start)
        segment = text[start : end if end >= 0 else len(text)][:MAX_SEGMENT_CHARS]
        if segment.strip():
            segments.append(segment)
    segments.reverse()
    return segments


def last_line(text: str) -> str:
    """The last non-blank line, clipped."""
    stripped = text.rstrip()
    return stripped[stripped.rfind("\n") + 1 :].strip()[-MAX_SEGMENT_CHARS:]


def distinct(texts: list[str]) -> tuple[str, ...]:
    """The texts, stripped and deduplicated in order."""
    return tuple(dict.fromkeys(t.strip() for t in texts if t.strip()))


def committed_candidates(section: str) -> Iterator[Committed]:
    """Every place the section may commit to an answer, strongest first: the last answer tag,
    the last box, the answer markers (last first), then the last line as a bare answer.

    A domain's reader takes the first candidate it can read (so the later ones are found only
    when needed); the tags and boxes carry their siblings in `alternatives` so a reader can
    refuse a response that commits to two things.
    """
    tags = answer_tags(section)
    if tags:
        yield Committed(tags[-1][:MAX_SEGMENT_CHARS], Source.answer_tag, distinct(tags))
    boxes = boxed_contents(section)
    if boxes:
        yield Committed(boxes[-1][:MAX_SEGMENT_CHARS], Source.boxed, distinct(boxes))
    for segment in marked_segments(section):
        yield Committed(segment, Source.marker)
    line = last_line(section)
    if line:
        yield Committed(line, Source.bare)
