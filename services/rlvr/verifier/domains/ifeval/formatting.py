"""`detectable_format:*`: bullets, a fixed answer, highlights, sections, JSON, a <<title>>.

Where IFEval's pattern could backtrack badly (a `^\\s*` that spans blank lines, `<<[^\\n]+>>` on
`<<<<…`), a scanner finds the same matches; the patterns kept are linear (fixed-length, or one
class run whose failure leaves no later start to retry).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from rlvr.verifier.domains.ifeval.checks import Check
from rlvr.verifier.domains.ifeval.text import end_of_line, line_start_at_or_after

CONSTRAINED_OPTIONS = ("My answer is yes.", "My answer is no.", "My answer is maybe.")
_HIGHLIGHT = re.compile(r"\*[^\n\*]*\*")
_DOUBLE_HIGHLIGHT = re.compile(r"\*\*[^\n\*]*\*\*")
_JSON_FENCES = ("```json", "```Json", "```JSON", "```")


def _count_line_items(text: str, is_star: bool) -> int:
    """Matches of `^\\s*\\*[^\\*].*$` (is_star) or `^\\s*-.*$`, MULTILINE, as `re.findall` counts
    them. From a line start, `\\s*` takes the whole whitespace run (newlines too), and no
    shorter run can be followed by the marker (it would be followed by whitespace); the match
    ends where `.*` stops. A failed start skips to the first line start past its run: every
    line start inside the run would meet the same character."""
    count, at, size = 0, 0, len(text)
    while at <= size:
        run_end = at
        while run_end < size and text[run_end].isspace():
            run_end += 1
        if is_star:
            is_item = run_end + 1 < size and text[run_end] == "*" and text[run_end + 1] != "*"
            rest = run_end + 2  # `[^\*]` took one character, maybe a newline
        else:
            is_item = run_end < size and text[run_end] == "-"
            rest = run_end + 1
        if is_item:
            count += 1
            at = line_start_at_or_after(text, end_of_line(text, rest))
            continue
        newline = text.find("\n", run_end)
        if newline < 0:
            break
        at = newline + 1
    return count


def number_bullet_lists(text: str, kwargs: Mapping[str, Any]) -> Check:
    count = _count_line_items(text, True) + _count_line_items(text, False)
    wanted = kwargs["num_bullets"]
    return Check(count == wanted, f"{count} bullet points (* or -); needed exactly {wanted}")


def constrained_response(text: str, kwargs: Mapping[str, Any]) -> Check:
    stripped = text.strip()
    for option in CONSTRAINED_OPTIONS:
        if option in stripped:
            return Check(True, f"contains {option!r}")
    return Check(False, f"contains none of {list(CONSTRAINED_OPTIONS)}")


def count_highlights(text: str) -> int:
    """`*text*` spans plus `**text**` spans (both counted, as IFEval does), non-empty inside."""
    singles = sum(1 for m in _HIGHLIGHT.finditer(text) if m.group(0).strip("*").strip())
    doubles = sum(1 for m in _DOUBLE_HIGHLIGHT.finditer(text) if m.group(0)[2:-2].strip())
    return singles + doubles


def number_highlighted_sections(text: str, kwargs: Mapping[str, Any]) -> Check:
    count, wanted = count_highlights(text), kwargs["num_highlights"]
    return Check(count >= wanted, f"{count} *highlighted* sections; needed at least {wanted}")


def _section_pattern(splitter: str) -> re.Pattern[str]:
    # IFEval interpolates the splitter into a pattern; published splitters are words, taken
    # literally here. `\d+` after a fixed prefix: linear (digit runs of matches are disjoint).
    return re.compile(r"\s?" + re.escape(splitter) + r"\s?\d+\s?")


def multiple_sections(text: str, kwargs: Mapping[str, Any]) -> Check:
    splitter = kwargs["section_spliter"].strip()
    count = sum(1 for _ in _section_pattern(splitter).finditer(text))
    wanted = kwargs["num_sections"]
    return Check(count >= wanted, f"{count} sections marked '{splitter} N'; needed {wanted}")


def json_format(text: str, kwargs: Mapping[str, Any]) -> Check:
    value = text.strip()
    for fence in _JSON_FENCES:
        value = value.removeprefix(fence)
    value = value.removesuffix("```").strip()
    try:
        json.loads(value)
    except ValueError as exc:
        return Check(False, f"not valid JSON: {str(exc)[:120]}")
    except RecursionError:
        return Check(False, "not valid JSON here: nested too deeply")
    return Check(True, "valid JSON")


def _line_title(line: str) -> str | None:
    """The match of `<<[^\\n]+>>` on one line (greedy: the first `<<` to the last `>>` with
    something between), stripped of its brackets and spaces; None when the line has none. If
    the first `<<` has no match, no later one on the line does."""
    start = line.find("<<")
    if start < 0:
        return None
    end = line.rfind(">>")
    if end < start + 3:
        return None
    return line[start : end + 2].lstrip("<").rstrip(">").strip()


def title(text: str, kwargs: Mapping[str, Any]) -> Check:
    for line in text.split("\n"):
        found = _line_title(line)
        if found:
            return Check(True, f"title <<{found[:80]}>>")
    return Check(False, "no <<title>> found")
