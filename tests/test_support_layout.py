"""Where test helpers live: no test or benchmark imports a test module, and a helper module that
serves more than its own folder (or any benchmark) lives in `tests/support` (issue 22)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Helper modules still imported from beside the tests that own them, by tests of another folder or
# a benchmark; each with why it has not moved yet. (An entry whose import is gone fails the test:
# the list only shrinks.)
WAITING: set[str] = set()  # the math tables moved to tests/support/math_tables (issue 27 landed)


def python_files() -> Iterator[Path]:
    for folder in ("tests", "benchmarks"):
        yield from sorted((REPO / folder).rglob("*.py"))


def imports_of_test_tree(path: Path) -> Iterator[str]:
    """The `tests.…` modules `path` imports (anywhere in the file, lazy imports too)."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("tests."):
                yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name.startswith("tests."))


def imports() -> list[tuple[Path, str]]:
    """(importing file, imported module) for every import of the test tree."""
    return [(path, module) for path in python_files() for module in imports_of_test_tree(path)]


def test_no_test_or_benchmark_imports_a_test_module() -> None:
    found = [
        f"{path.relative_to(REPO)} imports {module}"
        for path, module in imports()
        if module.rsplit(".", 1)[-1].startswith("test_")
    ]
    assert found == []


def test_a_helper_used_beyond_its_own_folder_lives_in_tests_support() -> None:
    found = set()
    for path, module in imports():
        if module.startswith("tests.support") or module in WAITING:
            continue
        home = REPO / Path(*module.split(".")[:-1])  # the folder of the imported module
        if path.parent != home:
            found.add(f"{path.relative_to(REPO)} imports {module}")
    assert sorted(found) == []


def test_every_waiting_helper_is_still_imported_from_outside() -> None:
    outside = {
        module
        for path, module in imports()
        if module in WAITING and path.parent != REPO / Path(*module.split(".")[:-1])
    }
    assert outside == WAITING
