"""Wire models shared by every endpoint: the verdict vocabulary, the per-item result, errors."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Status(StrEnum):
    """Whose fault and what happened, for one item.

    `passed`/`failed`/`timed_out` are judgements of the candidate; `error` is the verifier's own
    fault (a crash, an unreachable sandbox), which is why its reward is null: a trainer must drop
    the sample rather than learn from a fake zero.
    """

    passed = "passed"
    failed = "failed"
    timed_out = "timed_out"
    error = "error"


def is_unicode_text(text: str) -> bool:
    """Whether `text` can be written as UTF-8: a JSON string may hold a lone surrogate
    (`"\\ud800"`), which no reply, file or pipe can carry."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def unicode_fields(values: dict[str, Any], skip: tuple[str, ...] = ()) -> None:
    """ValueError naming the first text field (not in `skip`) that cannot be written as UTF-8."""
    for name, value in values.items():
        if type(value) is str and not value.isascii() and name not in skip:
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise ValueError(
                    f"`{name}` is not valid Unicode text ({exc.reason}, e.g. a lone \\ud800)"
                ) from None


class WireModel(BaseModel):
    """Base for request models: unknown fields and wrong JSON types (`"timeout_s": true`,
    `"2"` for a number) are 422s, never silently coerced; a text field that is not valid
    Unicode (a lone surrogate) is a 422 naming it, in every domain."""

    model_config = ConfigDict(extra="forbid", strict=True)
    # The candidate's own text: not valid Unicode is the candidate's fault, judged per item
    # (`failed`) by the service, never a 422 for the batch.
    candidate_text_fields: ClassVar[tuple[str, ...]] = ()

    @model_validator(mode="after")
    def _unicode_text(self) -> WireModel:
        unicode_fields(self.__dict__, self.candidate_text_fields)
        return self


class ItemResult(BaseModel):
    """The verdict for one item; every endpoint's result extends this."""

    id: str | None = Field(
        None, description="The item's `id`, echoed back (null if none was sent)."
    )
    status: Status = Field(
        description="passed | failed | timed_out | error (error = verifier's fault)."
    )
    reward: float | None = Field(
        description="Reward in [0, 1]; null exactly when status is `error`.", ge=0.0, le=1.0
    )
    detail: str = Field(description="Why, in words a person can act on.")
    elapsed_s: float = Field(
        description="Seconds spent verifying this item (0 when served from cache)."
    )

    @model_validator(mode="after")
    def _reward_matches_status(self) -> ItemResult:
        if (self.status is Status.error) != (self.reward is None):
            raise ValueError("reward must be null exactly when status is 'error'")
        return self


class ErrorInfo(BaseModel):
    code: str = Field(description="Machine-readable error code, e.g. `payload_too_large`.")
    message: str = Field(description="What was wrong with the request and how to fix it.")
    request_id: str | None = Field(None, description="Echo of X-Request-ID, for the server's logs.")


class ErrorResponse(BaseModel):
    """Body of every whole-request error (4xx/5xx). Never contains a traceback."""

    error: ErrorInfo


class DomainHealth(BaseModel):
    ok: bool = Field(description="Whether this domain can verify items right now.")
    offered: bool = Field(
        True,
        description=(
            "False when this process will never serve the domain (disabled, or its toolchain or "
            "image absent when it started): it does not count against `status`."
        ),
    )
    detail: str = Field("", description="Why not, when it cannot.")
    stats: dict[str, Any] = Field(default_factory=dict, description="Pool sizes, queue depth, …")


class HealthResponse(BaseModel):
    status: str = Field(description="`ok` when every offered domain is ok, else `degraded`.")
    version: str
    domains: dict[str, DomainHealth]
