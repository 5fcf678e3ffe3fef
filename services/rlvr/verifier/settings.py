"""VerifierSettings: every knob of the service, from `VERIFIER_*` variables and a `.env` file.

Nested sections use a double underscore: `VERIFIER_MATH__DEFAULT_TIMEOUT_S=3`.
"""

from __future__ import annotations

from pydantic import BaseModel, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from rlvr.verifier.domains.answer.config import AnswerSettings
from rlvr.verifier.domains.choice.config import ChoiceSettings
from rlvr.verifier.domains.code.config import CodeSettings
from rlvr.verifier.domains.gym.config import GymSettings
from rlvr.verifier.domains.lean.config import LeanSettings
from rlvr.verifier.domains.math.config import MathSettings
from rlvr.verifier.scaleout.config import RayServeSettings


class LimitsSettings(BaseModel):
    """Whole-request limits; exceeding one is a 413 that names the limit."""

    max_body_bytes: int = Field(64 * 1024 * 1024, ge=1024, description="Largest request body.")
    max_batch_items: int = Field(4096, ge=1, description="Most items in one request.")
    max_item_chars: int = Field(
        1_000_000, ge=1, description="Longest text field (response, code, expected output)."
    )
    max_tests_per_item: int = Field(1000, ge=1, description="Most tests in one `/code` item.")


class VerifierSettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="VERIFIER_",
        env_nested_delimiter="__",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
    )

    host: str = Field("127.0.0.1", description="Address `rlvr-verifier serve` binds to.")
    port: int = Field(8000, description="Port `rlvr-verifier serve` listens on.")
    workers: int = Field(1, ge=1, description="Uvicorn worker processes.")
    log_level: str = Field("info", description="Python log level.")
    api_key: str | None = Field(None, description="If set, requests must send it (X-API-Key).")
    limits: LimitsSettings = Field(default_factory=LimitsSettings)
    math: MathSettings = Field(default_factory=MathSettings)
    code: CodeSettings = Field(default_factory=CodeSettings)
    lean: LeanSettings = Field(default_factory=LeanSettings)
    choice: ChoiceSettings = Field(default_factory=ChoiceSettings)
    answer: AnswerSettings = Field(default_factory=AnswerSettings)
    gym: GymSettings = Field(default_factory=GymSettings)
    ray: RayServeSettings = Field(
        default_factory=RayServeSettings, description="Layout on a Ray cluster (`serve --ray`)."
    )
