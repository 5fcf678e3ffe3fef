"""Wire models of `POST /choice` (multiple choice: the committed label against the correct one)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from rlvr.schemas.choice_labels import DEFAULT_OPTION_COUNT, LabelKind, infer_kind, label_set
from rlvr.schemas.common import ItemResult, WireModel

MAX_OPTIONS = 26


class ChoiceItem(WireModel):
    id: str | None = Field(None, description="Caller's id, echoed in the result.")
    response: str = Field(description="The model's full output; the committed choice is read.")
    answer: str = Field(
        min_length=1,
        max_length=8,
        description="The correct label: `B`, `3`, `IV` (case-insensitive for letters/roman).",
    )
    options: list[str] | None = Field(
        None,
        min_length=2,
        max_length=MAX_OPTIONS,
        description=(
            "The options' texts in label order (optional). With them a response may name its "
            "choice by text, and a label quoted with another option's text is refused."
        ),
    )
    labels: LabelKind | None = Field(
        None,
        description=(
            "The label set: `letters` (A, B, …), `numbers` (1, 2, …) or `roman` (I, II, …). "
            "Default: implied by `answer` (digits: numbers; `II`, `iv`: roman; else letters)."
        ),
    )
    num_options: int | None = Field(
        None,
        ge=2,
        le=MAX_OPTIONS,
        description="How many options there are when `options` is not sent (default 10).",
    )

    @model_validator(mode="after")
    def _counts_agree(self) -> ChoiceItem:
        if self.options is not None and self.num_options not in (None, len(self.options)):
            raise ValueError(
                f"num_options={self.num_options} but {len(self.options)} options were sent"
            )
        kind = self.labels or infer_kind(self.answer)
        count = len(self.options) if self.options else self.num_options or DEFAULT_OPTION_COUNT
        labels = label_set(kind, count)
        if labels.canonical(self.answer.strip()) is None:
            raise ValueError(
                f"answer {self.answer!r} is not one of the {kind} labels {', '.join(labels.labels)}"
            )
        return self


class ChoiceRequest(WireModel):
    items: list[ChoiceItem] = Field(
        min_length=1, description="The batch; results come back in order."
    )


ChoiceReasonCode = Literal[
    "correct",
    "wrong_choice",
    "no_answer",
    "unfinished_thinking",
    "hedged",
    "contradicts_text",
]


class ChoiceResult(ItemResult):
    extracted: str | None = Field(
        None, description="The committed text the choice was read from (null when none)."
    )
    choice: str | None = Field(
        None, description="The label read (null when none counts: no answer, a hedge, …)."
    )
    reason: ChoiceReasonCode = Field(
        description=(
            "correct | wrong_choice | no_answer | unfinished_thinking (a `<think>` never "
            "closed) | hedged (two labels, `A or C`, every option) | contradicts_text (the "
            "label quoted with another option's text)."
        )
    )


class ChoiceResponse(BaseModel):
    results: list[ChoiceResult]
