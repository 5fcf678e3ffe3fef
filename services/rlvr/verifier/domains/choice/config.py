"""Settings of the multiple-choice verifier (`VERIFIER_CHOICE__*`): its queue."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ChoiceSettings(BaseModel):
    max_queue_items: int = Field(
        65536, ge=1, description="Items judged or waiting at once; past it: 503 + Retry-After."
    )
    retry_after_s: int = Field(1, ge=1, description="Retry-After sent with a 503.")
