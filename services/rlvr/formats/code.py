"""Code problems in public dataset formats -> `/code` items: APPS/TACO, CodeContests,
LiveCodeBench, HumanEval, MBPP.

Each `from_<format>(row)` takes one dataset row (a dict, as `datasets` or a JSONL line gives
it) and returns a `CodeProblem`: the prompt, the item fields the verifier needs (`tests`,
`language`, limits) and, where the row has one, a reference solution. `convert(row)` picks the
converter by `detect_format(row)`. Nothing here runs code or imports the server; a row that
does not fit its format raises `FormatError` naming what is wrong.

    from rlvr.formats.code import convert
    problem = convert(row)                            # format detected from the row's fields
    item = problem.item(response=model_output)        # a CodeItem for POST /code
"""

from __future__ import annotations

import ast
import base64
import io
import json
import pickle
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rlvr.schemas.code import CodeItem

__all__ = [
    "CODECONTESTS_LANGUAGES",
    "FORMATS",
    "CodeProblem",
    "FormatError",
    "convert",
    "detect_format",
    "from_apps",
    "from_codecontests",
    "from_humaneval",
    "from_livecodebench",
    "from_mbpp",
    "humaneval_check_code",
    "prompt_helpers",
]

STDIO_INSTRUCTION = "Read the input from standard input and write the answer to standard output."
# CodeContests' `Language` enum (contest_problem.proto): 0 UNKNOWN_LANGUAGE, 1 PYTHON (2.x),
# 2 CPP, 3 PYTHON3, 4 JAVA. Python 2 has no runner here, so its solutions are not offered.
CODECONTESTS_LANGUAGES: dict[int, str | None] = {0: None, 1: None, 2: "cpp", 3: "python", 4: "java"}
# LiveCodeBench ships private tests as base64(zlib(pickle(json text))): bounds for unpacking.
MAX_UNPACKED_BYTES = 256 * 1024 * 1024


class FormatError(ValueError):
    """A row that does not fit the format it was converted as."""


@dataclass(frozen=True)
class CodeProblem:
    """One problem: what to ask, how the verifier judges answers, and a reference solution."""

    id: str | None
    prompt: str
    fields: dict[str, Any] = field(repr=False)  # CodeItem fields except `response` / `code`
    solution: str | None = field(default=None, repr=False)  # a reference program, if any

    @property
    def tests(self) -> list[dict[str, Any]]:
        return list(self.fields["tests"])

    @property
    def language(self) -> str:
        return str(self.fields.get("language", "python"))

    def item(self, response: str | None = None, code: str | None = None) -> CodeItem:
        """The `/code` item judging `response` (a model output) or `code` (a program)."""
        body = {**self.fields, "id": self.id}
        body["response" if code is None else "code"] = response if code is None else code
        return CodeItem.model_validate(body)


# ---------------------------------------------------------------- helpers


def _json_field(row: Mapping[str, Any], name: str) -> Any:
    """A field that datasets store as a JSON string (or already decoded)."""
    if name not in row or row[name] is None:
        raise FormatError(f"missing `{name}`")
    value = row[name]
    if isinstance(value, str | bytes):
        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            raise FormatError(f"`{name}` is not JSON: {exc}") from None
    return value


