"""`candidate.installed_package_dirs`: which of the interpreter's package directories a Python
run may import from (the live check, numpy and sympy in a run, is in
`tests/rlvr/verifier/domains/run/test_run_live.py`)."""

from __future__ import annotations

import os
import site
from pathlib import Path

import pytest

from rlvr.verifier.sandbox.inside.candidate import installed_package_dirs


def test_only_roots_directories_no_one_else_may_write_join_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    modes = {"kept": 0o755, "anyone_writes": 0o777, "group_writes": 0o775}
    for name, mode in modes.items():
        (tmp_path / name).mkdir()
        (tmp_path / name).chmod(mode)
    listed = [str(tmp_path / name) for name in (*modes, "missing")]
    monkeypatch.setattr(site, "getsitepackages", lambda: listed)
    # root's (the test's, where it runs as root, as in CI): kept; another uid's: never
    expected = [str(tmp_path / "kept")] if os.geteuid() == 0 else []
    assert installed_package_dirs() == expected


def test_a_directory_already_on_the_path_is_not_added_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tmp_path.chmod(0o755)  # one that would be kept (as root) were it not on the path already
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(site, "getsitepackages", lambda: [str(tmp_path)])
    assert installed_package_dirs() == []
