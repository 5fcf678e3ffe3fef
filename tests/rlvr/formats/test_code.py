"""Converters from public code formats to `/code` items, on small fixtures written here."""

from __future__ import annotations

import base64
import json
import os
import pickle
import zlib
from pathlib import Path
from typing import Any

import pytest

from rlvr.formats import code as formats
from rlvr.formats.code import (
    FormatError,
    convert,
    detect_format,
    from_apps,
    from_codecontests,
    from_humaneval,
    from_livecodebench,
    from_mbpp,
)
from rlvr.schemas.code import CodeItem
from tests.support.format_fixtures import (
    ADD_CPP,
    ADD_PY,
    APPS_CALL_CLASS,
    APPS_STDIO,
    CODECONTESTS,
    HUMANEVAL,
    LCB_FUNCTIONAL,
    LCB_STDIN,
    MBPP,
    TACO_CALL_FUNCTION,
    TACO_LINES,
)


@pytest.mark.parametrize(
    ("row", "fmt"),
    [
        (APPS_STDIO, "apps"),
        (TACO_LINES, "apps"),
        (CODECONTESTS, "codecontests"),
        (LCB_STDIN, "livecodebench"),
        (HUMANEVAL, "humaneval"),
        (MBPP, "mbpp"),
        ({"prompt": "x", "domain": "code"}, None),
    ],
)
def test_format_is_detected_from_its_own_fields(row: dict[str, Any], fmt: str | None) -> None:
    assert detect_format(row) == fmt


def test_apps_stdio_tests_prompt_and_solution() -> None:
    problem = from_apps(APPS_STDIO)
    assert problem.id == "7"
    assert problem.tests == [
        {"kind": "stdio", "stdin": "1 2\n", "stdout": "3\n"},
        {"kind": "stdio", "stdin": "5 7\n", "stdout": "12\n"},
    ]
    assert "standard input" in problem.prompt and problem.solution == ADD_PY


def test_apps_call_with_class_solution_unwraps_single_outputs() -> None:
    problem = from_apps(APPS_CALL_CLASS)
    assert problem.tests == [
        {"kind": "call", "fn": "Solution.twice", "args": [3], "expected": 6},
        {"kind": "call", "fn": "Solution.twice", "args": [[1, 2]], "expected": [1, 2, 1, 2]},
    ]
    assert "class Solution" in problem.prompt


def test_taco_call_without_class_calls_the_function() -> None:
    problem = from_apps(TACO_CALL_FUNCTION)
    assert [t["fn"] for t in problem.tests] == ["square", "square"]
    assert [t["expected"] for t in problem.tests] == [16, 9]


def test_taco_inputs_given_as_lines_become_text() -> None:
    (test,) = from_apps(TACO_LINES).tests
    assert (test["stdin"], test["stdout"]) == ("2\n3\n", "5\n")


@pytest.mark.parametrize(
    ("label", "input_output", "message"),
    [
        ("not JSON", "{inputs", "not JSON"),
        ("lengths differ", json.dumps({"inputs": ["1"], "outputs": []}), "1 inputs for 0"),
        ("no outputs", json.dumps({"inputs": ["1"]}), "needs `inputs` and `outputs`"),
        ("no tests", json.dumps({"inputs": [], "outputs": []}), "no tests"),
        (
            "call input not a list",
            json.dumps({"fn_name": "f", "inputs": [3], "outputs": [3]}),
            "argument list",
        ),
        ("stdio input a number", json.dumps({"inputs": [3], "outputs": ["3"]}), "neither text"),
    ],
)
def test_bad_apps_rows_are_refused_with_the_reason(
    label: str, input_output: str, message: str
) -> None:
    with pytest.raises(FormatError, match=message):
        from_apps({**APPS_STDIO, "input_output": input_output})


def test_codecontests_all_splits_limits_and_language_of_solution() -> None:
    problem = from_codecontests(CODECONTESTS)
    assert problem.id == "1000_A. Sum"
    assert [t["stdin"] for t in problem.tests] == ["1 2\n", "4 4\n", "0 0\n", "-5 2\n"]
    assert problem.fields["timeout_s"] == 2.5 and problem.fields["memory_mb"] == 256
    assert problem.language == "python" and problem.solution == ADD_PY
    cpp = from_codecontests(CODECONTESTS, language="cpp", use_limits=False)
    assert cpp.solution == ADD_CPP and cpp.language == "cpp"
    assert "timeout_s" not in cpp.fields and "memory_mb" not in cpp.fields
    public = from_codecontests(CODECONTESTS, splits=("public_tests",))
    assert len(public.tests) == 1


def test_codecontests_language_ids_follow_the_proto_enum() -> None:
    assert formats.CODECONTESTS_LANGUAGES == {
        0: None,
        1: None,  # Python 2: no runner
        2: "cpp",
        3: "python",
        4: "java",
    }
    only_py2 = {**CODECONTESTS, "solutions": {"language": [1], "solution": ["print 3"]}}
    assert from_codecontests(only_py2).solution is None


