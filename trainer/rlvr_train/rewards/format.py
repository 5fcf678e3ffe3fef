"""Format rewards (TRL signature): did the completion put its answer where the verifier looks?

They shape early training, when a verifiable reward is almost never earned, and return `None`
for rows of a domain they do not judge (TRL then leaves those rows out of this function's mean).
A completion's text is read as the verifier adapter reads it (plain, one message, or a chat).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

# The verifier's own reading of a completion, so a format reward judges the text it judges.
from rlvr.adapters._completions import completion_text

_BOXED = re.compile(r"\\boxed\{[^{}]+\}")
_OPEN_WITH_CONTENT = re.compile(r"\\boxed\{[^{}\s\\]")
_FENCED = re.compile(r"```[a-zA-Z0-9_+-]*\n.*?```", re.DOTALL)
_THINK = re.compile(r"^\s*<think>.+?</think>\s*\S", re.DOTALL)


def boxed_score(text: str) -> float:
    """Graded, so each step toward the format is rewarded: 1 for exactly one non-empty
    \\boxed{} that ends the text; 0.75 for closed boxes elsewhere; 0.5 for an open box with
    content; 0.25 for a bare `\\boxed{`; else 0."""
    found = _BOXED.findall(text)
    if len(found) == 1 and text.rstrip().endswith(found[0]):
        return 1.0
    if found:
        return 0.75
    if _OPEN_WITH_CONTENT.search(text):
        return 0.5
    return 0.25 if "\\boxed{" in text else 0.0


def fenced_score(text: str) -> float:
    """1 for exactly one fenced code block, 0.5 for several, else 0."""
    blocks = _FENCED.findall(text)
    return 1.0 if len(blocks) == 1 else 0.5 if blocks else 0.0


def answer_format_reward(
    prompts: Sequence[Any], completions: Sequence[Any], domain: Sequence[str], **_: Any
) -> list[float | None]:
    """Math: a boxed final answer; code and Lean: one fenced block."""
    scores: list[float | None] = []
    for completion, row_domain in zip(completions, domain, strict=True):
        text = completion_text(completion)
        scores.append(boxed_score(text) if row_domain == "math" else fenced_score(text))
    return scores


def think_format_reward(
    prompts: Sequence[Any], completions: Sequence[Any], **_: Any
) -> list[float | None]:
    """R1 style: reasoning inside <think></think>, followed by an answer."""
    return [1.0 if _THINK.match(completion_text(c)) else 0.0 for c in completions]
