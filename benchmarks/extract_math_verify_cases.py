"""Extract the labelled (gold, pred, expected) cases from math-verify's published test suite.

Math-Verify (Apache-2.0, Copyright 2025 HuggingFace Inc.; benchmarks/data/NOTICE.md) ships its
tests in its PyPI source distribution.
This reads them with `ast` (nothing is executed) and writes `benchmarks/data/math_verify_cases.json`
with each case's test file, test name and the options that test passes to math-verify.

    .venv/bin/python -m pip download --no-binary :all: --no-deps math-verify==0.9.0 -d /tmp/mv
    .venv/bin/python benchmarks/extract_math_verify_cases.py /tmp/mv/math_verify-0.9.0.tar.gz
"""

from __future__ import annotations

import ast
import contextlib
import json
import sys
import tarfile
from pathlib import Path
from typing import Any

OUT = Path(__file__).parent / "data" / "math_verify_cases.json"
OPTION_NAMES = ("match_types", "precision", "strict", "allow_set_relation_comp")


def cases_from_source(source: str, file_name: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef):
            continue
        fixed = _fixed_options(node)
        for decorator in node.decorator_list:
            if not (isinstance(decorator, ast.Call) and _is_parametrize(decorator.func)):
                continue
            names = [n.strip() for n in ast.literal_eval(decorator.args[0]).split(",")]
            if not {"gold", "pred"} <= set(names):
                continue
            label = "expected" if "expected" in names else "result" if "result" in names else None
            if label is None:
                continue
            rows = decorator.args[1]
            if not isinstance(rows, ast.List):
                continue
            for row_node in rows.elts:
                try:
                    row = ast.literal_eval(row_node)
                except ValueError:
                    continue  # a computed row (f-string, call): not a literal case
                values = dict(zip(names, row, strict=True))
                options = {**fixed, **{k: values[k] for k in OPTION_NAMES if k in values}}
                cases.append(
                    {
                        "source": f"math-verify 0.9.0 tests/{file_name}::{node.name}",
                        "gold": values["gold"],
                        "pred": values["pred"],
                        "expected": bool(values[label]),
                        "options": options,
                    }
                )
    return cases


def _is_parametrize(func: ast.expr) -> bool:
    return isinstance(func, ast.Attribute) and func.attr == "parametrize"


def _fixed_options(node: ast.FunctionDef) -> dict[str, Any]:
    """Keyword options the test body passes to `compare_strings` as literals."""
    options: dict[str, Any] = {}
    for call in ast.walk(node):
        if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "compare_strings":
            for keyword in call.keywords:
                if keyword.arg in OPTION_NAMES:
                    with contextlib.suppress(ValueError):  # a parametrized name: per row
                        options[keyword.arg] = ast.literal_eval(keyword.value)
    return options


def main(sdist: str) -> None:
    cases: list[dict[str, Any]] = []
    with tarfile.open(sdist) as archive:
        for member in sorted(archive.getmembers(), key=lambda m: m.name):
            if "/tests/test_" in member.name and member.name.endswith(".py"):
                handle = archive.extractfile(member)
                assert handle is not None
                cases += cases_from_source(handle.read().decode(), Path(member.name).name)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "about": "Labelled cases from Math-Verify 0.9.0's test suite (Apache-2.0, Copyright 2025 "
        "HuggingFace Inc.; see benchmarks/data/NOTICE.md), "
        "extracted by benchmarks/extract_math_verify_cases.py from the PyPI sdist.",
        "cases": cases,
    }
    OUT.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main(sys.argv[1])
