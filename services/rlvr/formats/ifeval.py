"""Instruction-following labels in public dataset formats -> `/ifeval` constraints.

- IFEval / IFBench test rows: `instruction_id_list` + `kwargs` (parallel lists; null arguments
  ignored), with `prompt` and `key`.
- open-instruct's `ground_truth`: a list of `{"instruction_id": [...], "kwargs": [...]}` (or one
  such object), as a JSON string, a Python-literal string (`None`, single quotes; read with
  `ast.literal_eval`, never `eval`) or already parsed.
- open-instruct's older `{"func_name": "verify_keywords", "keyword_list": [...], ...}` (the
  RLVR-IFeval data): converted to the IFEval instruction it stands for (`FUNC_NAMES`) and
  judged with IFEval's semantics.

`convert(row)` detects the format; `constraints_from_ground_truth(value)` reads a ground truth
alone (what a verl/OpenRLHF label carries). A label that fits no format, or names an
instruction this verifier does not have (IFBench's own ids), raises `FormatError` naming it.

    from rlvr.formats.ifeval import convert
    problem = convert(row)
    item = problem.item(response=model_output)        # an IfevalItem for POST /ifeval
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from rlvr.schemas.ifeval import Constraint, IfevalItem

__all__ = [
    "FORMATS",
    "FUNC_NAMES",
    "FormatError",
    "IfevalProblem",
    "constraints_from_ground_truth",
    "convert",
    "detect_format",
    "from_func_name",
    "from_ifeval",
    "from_open_instruct",
    "looks_like_ground_truth",
]

#: Longest ground-truth string parsed (a Python literal is parsed into a tree first).
MAX_GROUND_TRUTH_CHARS = 1_000_000


class FormatError(ValueError):
    """A row or label that does not fit the format it was read as."""


@dataclass(frozen=True)
class IfevalProblem:
    id: str | None
    prompt: str | None
    constraints: list[dict[str, Any]] = field(repr=False)

    def item(self, response: str, **fields: Any) -> IfevalItem:
        """The `/ifeval` item judging `response` (extra fields: `scoring`, `mode`, …)."""
        body = {"id": self.id, "prompt": self.prompt, "constraints": self.constraints}
        return IfevalItem.model_validate({**body, **fields, "response": response})


def _checked(constraints: list[dict[str, Any]], where: str) -> list[dict[str, Any]]:
    """Constraints validated against the instruction table (ids, argument names and types)."""
    if not constraints:
        raise FormatError(f"{where}: no constraints")
    checked = []
    for index, raw in enumerate(constraints):
        try:
            constraint = Constraint.model_validate(raw)
        except ValidationError as exc:
            message = "; ".join(e["msg"].removeprefix("Value error, ") for e in exc.errors()[:3])
            raise FormatError(f"{where}[{index}]: {message}") from exc
        checked.append({"id": constraint.id, "kwargs": constraint.kwargs})
    return checked


def _pairs(ids: Any, kwargs: Any, where: str) -> list[dict[str, Any]]:
    if isinstance(ids, str):
        ids = [ids]
    if not isinstance(ids, list | tuple):
        raise FormatError(f"{where}: instruction ids must be a list, got {type(ids).__name__}")
    if kwargs is None:
        kwargs = [{}] * len(ids)
    if isinstance(kwargs, Mapping):
        kwargs = [kwargs]
    if not isinstance(kwargs, list | tuple) or len(kwargs) != len(ids):
        raise FormatError(f"{where}: needs one kwargs object per instruction id ({len(ids)})")
    return [{"id": i, "kwargs": dict(k or {})} for i, k in zip(ids, kwargs, strict=True)]


def from_ifeval(row: Mapping[str, Any]) -> IfevalProblem:
    """An IFEval or IFBench test row (`instruction_id_list`, `kwargs`, `prompt`, `key`)."""
    if "instruction_id_list" not in row:
        raise FormatError("an IFEval row needs `instruction_id_list`")
    pairs = _pairs(row["instruction_id_list"], row.get("kwargs"), "instruction_id_list")
    key = row.get("key")
    return IfevalProblem(
        None if key is None else str(key), row.get("prompt"), _checked(pairs, "constraints")
    )


def _parse(value: str) -> Any:
    if len(value) > MAX_GROUND_TRUTH_CHARS:
        raise FormatError(
            f"ground truth has {len(value)} characters; at most {MAX_GROUND_TRUTH_CHARS}"
        )
    try:
        return json.loads(value)
    except (json.JSONDecodeError, RecursionError):
        pass
    try:
        return ast.literal_eval(value)  # literals only: no names, calls or attributes run
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError) as exc:
        raise FormatError(
            f"ground truth is neither JSON nor a Python literal: {type(exc).__name__}"
        ) from None


#: open-instruct's old function names -> (IFEval id, {old argument: IFEval argument}).
FUNC_NAMES: Mapping[str, tuple[str, Mapping[str, str]]] = {
    "verify_keywords": ("keywords:existence", {"keyword_list": "keywords"}),
    "verify_keyword_frequency": (
        "keywords:frequency",
        {"word": "keyword", "N": "frequency"},
    ),
    "validate_forbidden_words": (
        "keywords:forbidden_words",
        {"forbidden_words": "forbidden_words"},
    ),
    "verify_letter_frequency": (
        "keywords:letter_frequency",
        {"letter": "letter", "N": "let_frequency"},
    ),
    "validate_response_language": ("language:response_language", {"language": "language"}),
    "verify_paragraph_count": ("length_constraints:number_paragraphs", {"N": "num_paragraphs"}),
    "validate_word_constraint": (
        "length_constraints:number_words",
        {"N": "num_words", "quantifier": "relation"},
    ),
    "verify_sentence_constraint": (
        "length_constraints:number_sentences",
        {"N": "num_sentences", "quantifier": "relation"},
    ),
    "validate_paragraphs": (
        "length_constraints:nth_paragraph_first_word",
        {"N": "num_paragraphs", "i": "nth_paragraph", "first_word": "first_word"},
    ),
    "verify_postscript": (
        "detectable_content:postscript",
        {"postscript_marker": "postscript_marker"},
    ),
    "validate_placeholders": ("detectable_content:number_placeholders", {"N": "num_placeholders"}),
    "verify_bullet_points": ("detectable_format:number_bullet_lists", {"N": "num_bullets"}),
    "validate_title": ("detectable_format:title", {}),
    "validate_choice": ("detectable_format:constrained_response", {}),
    "validate_highlighted_sections": (
        "detectable_format:number_highlighted_sections",
        {"N": "num_highlights"},
    ),
    "validate_sections": (
        "detectable_format:multiple_sections",
        {"N": "num_sections", "section_splitter": "section_spliter"},
    ),
    "validate_json_format": ("detectable_format:json_format", {}),
    "validate_repeat_prompt": (
        "combination:repeat_prompt",
        {"original_prompt": "prompt_to_repeat"},
    ),
    "validate_two_responses": ("combination:two_responses", {}),
    "validate_uppercase": ("change_case:english_capital", {}),
    "validate_lowercase": ("change_case:english_lowercase", {}),
    "validate_frequency_capital_words": (
        "change_case:capital_word_frequency",
        {"N": "capital_frequency", "quantifier": "capital_relation"},
    ),
    "validate_end": ("startend:end_checker", {"end_phrase": "end_phrase"}),
    "validate_quotation": ("startend:quotation", {}),
    "validate_no_commas": ("punctuation:no_comma", {}),
}
# The old functions count "exactly N" where IFEval has a relation: "at least N" is the
# nearest IFEval instruction, said in the docs.
_DEFAULT_RELATIONS = {
    "keywords:frequency": ("relation", "at least"),
    "keywords:letter_frequency": ("let_relation", "at least"),
}
# "at most N" is exactly IFEval's "less than N + 1"; "around N" has no IFEval equivalent.
_RELATION_COUNTS = {
    "relation": ("num_words", "num_sentences"),
    "capital_relation": ("capital_frequency",),
}


def from_func_name(label: Mapping[str, Any]) -> list[dict[str, Any]]:
    """open-instruct's older one-function label, as the IFEval constraint it stands for."""
    name = str(label.get("func_name"))
    if name not in FUNC_NAMES:
        raise FormatError(f"unknown func_name {name!r}; known: {', '.join(sorted(FUNC_NAMES))}")
    instruction_id, renames = FUNC_NAMES[name]
    kwargs: dict[str, Any] = {
        new: label[old] for old, new in renames.items() if label.get(old) is not None
    }
    for relation_key, count_keys in _RELATION_COUNTS.items():
        if kwargs.get(relation_key) == "at most":
            kwargs[relation_key] = "less than"
            for count_key in count_keys:
                count = kwargs.get(count_key)
                if isinstance(count, int):
                    kwargs[count_key] = count + 1
        elif kwargs.get(relation_key) == "around":
            raise FormatError(f"{name}: quantifier 'around' has no IFEval equivalent")
    if instruction_id in _DEFAULT_RELATIONS:
        key, relation = _DEFAULT_RELATIONS[instruction_id]
        kwargs.setdefault(key, relation)
    return _checked([{"id": instruction_id, "kwargs": kwargs}], f"func_name {name}")