def _text(value: Any, what: str) -> str:
    """A stdio input/output: a string, or a list of lines (some TACO rows store them so)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(line, str) for line in value):
        return "".join(line if line.endswith("\n") else line + "\n" for line in value)
    raise FormatError(f"{what} is neither text nor a list of lines: {type(value).__name__}")


def _stdio(stdin: Any, stdout: Any, where: str) -> dict[str, Any]:
    return {
        "kind": "stdio",
        "stdin": _text(stdin, f"{where} input"),
        "stdout": _text(stdout, f"{where} output"),
    }


def _need_tests(tests: list[dict[str, Any]], what: str) -> list[dict[str, Any]]:
    if not tests:
        raise FormatError(f"{what}: no tests")
    return tests


# ---------------------------------------------------------------- APPS / TACO


def from_apps(row: Mapping[str, Any]) -> CodeProblem:
    """APPS or TACO: `question`, `input_output` (JSON text: `inputs`, `outputs`, optional
    `fn_name`), optional `starter_code`, `solutions` (JSON list of programs), `problem_id`.

    With `fn_name` the tests are calls: each input is the argument list, and each output the
    expected value, unwrapped when it is a one-element list (the datasets' convention: APPS's
    checker accepts `outputs[i]` or `outputs[i][0]`; the wrapped form is what they store). A
    starter code with `class Solution` makes the call `Solution.<fn_name>` (LeetCode style).
    """
    io_spec = _json_field(row, "input_output")
    if not isinstance(io_spec, dict):
        raise FormatError("`input_output` is not an object")
    inputs, outputs = io_spec.get("inputs"), io_spec.get("outputs")
    if not isinstance(inputs, list) or not isinstance(outputs, list):
        raise FormatError("`input_output` needs `inputs` and `outputs` lists")
    if len(inputs) != len(outputs):
        raise FormatError(f"{len(inputs)} inputs for {len(outputs)} outputs")
    starter = str(row.get("starter_code") or "")
    fn_name = io_spec.get("fn_name")
    tests: list[dict[str, Any]] = []
    if fn_name:
        fn = f"Solution.{fn_name}" if "class Solution" in starter else str(fn_name)
        for number, (args, expected) in enumerate(zip(inputs, outputs, strict=True)):
            if not isinstance(args, list):
                raise FormatError(f"call test {number}: the input is not an argument list")
            if isinstance(expected, list) and len(expected) == 1:
                expected = expected[0]
            tests.append({"kind": "call", "fn": fn, "args": args, "expected": expected})
    else:
        for number, (stdin, stdout) in enumerate(zip(inputs, outputs, strict=True)):
            tests.append(_stdio(stdin, stdout, f"test {number}"))
    question = str(row.get("question") or "")
    prompt = question.strip()
    if fn_name:
        prompt += f"\n\nWrite the function `{fn_name}`."
        if starter.strip():
            prompt += f" Start from:\n\n```python\n{starter.rstrip()}\n```"
    else:
        prompt += f"\n\n{STDIO_INSTRUCTION}"
    solutions = row.get("solutions")
    if isinstance(solutions, str):
        try:
            solutions = json.loads(solutions) if solutions.strip() else []
        except json.JSONDecodeError:
            solutions = []
    solution = solutions[0] if isinstance(solutions, list) and solutions else None
    problem_id = row.get("problem_id", row.get("id"))
    return CodeProblem(
        id=None if problem_id is None else str(problem_id),
        prompt=prompt,
        fields={"language": "python", "tests": _need_tests(tests, "APPS row")},
        solution=solution if isinstance(solution, str) else None,
    )


# ---------------------------------------------------------------- CodeContests


def _limit_s(value: Any) -> float | None:
    """CodeContests' `time_limit`: `{seconds, nanos}` (a protobuf Duration), or seconds."""
    if isinstance(value, Mapping):
        seconds = float(value.get("seconds") or 0) + float(value.get("nanos") or 0) / 1e9
        return seconds or None
    if isinstance(value, int | float) and value > 0:
        return float(value)
    return None


