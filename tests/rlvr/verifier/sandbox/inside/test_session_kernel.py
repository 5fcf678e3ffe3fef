"""What one cell does in a stateful session's namespace (`session_kernel.run_cell`), run here
in-process: the split into statements and a final expression, values, errors, persistence."""

from __future__ import annotations

import builtins
from typing import Any

import pytest

from rlvr.verifier.sandbox.inside.session_kernel import VALUE_LIMIT_CHARS, run_cell


def fresh() -> dict[str, Any]:
    return {"__name__": "__main__", "__builtins__": builtins}


@pytest.mark.parametrize(
    "code, value",
    [
        ("1 + 1", "2"),
        ("x = 3", None),
        ("x = 3\nx * 2", "6"),
        ("None", None),
        ("'a'", "'a'"),
        ("print('hi')", None),  # print returns None: nothing shown
        ("[i for i in range(3)]", "[0, 1, 2]"),
        ("if True:\n    y = 1", None),
        ("", None),
        ("# only a comment", None),
        ("x = 1; x", "1"),
    ],
)
def test_the_final_expression_is_shown_as_a_notebook_does(code: str, value: str | None) -> None:
    assert run_cell(fresh(), code, 1) == {"value": value, "error": None}


def test_globals_persist_between_cells_of_one_namespace() -> None:
    namespace = fresh()
    run_cell(namespace, "import math\ndef f(v):\n    return v + 1\nk = 41", 1)
    assert run_cell(namespace, "f(k), math.floor(2.5)", 2)["value"] == "(42, 2)"
    assert run_cell(fresh(), "k", 1)["error"] == "NameError: name 'k' is not defined"


@pytest.mark.parametrize(
    "code, error",
    [
        ("1/0", "ZeroDivisionError: division by zero"),
        ("def (", "SyntaxError: invalid syntax (<cell-1>, line 1)"),
        ("raise SystemExit(3)", "SystemExit: 3"),
        ("raise KeyboardInterrupt", "KeyboardInterrupt"),
        ("class Bad:\n    def __repr__(self):\n        raise ValueError('no')\nBad()",
         "ValueError: no"),
    ],
)  # fmt: skip
def test_an_exception_is_the_cells_error(code: str, error: str) -> None:
    assert run_cell(fresh(), code, 1) == {"value": None, "error": error}


def test_a_memory_error_is_flagged_for_pid_1() -> None:
    reply = run_cell(fresh(), "raise MemoryError", 1)
    assert reply.get("memory") is True


def test_a_long_value_is_cut() -> None:
    value = run_cell(fresh(), f"'x' * {VALUE_LIMIT_CHARS * 2}", 1)["value"]
    assert value is not None and value.endswith("...[truncated]")
    assert len(value) <= VALUE_LIMIT_CHARS + 20
