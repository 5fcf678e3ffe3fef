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
from rlvr.verifier.domains.ifeval.config import IfevalSettings
from rlvr.verifier.domains.lean.config import LeanSettings
from rlvr.verifier.domains.math.config import MathSettings
from rlvr.verifier.domains.sessions.config import SessionSettings
from rlvr.verifier.scaleout.config import RayServeSettings


class LimitsSettings(BaseModel):
    """Whole-request limits; exceeding one is a 413 that names the limit."""

    max_body_bytes: int = Field(64 * 1024 * 1024, ge=1024, description="Largest request body.")
    max_bodies_in_flight_bytes: int = Field(
        512 * 1024 * 1024,
        ge=1024,
        description=(
            "Most bytes of request bodies held at once by one worker process, all requests "
            "together (a body is held until its request ends): past it, 503 + Retry-After."
        ),
    )
    max_batch_items: int = Field(4096, ge=1, description="Most items in one request.")
    max_item_chars: int = Field(
        1_000_000,
        ge=1,
        description=(
            "Longest text field (response, code, expected output, ids, headers, checker and "
            "interactor sources, a call test's `fn`, and its args / kwargs / expected as JSON)."
        ),
    )
    max_tests_per_item: int = Field(1000, ge=1, description="Most tests in one `/code` item.")
    max_tests_per_batch: int = Field(
        100_000, ge=1, description="Most tests in one request, all items together."
    )
    max_json_objects: int = Field(
        150_000,
        ge=100,
        description=(
            "Most JSON objects (`{...}`) in one body, counted while parsing: what a body may "
            "cost in memory, whatever its size in bytes."
        ),
    )
    max_json_arrays: int = Field(
        1_000_000,
        ge=100,
        description=(
            "Most `[` characters in one body (arrays; brackets inside strings count too), "
            "checked before parsing."
        ),
    )


class ServerSettings(BaseModel):
    """What one HTTP connection may cost before the app sees it (`rlvr-verifier serve`; see
    `rlvr.verifier.connections`). Ray Serve's own proxy does not use these."""

    max_header_bytes: int = Field(
        64 * 1024, ge=1024, description="Largest request line + headers (431 past it)."
    )
    max_headers: int = Field(100, ge=8, description="Most header lines in one request (431).")
    header_timeout_s: float = Field(
        10.0, gt=0, description="Seconds for a request's head to arrive (408, closed, past it)."
    )
    body_timeout_s: float = Field(
        120.0, gt=0, description="Seconds for a request's body to arrive after its head (408)."
    )
    keep_alive_timeout_s: float = Field(
        5.0, gt=0, description="Seconds an idle kept-alive connection stays open between requests."
    )
    max_connections: int = Field(
        1000,
        ge=1,
        description=(
            "Most open connections per worker process; one more is answered 503 and closed. The "
            "descriptor limit is raised to fit it (or it is lowered to fit the limit)."
        ),
    )


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
    server: ServerSettings = Field(default_factory=ServerSettings)
    math: MathSettings = Field(default_factory=MathSettings)
    code: CodeSettings = Field(default_factory=CodeSettings)
    lean: LeanSettings = Field(default_factory=LeanSettings)
    ifeval: IfevalSettings = Field(default_factory=IfevalSettings)
    choice: ChoiceSettings = Field(default_factory=ChoiceSettings)
    answer: AnswerSettings = Field(default_factory=AnswerSettings)
    gym: GymSettings = Field(default_factory=GymSettings)
    sessions: SessionSettings = Field(
        default_factory=SessionSettings, description="Stateful Python sessions (`/sessions`)."
    )
    ray: RayServeSettings = Field(
        default_factory=RayServeSettings, description="Layout on a Ray cluster (`serve --ray`)."
    )
