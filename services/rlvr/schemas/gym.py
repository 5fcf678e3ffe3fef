"""Wire models of `POST /gym` (reasoning-gym tasks scored by the task's own scorer)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rlvr.schemas.common import ItemResult, WireModel


class GymEntry(BaseModel):
    """A reasoning-gym dataset entry as the dataset yields it (JSON-encoded).

    Extra keys are kept (a scorer may read them); `metadata` is what most scorers check against.
    """

    model_config = ConfigDict(extra="allow", strict=True)

    question: str = Field(description="The task's question (not used for scoring).")
    answer: str | None = Field(
        None, description="The entry's reference answer (null for tasks with many solutions)."
    )
    metadata: dict[str, Any] = Field(
        default_factory=dict, description="The entry's metadata, as the task generated it."
    )


class GymItem(WireModel):
    id: str | None = Field(None, description="Caller's id, echoed in the result.")
    task: str = Field(
        min_length=1,
        max_length=100,
        description="The reasoning-gym task name (`basic_arithmetic`, `sudoku`, …).",
    )
    entry: GymEntry = Field(description="The dataset entry the response answers.")
    response: str = Field(
        description="The model's full output; its last `<answer>…</answer>` is scored."
    )
    timeout_s: float | None = Field(
        None,
        gt=0,
        description=(
            "Per-item deadline (default `VERIFIER_GYM__DEFAULT_TIMEOUT_S`), capped by "
            "`VERIFIER_GYM__MAX_TIMEOUT_S`; past it the scorer's worker is killed."
        ),
    )


class GymRequest(WireModel):
    items: list[GymItem] = Field(min_length=1, description="The batch; results come back in order.")


GymReasonCode = Literal[
    "correct", "partial", "wrong", "no_answer", "unfinished_thinking", "timed_out", "error"
]


class GymResult(ItemResult):
    extracted: str | None = Field(
        None, description="The text of the last `<answer>` tag (null when there is none)."
    )
    reason: GymReasonCode = Field(
        description=(
            "correct (score 1) | partial (0 < score < 1: the reward is the score) | wrong | "
            "no_answer | unfinished_thinking | timed_out | error (the verifier's fault)."
        )
    )


class GymResponse(BaseModel):
    results: list[GymResult]