def constraints_from_ground_truth(value: Any) -> list[dict[str, Any]]:
    """The constraints an open-instruct ground truth carries (any of its forms)."""
    parsed = _parse(value) if isinstance(value, str) else value
    if isinstance(parsed, Mapping):
        if "func_name" in parsed:
            return from_func_name(parsed)
        parsed = [parsed]
    if not isinstance(parsed, list | tuple) or not parsed:
        raise FormatError("ground truth must be a list of {instruction_id, kwargs} objects")
    pairs: list[dict[str, Any]] = []
    for index, entry in enumerate(parsed):
        if not isinstance(entry, Mapping) or "instruction_id" not in entry:
            raise FormatError(f"ground_truth[{index}] has no `instruction_id`")
        pairs.extend(_pairs(entry["instruction_id"], entry.get("kwargs"), f"ground_truth[{index}]"))
    return _checked(pairs, "ground_truth")


def looks_like_ground_truth(value: Any) -> bool:
    """Whether a label is plainly an instruction-following ground truth (cheap test, no parse)."""
    if isinstance(value, Mapping):
        return "instruction_id" in value or "func_name" in value
    if isinstance(value, list):
        return bool(value) and isinstance(value[0], Mapping) and "instruction_id" in value[0]
    if isinstance(value, str):
        head = value.lstrip()[:200]
        return head[:1] in ("[", "{") and ("instruction_id" in head or "func_name" in head)
    return False