def from_codecontests(
    row: Mapping[str, Any],
    *,
    language: str = "python",
    splits: Sequence[str] = ("public_tests", "private_tests", "generated_tests"),
    use_limits: bool = True,
) -> CodeProblem:
    """CodeContests: `name`, `description`, tests in `public_tests` / `private_tests` /
    `generated_tests` (each `{input: [...], output: [...]}`), `solutions` (`{language: [ids],
    solution: [...]}`, ids as in `CODECONTESTS_LANGUAGES`), `time_limit`, `memory_limit_bytes`.

    `language` is the language the candidate answers in (the reference solution is taken in
    it, when the row has one); `use_limits` carries the problem's time and memory limits to the
    item (the server caps them; they were set for C++, so Python may want them off).
    """
    tests: list[dict[str, Any]] = []
    for split in splits:
        block = row.get(split) or {}
        if not isinstance(block, Mapping):
            raise FormatError(f"`{split}` is not an object with `input` and `output`")
        inputs, outputs = block.get("input") or [], block.get("output") or []
        if len(inputs) != len(outputs):
            raise FormatError(f"`{split}`: {len(inputs)} inputs for {len(outputs)} outputs")
        for number, (stdin, stdout) in enumerate(zip(inputs, outputs, strict=True)):
            tests.append(_stdio(stdin, stdout, f"{split}[{number}]"))
    fields: dict[str, Any] = {"language": language, "tests": _need_tests(tests, "CodeContests")}
    if use_limits:
        timeout_s = _limit_s(row.get("time_limit"))
        if timeout_s:
            fields["timeout_s"] = timeout_s
        memory = row.get("memory_limit_bytes")
        if isinstance(memory, int) and memory >= 1024 * 1024:
            fields["memory_mb"] = memory // (1024 * 1024)
    prompt = f"{str(row.get('description') or '').strip()}\n\n{STDIO_INSTRUCTION}"
    return CodeProblem(
        id=str(row["name"]) if row.get("name") is not None else None,
        prompt=prompt,
        fields=fields,
        solution=_codecontests_solution(row.get("solutions"), language),
    )


def _codecontests_solution(solutions: Any, language: str) -> str | None:
    if not isinstance(solutions, Mapping):
        return None
    ids, programs = solutions.get("language") or [], solutions.get("solution") or []
    for lang_id, program in zip(ids, programs, strict=False):
        if isinstance(lang_id, int) and CODECONTESTS_LANGUAGES.get(lang_id) == language:
            return str(program)
    return None


# ---------------------------------------------------------------- LiveCodeBench


class _PlainDataUnpickler(pickle.Unpickler):
    """Unpickles plain data only: strings, numbers, lists, dicts, tuples, sets. Any reference
    to a class or function (the only way a pickle runs code) is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise FormatError(f"compressed tests refer to {module}.{name}: refused (plain data only)")


def _unpack_tests(text: str) -> Any:
    """LiveCodeBench's `private_test_cases`: JSON text, or base64(zlib(pickle(JSON text))).

    The pickle is read by `_PlainDataUnpickler` (never `pickle.loads`), and zlib output is
    bounded, so a crafted row can neither run code nor exhaust memory.
    """
    stripped = text.strip()
    if stripped.startswith(("[", "{")):
        try:
            return json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise FormatError(f"test cases are not JSON: {exc}") from None
    try:
        packed = base64.b64decode(stripped, validate=True)
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_UNPACKED_BYTES)
        if inflater.unconsumed_tail:
            raise FormatError(f"compressed tests unpack beyond {MAX_UNPACKED_BYTES} bytes")
    except (ValueError, zlib.error) as exc:
        if isinstance(exc, FormatError):
            raise
        raise FormatError(f"test cases are neither JSON nor base64+zlib: {exc}") from None
    try:
        value = _PlainDataUnpickler(io.BytesIO(raw)).load()
    except FormatError:
        raise
    except Exception as exc:  # any malformed pickle: the row's fault
        raise FormatError(f"compressed tests are not a plain-data pickle: {exc}") from None
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            raise FormatError(f"unpacked test cases are not JSON: {exc}") from None
    return value


def _lcb_cases(row: Mapping[str, Any], name: str) -> list[Any]:
    value = row.get(name)
    if value in (None, ""):
        return []
    cases = _unpack_tests(value) if isinstance(value, str) else value
    if not isinstance(cases, list):
        raise FormatError(f"`{name}` is not a list of test cases")
    return cases


def _lcb_arguments(text: str, where: str) -> list[Any]:
    """A functional test's input: one JSON value per line, one line per argument."""
    try:
        return [json.loads(line) for line in text.split("\n") if line.strip()]
    except json.JSONDecodeError as exc:
        raise FormatError(f"{where}: an argument line is not JSON: {exc}") from None


