"""`startend:*`: the response ends with a phrase; it is wrapped in double quotes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rlvr.verifier.domains.ifeval.checks import Check


def end_checker(text: str, kwargs: Mapping[str, Any]) -> Check:
    phrase = kwargs["end_phrase"].strip().lower()
    ending = text.strip().strip('"').lower()
    if ending.endswith(phrase):
        return Check(True, f"ends with {kwargs['end_phrase'].strip()!r}")
    return Check(False, f"does not end with {kwargs['end_phrase'].strip()!r}")


def quotation(text: str, kwargs: Mapping[str, Any]) -> Check:
    value = text.strip()
    if len(value) > 1 and value[0] == '"' and value[-1] == '"':
        return Check(True, "wrapped in double quotation marks")
    return Check(False, "not wrapped in double quotation marks")
