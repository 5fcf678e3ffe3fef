"""Wire models of `POST /lean`."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, Field, model_validator

from rlvr.schemas.common import ItemResult, WireModel


class LeanItem(WireModel):
    candidate_text_fields: ClassVar[tuple[str, ...]] = ("proof", "response")

    id: str | None = Field(None, description="Caller's id, echoed in the result.")
    statement: str = Field(
        description=(
            "The theorem to prove: `theorem NAME (binders) : type` (a trailing `:= by sorry` is "
            "ignored). It is elaborated on its own, in the header's clean environment."
        )
    )
    proof: str | None = Field(
        None,
        description=(
            "Lean code: a full `theorem NAME … := …` (helper lemmas allowed), or only what follows "
            "`:=`. Exactly one of `proof` and `response` is required."
        ),
    )
    response: str | None = Field(
        None,
        description="A model's output; the last ```lean block in it is taken as `proof`.",
    )
    header: str | None = Field(
        None,
        description=(
            "Imports and `open`/`set_option` lines elaborated before the statement, e.g. "
            "`import Mathlib\\nopen Real`. Default: the server's `default_header` (core Lean "
            "unless configured)."
        ),
    )
    timeout_s: float | None = Field(
        None, gt=0, description="Per-proof deadline in seconds; capped by the server's maximum."
    )

    @model_validator(mode="after")
    def _exactly_one_proof(self) -> LeanItem:
        if (self.proof is None) == (self.response is None):
            raise ValueError("send exactly one of `proof` and `response`")
        return self


class LeanRequest(WireModel):
    items: list[LeanItem] = Field(
        min_length=1, description="The batch; results come back in order."
    )


class LeanMessageOut(BaseModel):
    severity: str = Field(description="error | warning | info, as Lean reported it.")
    line: int = Field(description="1-based line in the proof's code (0 when unknown).")
    column: int = Field(description="0-based column.")
    text: str = Field(description="The message as Lean printed it.")


class LeanResult(ItemResult):
    messages: list[LeanMessageOut] = Field(
        default_factory=list, description="Lean's messages about the proof's code."
    )
    axioms: list[str] = Field(
        default_factory=list,
        description="Axioms the proof depends on (as `#print axioms` reports them).",
    )


class LeanResponse(BaseModel):
    results: list[LeanResult]
