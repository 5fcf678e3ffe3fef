"""Wire models of `POST /verify` (a mixed-domain batch) and `POST /openrlhf` (OpenRLHF's remote RM).

A mixed item is a domain's item plus `"domain": "math" | "code" | "lean"`; its result is that
domain's result plus the same `domain`. An OpenRLHF label is either a plain string (a math ground
truth) or a JSON object with `domain` and that domain's fields except the candidate's text, which
comes from the query (see `item_from_label`).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from services.verifier.schemas.code import CodeItem, CodeResult
from services.verifier.schemas.common import WireModel
from services.verifier.schemas.lean import LeanItem, LeanResult
from services.verifier.schemas.math import MathItem, MathResult

Domain = Literal["math", "code", "lean"]
DOMAINS: tuple[str, ...] = ("math", "code", "lean")


class MathVerifyItem(MathItem):
    domain: Literal["math"] = Field(description="Which verifier judges this item.")


class CodeVerifyItem(CodeItem):
    domain: Literal["code"] = Field(description="Which verifier judges this item.")


class LeanVerifyItem(LeanItem):
    domain: Literal["lean"] = Field(description="Which verifier judges this item.")


class MathVerifyResult(MathResult):
    domain: Literal["math"] = "math"


class CodeVerifyResult(CodeResult):
    domain: Literal["code"] = "code"


class LeanVerifyResult(LeanResult):
    domain: Literal["lean"] = "lean"


VerifyItem = Annotated[
    MathVerifyItem | CodeVerifyItem | LeanVerifyItem, Field(discriminator="domain")
]
VerifyResult = Annotated[
    MathVerifyResult | CodeVerifyResult | LeanVerifyResult, Field(discriminator="domain")
]
RESULT_TYPES: dict[str, type[MathVerifyResult | CodeVerifyResult | LeanVerifyResult]] = {
    "math": MathVerifyResult,
    "code": CodeVerifyResult,
    "lean": LeanVerifyResult,
}

# The field that carries the candidate's text, per domain (filled from the completion). Code and
# Lean take the last fenced block of `response` (```python / ```lean) on the server.
RESPONSE_FIELD: dict[str, str] = {"math": "response", "code": "response", "lean": "response"}


class VerifyRequest(WireModel):
    items: list[VerifyItem] = Field(
        min_length=1, description="Mixed batch; results come back in order."
    )


class VerifyResponse(BaseModel):
    results: list[VerifyResult]


class OpenRLHFRequest(BaseModel):
    """OpenRLHF's remote reward request (`--remote_rm_url`): parallel lists, one per sample.

    Unknown keys are ignored (not rejected) because OpenRLHF versions add fields over time.
    """

    query: list[str] = Field(description="Prompt + response, as OpenRLHF renders them.")
    prompts: list[str] = Field(description="The prompts; removed from `query` to get the response.")
    labels: list[Any] | None = Field(
        None,
        description=(
            "Per sample: a plain string (a math ground truth) or a JSON object with `domain` "
            'and that domain\'s fields, e.g. {"domain": "code", "tests": ...}. Numbers are read '
            "as math ground truths. Required: start OpenRLHF with `--label_key`."
        ),
    )


class OpenRLHFResponse(BaseModel):
    rewards: list[float] = Field(description="One reward per sample (0.0 for a verifier error).")
    scores: list[float] = Field(description="Same as rewards (OpenRLHF's dynamic filtering).")
    extra_logs: dict[str, list[float]] = Field(
        description="Per-sample 0/1 indicators of each status, and `verifier_error`, for logging."
    )


def response_of(query: str, prompt: str) -> str:
    """The response part of an OpenRLHF query: the query with its prompt removed."""
    if query.startswith(prompt):
        return query[len(prompt) :]
    at = query.find(prompt) if prompt else -1
    return query[at + len(prompt) :] if at >= 0 else query


def label_text(label: Any) -> str:
    """A label as text: objects are JSON-encoded, numbers written out, strings kept."""
    if isinstance(label, str):
        return label
    if isinstance(label, dict):
        return json.dumps(label)
    return str(label)


def item_from_label(label: str, response: str) -> dict[str, Any]:
    """A `/verify` item (as a dict) from a label and the candidate's text.

    A label that is a JSON object with a `domain` key is structured; anything else (including
    JSON scalars such as `"42"`) is a math ground truth.
    """
    structured: Any = None
    if label.lstrip().startswith("{"):
        try:
            structured = json.loads(label)
        except json.JSONDecodeError:
            structured = None
    if isinstance(structured, dict) and "domain" in structured:
        domain = structured["domain"]
        field = RESPONSE_FIELD.get(domain, "response") if isinstance(domain, str) else "response"
        return {**structured, field: response}
    return {"domain": "math", "response": response, "answer": label}


VERIFY_ITEM_ADAPTER: TypeAdapter[VerifyItem] = TypeAdapter(VerifyItem)
