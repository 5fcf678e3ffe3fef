"""Settings of the math verifier (nested under `VERIFIER_MATH__*`)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class MathSettings(BaseModel):
    workers: int = Field(2, ge=1, description="Worker processes that run SymPy (killable).")
    default_timeout_s: float = Field(2.0, gt=0, description="Per-item deadline when none is sent.")
    max_timeout_s: float = Field(10.0, gt=0, description="Cap on a per-item `timeout_s`.")
    cache_size: int = Field(
        65536, ge=0, description="Verdicts kept for identical (answer, extracted)."
    )
