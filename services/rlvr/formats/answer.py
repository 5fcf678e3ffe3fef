"""Short-answer rows in public dataset formats -> `/answer` items: TriviaQA, Natural Questions
(open), SQuAD.

Each `from_<format>(row)` returns an `AnswerProblem`: the prompt and the reference answer's
aliases. `problem.item(response)` is the `/answer` item; `problem.label()` the JSON label for
`/openrlhf`, verl and TRL's `label` column. A row that does not fit raises `FormatError`.

    from rlvr.formats.answer import from_natural_questions
    problem = from_natural_questions({"question": "capital of France?", "answer": ["Paris"]})
    problem.aliases                                  # ['Paris']
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "AnswerProblem",
    "FormatError",
    "from_natural_questions",
    "from_squad",
    "from_triviaqa",
]

INSTRUCTION = "Answer with a short phrase, on a last line of the form `Answer: ...`."


class FormatError(ValueError):
    """A row that does not have the fields of its format."""


@dataclass(frozen=True)
class AnswerProblem:
    prompt: str
    aliases: list[str]

    def item(self, response: str, **options: Any) -> dict[str, Any]:
        """The `/answer` item (options: `match`, `f1_threshold`, `normalization`, …)."""
        return {"response": response, "answer": self.aliases, **options}

    def label(self, **options: Any) -> str:
        """The JSON label (`{"domain": "answer", …}`) for `/openrlhf`, verl and TRL."""
        return json.dumps({"domain": "answer", "answer": self.aliases, **options})


def _aliases(values: Any, what: str) -> list[str]:
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, list | tuple):
        raise FormatError(f"{what} must be a text or a list of texts")
    aliases = list(dict.fromkeys(str(v).strip() for v in values if str(v).strip()))
    if not aliases:
        raise FormatError(f"{what} has no answer")
    return aliases


def _question(row: Mapping[str, Any]) -> str:
    question = row.get("question")
    if not isinstance(question, str) or not question.strip():
        raise FormatError("row has no 'question'")
    return question.strip()


def from_triviaqa(row: Mapping[str, Any]) -> AnswerProblem:
    """TriviaQA: `question`, `answer` {`value`, `aliases`} (the value first, then its aliases)."""
    answer = row.get("answer")
    if not isinstance(answer, Mapping):
        raise FormatError("answer must be an object with `value` and `aliases`")
    values = [answer.get("value"), *(answer.get("aliases") or ())]
    aliases = _aliases([v for v in values if v], "answer")
    return AnswerProblem(f"{_question(row)}\n\n{INSTRUCTION}", aliases)


def from_natural_questions(row: Mapping[str, Any]) -> AnswerProblem:
    """Natural Questions (open): `question`, `answer` (a list of acceptable answers)."""
    return AnswerProblem(
        f"{_question(row)}\n\n{INSTRUCTION}", _aliases(row.get("answer"), "answer")
    )


def from_squad(row: Mapping[str, Any]) -> AnswerProblem:
    """SQuAD: `context`, `question`, `answers` {`text`: [...]}."""
    answers = row.get("answers")
    texts = answers.get("text") if isinstance(answers, Mapping) else None
    context = row.get("context")
    if not isinstance(context, str):
        raise FormatError("row has no 'context'")
    prompt = f"{context.strip()}\n\nQuestion: {_question(row)}\n\n{INSTRUCTION}"
    return AnswerProblem(prompt, _aliases(texts, "answers.text"))
