"""A pytest plugin that hides packages, as if they were not installed: `-p
tests.support.hide_packages` with `HIDE_PACKAGES=trl,verl` makes every import of those names fail
(a meta-path finder ahead of every other). For checking the optional-packages gate."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType

HIDDEN = frozenset(name for name in os.environ.get("HIDE_PACKAGES", "").split(",") if name)


class RefuseHidden(MetaPathFinder):
    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if fullname.split(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {fullname!r} (hidden)", name=fullname)
        return None


for _name in [m for m in sys.modules if m.split(".")[0] in HIDDEN]:
    del sys.modules[_name]
sys.meta_path.insert(0, RefuseHidden())
