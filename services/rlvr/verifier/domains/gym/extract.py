"""The answer a reasoning-gym response gives: its last `<answer>…</answer>` after thinking.

reasoning-gym's prompts ask for the answer in `<answer>` tags and its own `extract_answer`
takes the last one; we do the same in linear time, tolerating the usual variants (tag case,
spaces inside the tag, an unclosed last tag) and never reading a tag inside `<think>`.
"""

from __future__ import annotations

from dataclasses import dataclass

from rlvr.verifier.domains.reference.committed import answer_section, answer_tags


@dataclass(frozen=True, slots=True)
class Extracted:
    answer: str | None
    reason: str | None  # `no_answer` / `unfinished_thinking` when `answer` is None


def extract_gym_answer(response: str) -> Extracted:
    section = answer_section(response)
    if section is None:
        return Extracted(None, "unfinished_thinking")
    tags = answer_tags(section)
    if not tags:
        return Extracted(None, "no_answer")
    return Extracted(tags[-1].strip(), None)
