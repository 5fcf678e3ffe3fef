"""The task record: one prompt and what the verifier needs to judge answers to it (JSONL schema)."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Domain = Literal["math", "code", "lean", "ifeval"]

# The field each domain's verifier judges against.
GROUND_TRUTH_FIELD: dict[str, str] = {
    "math": "answer",
    "code": "tests",
    "lean": "statement",
    "ifeval": "constraints",
}


class TaskRecord(BaseModel):
    """One line of a task JSONL file.

    `prompt` is a plain string or chat messages; `domain` picks the verifier; exactly the
    domain's ground-truth field must be set (`answer` for math, `tests` for code, `statement`
    for Lean). `completion` (optional) is a reference solution, used as an SFT target.
    """

    model_config = ConfigDict(extra="forbid")

    id: str | None = Field(None, description="Stable id, echoed to the verifier.")
    prompt: str | list[dict[str, str]] = Field(description="The question, or chat messages.")
    domain: Domain = Field(
        description="math | code | lean | ifeval: which verifier judges answers."
    )
    answer: str | None = Field(None, description="Math ground truth (LaTeX or plain text).")
    tests: list[dict[str, Any]] | None = Field(
        None, description="Code tests in the `/code` wire format, e.g. {kind: assert, code}."
    )
    statement: str | None = Field(None, description="Lean theorem statement to be proved.")
    constraints: list[dict[str, Any]] | None = Field(
        None, description="Instruction-following constraints in the `/ifeval` wire format."
    )
    header: str | None = Field(None, description="Lean header (imports, opens).")
    completion: str | None = Field(None, description="Reference solution, an SFT target.")
    language: str | None = Field(None, description="Code: the answer's language (default python).")
    timeout_s: float | None = Field(None, gt=0, description="Code: per-test deadline.")
    memory_mb: int | None = Field(None, gt=0, description="Code: per-run memory limit.")

    @model_validator(mode="after")
    def _ground_truth_present(self) -> TaskRecord:
        needed = GROUND_TRUTH_FIELD[self.domain]
        if getattr(self, needed) in (None, "", []):
            raise ValueError(f"a {self.domain} record needs `{needed}`")
        return self


def to_row(record: TaskRecord, instruction: str, system_prompt: str | None) -> dict[str, Any]:
    """The dataset row TRL sees: chat `prompt` plus the verifier's columns.

    `tests` travels as a JSON string so every row has the same Arrow type whatever the test
    kinds; the reward wrapper decodes it before calling the verifier.
    """
    if isinstance(record.prompt, str):
        messages = [{"role": "user", "content": f"{record.prompt}\n\n{instruction}".strip()}]
    else:
        messages = [dict(m) for m in record.prompt]
    if system_prompt and messages[0]["role"] != "system":
        messages = [{"role": "system", "content": system_prompt}, *messages]
    return {
        "id": record.id or "",
        "prompt": messages,
        "domain": record.domain,
        "answer": record.answer,
        "tests": json.dumps(record.tests) if record.tests is not None else None,
        "constraints": (json.dumps(record.constraints) if record.constraints is not None else None),
        "statement": record.statement,
        "header": record.header,
        "completion_ref": record.completion,
        "language": record.language,
        "timeout_s": record.timeout_s,
        "memory_mb": record.memory_mb,
    }