def from_livecodebench(row: Mapping[str, Any], *, private: bool = True) -> CodeProblem:
    """LiveCodeBench (code generation): `question_content`, `starter_code`, `metadata` (JSON
    text with `func_name` for functional problems), `public_test_cases` and
    `private_test_cases` (JSON lists of `{input, output, testtype}`, `testtype` `stdin` or
    `functional`; private ones possibly base64+zlib+pickle packed).

    A functional test calls `Solution.<func_name>` (LeetCode style) when the starter code has
    `class Solution`, else the top-level function; its input holds one JSON argument per line
    and its output the JSON return value.
    """
    metadata = row.get("metadata") or {}
    if isinstance(metadata, str):
        metadata = json.loads(metadata) if metadata.strip() else {}
    starter = str(row.get("starter_code") or "")
    func_name = metadata.get("func_name") if isinstance(metadata, Mapping) else None
    cases = _lcb_cases(row, "public_test_cases")
    if private:
        cases += _lcb_cases(row, "private_test_cases")
    tests: list[dict[str, Any]] = []
    for number, case in enumerate(cases):
        if not isinstance(case, Mapping):
            raise FormatError(f"test case {number} is not an object")
        kind = case.get("testtype")
        if kind == "stdin":
            tests.append(_stdio(case.get("input", ""), case.get("output", ""), f"case {number}"))
        elif kind == "functional":
            if not func_name:
                raise FormatError("a functional test case, but no `func_name` in `metadata`")
            fn = f"Solution.{func_name}" if "class Solution" in starter else str(func_name)
            try:
                expected = json.loads(str(case.get("output", "")))
            except json.JSONDecodeError as exc:
                raise FormatError(f"case {number}: the output is not JSON: {exc}") from None
            args = _lcb_arguments(str(case.get("input", "")), f"case {number}")
            tests.append({"kind": "call", "fn": fn, "args": args, "expected": expected})
        else:
            raise FormatError(f"test case {number}: unknown testtype {kind!r}")
    prompt = str(row.get("question_content") or "").strip()
    if starter.strip():
        prompt += f"\n\nStart from:\n\n```python\n{starter.rstrip()}\n```"
    else:
        prompt += f"\n\n{STDIO_INSTRUCTION}"
    problem_id = row.get("question_id", row.get("question_title"))
    return CodeProblem(
        id=None if problem_id is None else str(problem_id),
        prompt=prompt,
        fields={"language": "python", "tests": _need_tests(tests, "LiveCodeBench row")},
    )


# ---------------------------------------------------------------- HumanEval / MBPP


def prompt_helpers(prompt: str, entry_point: str) -> str:
    """The imports and top-level definitions of a prompt, except the function to complete."""
    tree = ast.parse(prompt)
    kept = [
        ast.get_source_segment(prompt, node, padded=True)
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
        or (
            isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and node.name != entry_point
        )
    ]
    return "".join(f"{segment}\n\n" for segment in kept if segment)


def humaneval_check_code(problem: Mapping[str, Any]) -> str:
    """The assert test of one HumanEval problem: the prompt's own helpers, `check`, the call.

    A name the test uses but does not define is looked up in the candidate's program, so the
    prompt's helpers (`poly` of HumanEval/32, `encode_cyclic` of /38, `encode_shift` of /50) are
    defined here, in the trusted test: a candidate that redefines them cannot pass by it."""
    helpers = prompt_helpers(problem["prompt"], problem["entry_point"])
    return f"{helpers}{problem['test']}\n\ncheck({problem['entry_point']})\n"


