"""Sample completions of a GRPO step with their rewards and verdicts, as readable JSONL.

Every `sample_every_steps` logged steps the trainer appends the last generation batch to
`samples.jsonl`: one line per completion with the step, the question (the last user message),
the completion text, the tool calls with the answers the policy saw (`tools`, in a tool-using
run), each reward function's value, the verifier's verdict and detail (what the
TRL adapter hands TRL through `log_extra`: `<reward>/status`, `<reward>/detail`) and the
advantage. `jq` or any editor reads it; it is small (a batch per N steps).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rlvr.adapters._completions import completion_text

SAMPLES_FILE = "samples.jsonl"


def question_text(prompt: Any) -> str:
    """The last user message of a chat prompt (the question), or the prompt itself."""
    if isinstance(prompt, str):
        return prompt
    users = [
        m.get("content", "") for m in prompt if isinstance(m, dict) and m.get("role") == "user"
    ]
    return str(users[-1]) if users else completion_text(prompt)


def tool_exchanges(completion: Any) -> list[dict[str, Any]]:
    """The tool calls of a conversation completion (TRL's tool loop), each with the answer the
    policy was shown: `[{"name", "arguments", "answer"}]`, in order; [] for plain text."""
    if not isinstance(completion, list):
        return []
    calls: list[dict[str, Any]] = []
    answers: list[Any] = []
    for message in completion:
        if not isinstance(message, dict):
            continue
        for call in message.get("tool_calls") or []:
            function = call.get("function", call) if isinstance(call, dict) else {}
            calls.append({"name": function.get("name"), "arguments": function.get("arguments")})
        if message.get("role") == "tool":
            answers.append(message.get("content"))
    for index, call in enumerate(calls):
        call["answer"] = answers[index] if index < len(answers) else None
    return calls


def _number(value: Any) -> float | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return round(float(value), 4)


def sample_rows(
    step: int,
    prompts: Sequence[Any],
    completions: Sequence[Any],
    rewards: Mapping[str, Sequence[Any]],
    extra: Mapping[str, Sequence[Any]],
    advantages: Sequence[Any],
) -> list[dict[str, Any]]:
    """One readable row per completion (NaN rewards, TRL's "not scored", become null)."""
    rows = []
    for index, (prompt, completion) in enumerate(zip(prompts, completions, strict=False)):
        row: dict[str, Any] = {
            "step": step,
            "question": question_text(prompt),
            "completion": completion_text(completion),
            "rewards": {name: _number(values[index]) for name, values in rewards.items()},
        }
        exchanges = tool_exchanges(completion)
        if exchanges:
            row["tools"] = exchanges
        for column, values in extra.items():
            if index < len(values):
                row[column] = values[index]
        if index < len(advantages):
            row["advantage"] = _number(advantages[index])
        rows.append(row)
    return rows


def append_samples(path: Path, rows: Sequence[Mapping[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
