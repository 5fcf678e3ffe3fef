"""Multiple-choice rows in public dataset formats -> `/choice` items: MMLU, MMLU-Pro, GPQA, ARC.

Each `from_<format>(row)` takes one dataset row (a dict) and returns a `ChoiceProblem`: the
prompt (question, labelled options, how to answer), the correct label and the options' texts.
`problem.item(response)` is the `/choice` item; `problem.label()` the JSON label for
`/openrlhf`, verl and TRL's `label` column. A row that does not fit raises `FormatError`.

    from rlvr.formats.choice import from_mmlu
    problem = from_mmlu({"question": "2+2?", "choices": ["3", "4", "5", "6"], "answer": 1})
    problem.answer                                   # 'B'
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["ChoiceProblem", "FormatError", "from_arc", "from_gpqa", "from_mmlu", "from_mmlu_pro"]

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
INSTRUCTION = "Think it through, then give your final answer as \\boxed{LETTER}."


class FormatError(ValueError):
    """A row that does not have the fields of its format."""


@dataclass(frozen=True)
class ChoiceProblem:
    prompt: str
    answer: str  # the correct label
    options: list[str]
    labels: str = "letters"  # letters | numbers

    def item(self, response: str) -> dict[str, Any]:
        """The `/choice` item for a model's response."""
        return {
            "response": response,
            "answer": self.answer,
            "options": self.options,
            "labels": self.labels,
        }

    def label(self) -> str:
        """The JSON label (`{"domain": "choice", …}`) for `/openrlhf`, verl and TRL."""
        fields = {k: v for k, v in self.item("").items() if k != "response"}
        return json.dumps({"domain": "choice", **fields})


def _field(row: Mapping[str, Any], name: str) -> Any:
    if name not in row or row[name] is None:
        raise FormatError(f"row has no {name!r}")
    return row[name]


def _texts(values: Any, what: str) -> list[str]:
    if not isinstance(values, Sequence) or isinstance(values, str) or len(values) < 2:
        raise FormatError(f"{what} must be a list of at least two option texts")
    return [str(v) for v in values]


def render(question: str, options: Sequence[str], labels: Sequence[str]) -> str:
    lines = [question.strip(), ""]
    lines += [f"{label}) {text}" for label, text in zip(labels, options, strict=True)]
    return "\n".join([*lines, "", INSTRUCTION])


def _problem(
    question: str, options: list[str], correct: int, labels: str = "letters"
) -> ChoiceProblem:
    if not 0 <= correct < len(options):
        raise FormatError(f"answer index {correct} is outside the {len(options)} options")
    names = [str(n) for n in range(1, len(options) + 1)] if labels == "numbers" else LETTERS
    return ChoiceProblem(
        render(question, options, names[: len(options)]), names[correct], options, labels
    )


def from_mmlu(row: Mapping[str, Any]) -> ChoiceProblem:
    """MMLU (`cais/mmlu`): `question`, `choices` (4 texts), `answer` (index 0-3)."""
    options = _texts(_field(row, "choices"), "choices")
    answer = _field(row, "answer")
    if isinstance(answer, str) and answer.strip().upper() in LETTERS[: len(options)]:
        answer = LETTERS.index(answer.strip().upper())
    if not isinstance(answer, int) or isinstance(answer, bool):
        raise FormatError(f"answer must be an option index or letter; got {answer!r}")
    return _problem(str(_field(row, "question")), options, answer)


def from_mmlu_pro(row: Mapping[str, Any]) -> ChoiceProblem:
    """MMLU-Pro: `question`, `options` (up to 10 texts), `answer_index` (or `answer`, a letter)."""
    options = _texts(_field(row, "options"), "options")
    index = row.get("answer_index")
    if index is None:
        letter = str(_field(row, "answer")).strip().upper()
        if letter not in LETTERS[: len(options)]:
            raise FormatError(f"answer {letter!r} is not one of the option letters")
        index = LETTERS.index(letter)
    return _problem(str(_field(row, "question")), options, int(index))


def from_gpqa(row: Mapping[str, Any]) -> ChoiceProblem:
    """GPQA: `Question`, `Correct Answer`, `Incorrect Answer 1..3`. The options are shuffled
    with a seed taken from the question, so one row always gets the same order."""
    question = str(_field(row, "Question"))
    correct = str(_field(row, "Correct Answer")).strip()
    wrong = [str(_field(row, f"Incorrect Answer {n}")).strip() for n in (1, 2, 3)]
    options = [correct, *wrong]
    seed = int.from_bytes(hashlib.sha256(question.encode()).digest()[:8], "big")
    random.Random(seed).shuffle(options)
    return _problem(question, options, options.index(correct))


def from_arc(row: Mapping[str, Any]) -> ChoiceProblem:
    """AI2 ARC: `question`, `choices` {`text`, `label`}, `answerKey` (a letter or a digit)."""
    choices = _field(row, "choices")
    if not isinstance(choices, Mapping):
        raise FormatError("choices must be an object with `text` and `label`")
    options = _texts(choices.get("text"), "choices.text")
    labels = [str(label) for label in choices.get("label") or ()]
    key = str(_field(row, "answerKey")).strip()
    if key not in labels:
        raise FormatError(f"answerKey {key!r} is not one of the labels {labels}")
    kind = "numbers" if all(label.isdigit() for label in labels) else "letters"
    return _problem(str(_field(row, "question")), options, labels.index(key), kind)
