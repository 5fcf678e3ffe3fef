"""Wire models of `POST /verify` (a mixed-domain batch) and `POST /openrlhf` (OpenRLHF's remote RM).

A mixed item is a domain's item plus `"domain": "math" | "code" | "lean" | "ifeval" | "choice" |
"answer" | "gym"`; its result is that domain's result plus the same `domain`. An OpenRLHF label is
either a plain string (a math ground truth), a JSON object with `domain` and that domain's fields
except the candidate's text, which comes from the query, or an instruction-following ground truth
in open-instruct's form (see `item_from_label`).
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from rlvr.formats.ifeval import FormatError, constraints_from_ground_truth, looks_like_ground_truth
from rlvr.schemas.answer import AnswerItem, AnswerResult
from rlvr.schemas.choice import ChoiceItem, ChoiceResult
from rlvr.schemas.code import CodeItem, CodeResult
from rlvr.schemas.common import WireModel
from rlvr.schemas.gym import GymItem, GymResult
from rlvr.schemas.ifeval import IfevalItem, IfevalResult
from rlvr.schemas.lean import LeanItem, LeanResult
from rlvr.schemas.math import MathItem, MathResult
from rlvr.schemas.template_tokens import strip_end_tokens, strip_start_token

Domain = Literal["math", "code", "lean", "ifeval", "choice", "answer", "gym"]
DOMAINS: tuple[str, ...] = ("math", "code", "lean", "ifeval", "choice", "answer", "gym")


class MathVerifyItem(MathItem):
    domain: Literal["math"] = Field(description="Which verifier judges this item.")


class CodeVerifyItem(CodeItem):
    domain: Literal["code"] = Field(description="Which verifier judges this item.")


class LeanVerifyItem(LeanItem):
    domain: Literal["lean"] = Field(description="Which verifier judges this item.")


class IfevalVerifyItem(IfevalItem):
    domain: Literal["ifeval"] = Field(description="Which verifier judges this item.")


class ChoiceVerifyItem(ChoiceItem):
    domain: Literal["choice"] = Field(description="Which verifier judges this item.")


class AnswerVerifyItem(AnswerItem):
    domain: Literal["answer"] = Field(description="Which verifier judges this item.")


class GymVerifyItem(GymItem):
    domain: Literal["gym"] = Field(description="Which verifier judges this item.")


class MathVerifyResult(MathResult):
    domain: Literal["math"] = "math"


class CodeVerifyResult(CodeResult):
    domain: Literal["code"] = "code"


class LeanVerifyResult(LeanResult):
    domain: Literal["lean"] = "lean"


class IfevalVerifyResult(IfevalResult):
    domain: Literal["ifeval"] = "ifeval"


class ChoiceVerifyResult(ChoiceResult):
    domain: Literal["choice"] = "choice"


class AnswerVerifyResult(AnswerResult):
    domain: Literal["answer"] = "answer"


class GymVerifyResult(GymResult):
    domain: Literal["gym"] = "gym"


VerifyItem = Annotated[
    MathVerifyItem
    | CodeVerifyItem
    | LeanVerifyItem
    | ChoiceVerifyItem
    | AnswerVerifyItem
    | GymVerifyItem
    | IfevalVerifyItem,
    Field(discriminator="domain"),
]
AnyVerifyResult = (
    MathVerifyResult
    | CodeVerifyResult
    | LeanVerifyResult
    | ChoiceVerifyResult
    | AnswerVerifyResult
    | GymVerifyResult
    | IfevalVerifyResult
)
VerifyResult = Annotated[AnyVerifyResult, Field(discriminator="domain")]
RESULT_TYPES: dict[str, type[AnyVerifyResult]] = {
    "math": MathVerifyResult,
    "code": CodeVerifyResult,
    "lean": LeanVerifyResult,
    "choice": ChoiceVerifyResult,
    "answer": AnswerVerifyResult,
    "gym": GymVerifyResult,
    "ifeval": IfevalVerifyResult,
}

# The field that carries the candidate's text, per domain (filled from the completion). Code and
# Lean take the last fenced block of `response` (```python / ```lean) on the server.
RESPONSE_FIELD: dict[str, str] = {
    "math": "response",
    "code": "response",
    "lean": "response",
    "ifeval": "response",
    "choice": "response",
    "answer": "response",
    "gym": "response",
}


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


class LabelError(ValueError):
    """A label that is neither a plain ground truth nor a JSON object of the documented shape."""


_PROMPT_HEAD_TOKENS = 4
# `{'domain': 'code', ...}` (a Python repr) or `{"answer": 3}`: meant as an object, not a math
# answer such as `{1, 2}` or `{x | x > 0}`.
_MAPPING_LIKE = re.compile(r"\s*\{\s*(['\"]).{0,200}?\1\s*:", re.DOTALL)


def _align(query: str, prompt: str) -> int | None:
    """End of `prompt` in `query` when the query starts with it up to whitespace (a tokenizer's
    decode may double, drop or move spaces: `a  b`, `word .`); None if it does not."""
    at = 0
    for char in prompt:
        if char.isspace():
            continue
        while at < len(query) and query[at].isspace():
            at += 1
        if at == len(query) or query[at] != char:
            return None
        at += 1
    return at


def response_of(query: str, prompt: str) -> str | None:
    """The response part of an OpenRLHF query, or None when the query does not start with its
    prompt (it must never be judged with the prompt in it: the prompt's own worked example
    would be graded). Tolerated: special tokens the decoder put in front (`<s>`,
    `<|begin_of_text|>`), whitespace differences, and chat-template tokens at the end (a
    completion decoded with special tokens ends in `<|im_end|>`), which are dropped."""
    if query.startswith(prompt):
        return strip_end_tokens(query[len(prompt) :])
    head = query
    for _ in range(_PROMPT_HEAD_TOKENS + 1):
        end = _align(head, prompt)
        if end is not None:
            return strip_end_tokens(head[end:])
        shorter = strip_start_token(head)
        if shorter == head:
            return None
        head = shorter
    return None


def label_text(label: Any) -> str:
    """A label as text: objects are JSON-encoded, numbers written out, strings kept."""
    if isinstance(label, str):
        return label
    if isinstance(label, dict):
        return json.dumps(label)
    if isinstance(label, int | float) and not isinstance(label, bool):
        return str(label)
    raise LabelError(
        f"a label is a string (a math ground truth), a number or a JSON object; got "
        f"{type(label).__name__}"
    )


def item_from_label(label: str, response: str) -> dict[str, Any]:
    """A `/verify` item (as a dict) from a label and the candidate's text.

    A label that is a JSON object with a `domain` key is structured; a plain ground truth
    (including JSON scalars such as `"42"` and set notation such as `{1, 2}`) is a math answer.
    An open-instruct instruction-following ground truth (a list of `instruction_id`/`kwargs`
    objects or an old `func_name` object, JSON or Python literal) is an `ifeval` item.
    A label that looks like an object but is not one of the documented shape (a Python `repr`
    dict, a JSON object without `domain`) raises LabelError: guessing would grade it as math.
    """
    if looks_like_ground_truth(label):
        try:
            constraints = constraints_from_ground_truth(label)
        except FormatError as exc:
            raise LabelError(f"instruction-following ground truth: {exc}") from exc
        return {"domain": "ifeval", "response": response, "constraints": constraints}
    if label.lstrip().startswith("{"):
        try:
            structured = json.loads(label)
        except (json.JSONDecodeError, RecursionError):
            structured = None
            if _MAPPING_LIKE.match(label):
                raise LabelError(
                    "the label looks like an object but is not valid JSON (a Python repr?); "
                    'send JSON such as {"domain": "code", "tests": [...]}'
                ) from None
        if isinstance(structured, dict) and structured:
            if "domain" not in structured:
                raise LabelError(
                    'a JSON object label needs "domain" '
                    "(math | code | lean | ifeval | choice | answer | gym)"
                )
            domain = structured["domain"]
            field = (
                RESPONSE_FIELD.get(domain, "response") if isinstance(domain, str) else "response"
            )
            return {**structured, field: response}
    return {"domain": "math", "response": response, "answer": label}


VERIFY_ITEM_ADAPTER: TypeAdapter[VerifyItem] = TypeAdapter(VerifyItem)


# the service reads this much of a math item's `problem` (the adapters send no more)
PROBLEM_CHARS = 8_000


def with_problem(item: dict[str, Any], problem: str | None) -> dict[str, Any]:
    """A math item (as a dict) with the problem text, the prompt, as its `problem`, so an
    answer that restates one of the problem's expressions is refused; items of other domains,
    and a label that carries its own `problem`, are left as they are."""
    if not problem or item.get("domain", "math") != "math" or item.get("problem"):
        return item
    return {**item, "problem": problem[:PROBLEM_CHARS]}