def from_open_instruct(row: Mapping[str, Any]) -> IfevalProblem:
    """An open-instruct row: `ground_truth` plus, where present, `messages`/`prompt`."""
    if "ground_truth" not in row:
        raise FormatError("an open-instruct row needs `ground_truth`")
    prompt = row.get("prompt")
    messages = row.get("messages")
    if prompt is None and isinstance(messages, Sequence) and messages:
        last_user = [m for m in messages if isinstance(m, Mapping) and m.get("role") == "user"]
        prompt = last_user[-1].get("content") if last_user else None
    key = row.get("id", row.get("key"))
    return IfevalProblem(
        None if key is None else str(key),
        prompt,
        constraints_from_ground_truth(row["ground_truth"]),
    )


FORMATS: dict[str, Callable[[Mapping[str, Any]], IfevalProblem]] = {
    "ifeval": from_ifeval,
    "ifbench": from_ifeval,
    "open_instruct": from_open_instruct,
}


def detect_format(row: Mapping[str, Any]) -> str | None:
    if "instruction_id_list" in row:
        return "ifeval"
    if "ground_truth" in row and looks_like_ground_truth(row["ground_truth"]):
        return "open_instruct"
    return None


def convert(row: Mapping[str, Any], fmt: str = "auto") -> IfevalProblem:
    """The problem in `row`, read as `fmt` (`ifeval`, `ifbench`, `open_instruct`, or `auto`)."""
    name = detect_format(row) if fmt == "auto" else fmt
    if name is None or name not in FORMATS:
        raise FormatError(
            f"no instruction-following format fits a row with fields {sorted(row)[:12]}; "
            f"known: {', '.join(sorted(FORMATS))}"
        )
    return FORMATS[name](row)
