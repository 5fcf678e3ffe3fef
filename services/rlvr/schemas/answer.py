"""Wire models of `POST /answer` (short reference answers: exact match, numbers, token F1)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, field_validator

from rlvr.schemas.common import ItemResult, WireModel

MAX_ALIASES = 256


class AnswerNormalization(WireModel):
    """How both sides are normalised before comparing (default: SQuAD's, every step on)."""

    is_lowercased: bool = Field(True, description="Compare case-insensitively.")
    is_punctuation_removed: bool = Field(True, description="Drop punctuation characters.")
    is_articles_removed: bool = Field(True, description="Drop the words a, an, the.")
    is_whitespace_collapsed: bool = Field(True, description="Collapse runs of whitespace.")


class AnswerItem(WireModel):
    id: str | None = Field(None, description="Caller's id, echoed in the result.")
    response: str = Field(description="The model's full output; the committed answer is read.")
    answer: str | list[str] = Field(
        description="The reference answer, or its aliases (any one of them is right)."
    )
    match: Literal["exact", "f1"] = Field(
        "exact",
        description=(
            "`exact`: normalised exact match against any alias; `f1`: SQuAD token F1 against "
            "the best alias (graded, or pass/fail with `f1_threshold`)."
        ),
    )
    f1_threshold: float | None = Field(
        None,
        gt=0,
        le=1,
        description="With `match: f1`: pass (reward 1) at or above it, else 0. Null: graded.",
    )
    normalization: AnswerNormalization = Field(
        default_factory=AnswerNormalization, description="Normalisation of both sides."
    )
    is_number_aware: bool = Field(
        True,
        description=(
            "Compare answers that are numbers (with optional unit, sign, currency, thousands "
            "separators, `million`…) as numbers: `1,000 km` equals `1000 km`."
        ),
    )

    @field_validator("answer")
    @classmethod
    def _some_alias(cls, value: str | list[str]) -> str | list[str]:
        aliases = [value] if isinstance(value, str) else value
        if not aliases or len(aliases) > MAX_ALIASES:
            raise ValueError(f"answer needs 1 to {MAX_ALIASES} aliases; got {len(aliases)}")
        if not any(alias.strip() for alias in aliases):
            raise ValueError("answer has no non-blank alias")
        return value


class AnswerRequest(WireModel):
    items: list[AnswerItem] = Field(
        min_length=1, description="The batch; results come back in order."
    )


AnswerReasonCode = Literal[
    "correct", "wrong", "partial", "no_answer", "unfinished_thinking", "stuffed"
]


class AnswerResult(ItemResult):
    extracted: str | None = Field(None, description="The committed answer read (null: none).")
    matched: str | None = Field(
        None, description="The alias it matched (or scored best against, for F1)."
    )
    reason: AnswerReasonCode = Field(
        description=(
            "correct | wrong | partial (graded F1 below 1) | no_answer | unfinished_thinking | "
            "stuffed (several candidates, or several aliases, in one answer)."
        )
    )


class AnswerResponse(BaseModel):
    results: list[AnswerResult]
