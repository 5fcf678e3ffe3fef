"""The installed reasoning-gym's task names, and the close ones for a name it does not have."""

from __future__ import annotations

import difflib
from functools import cache

from rlvr.verifier.errors import VerifierError


class UnknownTask(VerifierError):
    status_code = 422
    code = "unknown_task"


@cache
def task_names() -> frozenset[str]:
    """Every task the installed reasoning-gym registers (imported once; ~2 s)."""
    from reasoning_gym.factory import DATASETS

    return frozenset(DATASETS)


def check_tasks(names: list[str], known: frozenset[str]) -> None:
    """UnknownTask (422) naming the first unknown task, its item, and the close names."""
    for index, name in enumerate(names):
        if name in known:
            continue
        close = difflib.get_close_matches(name, sorted(known), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UnknownTask(
            f"items[{index}].task: {name!r} is not a reasoning-gym task "
            f"({len(known)} are installed){hint}"
        )
