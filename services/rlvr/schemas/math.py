"""Wire models of `POST /math`."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, Field

from rlvr.schemas.common import ItemResult, WireModel


class MathItem(WireModel):
    candidate_text_fields: ClassVar[tuple[str, ...]] = ("response",)

    id: str | None = Field(None, description="Caller's id, echoed in the result.")
    response: str = Field(
        description="The model's full output; the final answer is extracted from it."
    )
    answer: str = Field(description="Ground-truth answer (LaTeX or plain text).")
    problem: str | None = Field(
        None,
        description=(
            "The problem text (the prompt), optional. When given, an answer that is one of the "
            "problem's own expressions (`x^2+5x+6` for 'Factor $x^2+5x+6$') is refused as a "
            "restatement, unless the ground truth is that expression."
        ),
    )
    timeout_s: float | None = Field(
        None,
        gt=0,
        description=(
            "Per-item deadline in seconds (default `VERIFIER_MATH__DEFAULT_TIMEOUT_S`, 2 s), "
            "capped by `VERIFIER_MATH__MAX_TIMEOUT_S` (10 s). Past it the worker is killed and "
            "the item is `timed_out` with reward 0."
        ),
    )


class MathRequest(WireModel):
    items: list[MathItem] = Field(
        min_length=1, description="The batch; results come back in order."
    )


class MathResult(ItemResult):
    extracted: str | None = Field(
        None,
        description=(
            "The final answer found in `response`, as written (null when none was found or "
            "the response hedged between several boxed values)."
        ),
    )
    parsed_response: str | None = Field(
        None, description="How the extracted answer was understood (an exact value or SymPy form)."
    )
    parsed_answer: str | None = Field(None, description="How the ground truth was understood.")


class MathResponse(BaseModel):
    results: list[MathResult]
