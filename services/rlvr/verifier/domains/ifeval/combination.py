"""`combination:*`: two different responses separated by `******`; the prompt repeated first."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rlvr.verifier.domains.ifeval.checks import Check


def two_responses(text: str, kwargs: Mapping[str, Any]) -> Check:
    parts = text.split("******")
    answers = []
    for index, part in enumerate(parts):
        if part.strip():
            answers.append(part)
        elif index not in (0, len(parts) - 1):
            return Check(False, "an empty response between ****** separators")
    if len(answers) != 2:
        return Check(False, f"{len(answers)} responses separated by ******; needed 2")
    if answers[0].strip() == answers[1].strip():
        return Check(False, "the two responses are the same")
    return Check(True, "two different responses separated by ******")


def repeat_prompt(text: str, kwargs: Mapping[str, Any]) -> Check:
    prompt = kwargs["prompt_to_repeat"].strip().lower()
    if text.strip().lower().startswith(prompt):
        return Check(True, "starts with the request, repeated word for word")
    return Check(False, "does not start with the request repeated word for word")