def from_humaneval(row: Mapping[str, Any]) -> CodeProblem:
    """HumanEval (and HumanEval-shaped rows, e.g. MultiPL-E's Python): `task_id`, `prompt`,
    `entry_point`, `test` (a `check(candidate)` function), `canonical_solution`."""
    for name in ("prompt", "entry_point", "test"):
        if not isinstance(row.get(name), str):
            raise FormatError(f"missing `{name}`")
    canonical = row.get("canonical_solution")
    return CodeProblem(
        id=str(row.get("task_id")) if row.get("task_id") is not None else None,
        prompt=(
            "Complete this Python function. Return the whole function, imports included.\n\n"
            f"```python\n{row['prompt']}```"
        ),
        fields={"language": "python", "tests": [{"kind": "assert", "code": _he_check(row)}]},
        solution=f"{row['prompt']}{canonical}" if isinstance(canonical, str) else None,
    )


def _he_check(row: Mapping[str, Any]) -> str:
    try:
        return humaneval_check_code(row)
    except SyntaxError as exc:
        raise FormatError(f"the prompt is not Python: {exc}") from None


def from_mbpp(row: Mapping[str, Any], *, challenge: bool = False) -> CodeProblem:
    """MBPP: `task_id`, `text` (or `prompt`, in the sanitized split), `code`, `test_list`
    (assert lines), `test_setup_code`, `challenge_test_list` (added when `challenge`).

    Each assert is a test of its own (so `fraction` scoring counts them), with the setup code
    before it."""
    asserts = list(row.get("test_list") or [])
    if challenge:
        asserts += list(row.get("challenge_test_list") or [])
    if not asserts or not all(isinstance(a, str) for a in asserts):
        raise FormatError("`test_list` holds no assert lines")
    setup = str(row.get("test_setup_code") or "").strip()
    tests = [
        {"kind": "assert", "code": f"{setup}\n{line}\n" if setup else f"{line}\n"}
        for line in asserts
    ]
    text = str(row.get("text") or row.get("prompt") or "").strip()
    example = asserts[0]
    return CodeProblem(
        id=str(row.get("task_id")) if row.get("task_id") is not None else None,
        prompt=f"{text}\nYour code should pass this test:\n\n{example}",
        fields={"language": "python", "tests": tests},
        solution=str(row["code"]) if isinstance(row.get("code"), str) else None,
    )


# ---------------------------------------------------------------- detection

FORMATS: dict[str, Callable[[Mapping[str, Any]], CodeProblem]] = {
    "apps": from_apps,
    "taco": from_apps,
    "codecontests": from_codecontests,
    "livecodebench": from_livecodebench,
    "humaneval": from_humaneval,
    "mbpp": from_mbpp,
}


def detect_format(row: Mapping[str, Any]) -> str | None:
    """The format a row is in, from the fields only that format has; None if none fits."""
    if "input_output" in row:
        return "apps"
    if any(k in row for k in ("public_tests", "private_tests", "generated_tests")):
        return "codecontests"
    if "public_test_cases" in row or "private_test_cases" in row:
        return "livecodebench"
    if "entry_point" in row and "test" in row and "prompt" in row:
        return "humaneval"
    if "test_list" in row:
        return "mbpp"
    return None


def convert(row: Mapping[str, Any], fmt: str = "auto") -> CodeProblem:
    """The problem in `row`, converted as `fmt` (a key of `FORMATS`, or `auto`)."""
    name = detect_format(row) if fmt == "auto" else fmt
    if name is None:
        raise FormatError(
            f"no known code format fits a row with fields {sorted(row)[:12]}; "
            f"known: {', '.join(sorted(FORMATS))}"
        )
    if name not in FORMATS:
        raise FormatError(f"unknown code format {name!r}; known: {', '.join(sorted(FORMATS))}")
    return FORMATS[name](row)