def test_codecontests_without_tests_is_refused() -> None:
    row = {k: v for k, v in CODECONTESTS.items() if not k.endswith("_tests")}
    with pytest.raises(FormatError, match="no tests"):
        from_codecontests(row)


def test_livecodebench_stdin_with_packed_private_tests() -> None:
    problem = from_livecodebench(LCB_STDIN)
    assert [(t["stdin"], t["stdout"]) for t in problem.tests] == [
        ("3\n", "6\n"),
        ("10\n", "20\n"),
        ("0\n", "0\n"),
    ]
    assert len(from_livecodebench(LCB_STDIN, private=False).tests) == 1
    assert problem.id == "abc001_a"


def test_livecodebench_functional_tests_are_calls_with_json_arguments() -> None:
    problem = from_livecodebench(LCB_FUNCTIONAL)
    assert problem.tests == [
        {"kind": "call", "fn": "Solution.addTwo", "args": [1, 2], "expected": 3},
        {"kind": "call", "fn": "Solution.addTwo", "args": [[1], -1], "expected": None},
    ]


class _Exploit:
    """A pickle that would create a directory when loaded by `pickle.loads`."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.mkdir, (self.path,))


def test_packed_tests_that_reference_code_are_refused_and_never_run(tmp_path: Path) -> None:
    target = tmp_path / "pwned"
    blob = base64.b64encode(zlib.compress(pickle.dumps(_Exploit(str(target))))).decode()
    with pytest.raises(FormatError, match="refused"):
        from_livecodebench({**LCB_STDIN, "private_test_cases": blob})
    assert not target.exists()


@pytest.mark.parametrize(
    ("label", "blob", "message"),
    [
        ("not base64", "%%%not-base64%%%", "neither JSON nor base64"),
        ("not zlib", base64.b64encode(b"plain bytes").decode(), "neither JSON nor base64"),
        (
            "not a pickle",
            base64.b64encode(zlib.compress(b"\x80\x05garbage")).decode(),
            "not a plain-data pickle",
        ),
        (
            "pickled non-JSON text",
            base64.b64encode(zlib.compress(pickle.dumps("not json"))).decode(),
            "not JSON",
        ),
        ("JSON but not a list", json.dumps({"a": 1}), "not a list"),
    ],
)
def test_malformed_packed_tests_are_refused(label: str, blob: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        from_livecodebench({**LCB_STDIN, "private_test_cases": blob})


def test_packed_tests_beyond_the_size_bound_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(formats, "MAX_UNPACKED_BYTES", 10_000)
    bomb = base64.b64encode(zlib.compress(b"\0" * 1_000_000)).decode()
    with pytest.raises(FormatError, match="beyond 10000 bytes"):
        from_livecodebench({**LCB_STDIN, "private_test_cases": bomb})


def test_livecodebench_functional_without_func_name_or_with_bad_json_is_refused() -> None:
    with pytest.raises(FormatError, match="func_name"):
        from_livecodebench({**LCB_FUNCTIONAL, "metadata": "{}"})
    bad = json.dumps([{"input": "1\n{", "output": "3", "testtype": "functional"}])
    with pytest.raises(FormatError, match="not JSON"):
        from_livecodebench({**LCB_FUNCTIONAL, "public_test_cases": bad})
    odd = json.dumps([{"input": "1", "output": "1", "testtype": "interactive?"}])
    with pytest.raises(FormatError, match="unknown testtype"):
        from_livecodebench({**LCB_FUNCTIONAL, "public_test_cases": odd})


def test_humaneval_defines_prompt_helpers_in_the_trusted_test() -> None:
    problem = from_humaneval(HUMANEVAL)
    (test,) = problem.tests
    assert test["kind"] == "assert"
    assert test["code"].startswith("def helper(x):")
    assert test["code"].rstrip().endswith("check(inc_all)")
    assert problem.solution is not None and "return [helper(x)" in problem.solution


def test_mbpp_each_assert_is_a_test_with_setup_code() -> None:
    problem = from_mbpp(MBPP)
    assert [t["code"] for t in problem.tests] == [
        "OFFSET = 5\nassert add(1, 2) == 3\n",
        "OFFSET = 5\nassert add(OFFSET, 0) == 5\n",
    ]
    assert len(from_mbpp(MBPP, challenge=True).tests) == 3
    assert "assert add(1, 2) == 3" in problem.prompt


@pytest.mark.parametrize(
    "row", [APPS_STDIO, APPS_CALL_CLASS, CODECONTESTS, LCB_STDIN, LCB_FUNCTIONAL, HUMANEVAL, MBPP]
)
def test_every_conversion_is_a_valid_code_item(row: dict[str, Any]) -> None:
    item = convert(row).item(response="```python\npass\n```")
    assert isinstance(item, CodeItem) and item.tests


def test_unknown_rows_and_formats_are_refused() -> None:
    with pytest.raises(FormatError, match="no known code format"):
        convert({"question": "?"})
    with pytest.raises(FormatError, match="unknown code format"):
        convert(APPS_STDIO, "nope")
