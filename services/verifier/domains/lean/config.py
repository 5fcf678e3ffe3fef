"""Settings of the Lean verifier and its REPL pool (nested under `VERIFIER_LEAN__*`)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class LeanSettings(BaseModel):
    is_enabled: bool = Field(
        True, description="Start the Lean REPL pool when a toolchain is found."
    )
