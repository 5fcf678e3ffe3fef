"""Find the program in a model's response: the last fenced code block of the item's language."""

from __future__ import annotations

import re

_FENCE = re.compile(
    r"^[ \t]*(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*\n(.*?)^[ \t]*\1[ \t]*$", re.MULTILINE | re.DOTALL
)
_LANGUAGE_TAGS = {
    "python": {"python", "python3", "py", "py3"},
    "cpp": {"cpp", "c++", "cc", "cxx", "c"},
}


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(language tag lower-cased, body) of each fenced block, in order."""
    return [(m.group(2).lower(), m.group(3)) for m in _FENCE.finditer(text)]


def extract_code(response: str, language: str) -> str | None:
    """The last block tagged with `language`; else the last untagged block; else None."""
    blocks = fenced_blocks(response)
    tags = _LANGUAGE_TAGS.get(language, {language})
    tagged = [body for tag, body in blocks if tag in tags]
    if tagged:
        return tagged[-1]
    untagged = [body for tag, body in blocks if not tag]
    return untagged[-1] if untagged else None
