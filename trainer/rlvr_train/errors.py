"""The error a user can fix (a config, a flag, the data, the verifier): one line, no traceback.

`rlvr-train` prints a `UsageError` as `rlvr-train COMMAND: message` and exits 2; anything else
is a bug and keeps its traceback. It is a `ValueError`, so callers that catch bad values still do.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class UsageError(ValueError):
    """Something the user named or set that cannot work; the message says what to change."""


def close_names(name: str, valid: Iterable[str], n: int = 5) -> list[str]:
    """The valid names nearest to a mistyped one (difflib's ratio; none when nothing is near)."""
    return difflib.get_close_matches(name, list(valid), n=n, cutoff=0.6)


def did_you_mean(name: str, valid: Iterable[str]) -> str:
    """`did you mean a, b?` or an empty string."""
    near = close_names(name, valid)
    return f"did you mean {', '.join(near)}?" if near else ""
