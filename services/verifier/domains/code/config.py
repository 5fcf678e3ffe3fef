"""Settings of the code verifier and its sandbox pool (nested under `VERIFIER_CODE__*`)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class CodeSettings(BaseModel):
    is_enabled: bool = Field(True, description="Start the sandbox pool at startup.")
