"""Settings of the reasoning-gym verifier (`VERIFIER_GYM__*`): workers, queue, deadlines."""

from __future__ import annotations

from pydantic import BaseModel, Field


class GymSettings(BaseModel):
    workers: int = Field(2, ge=1, description="Worker processes that run the scorers (killable).")
    max_queue_items: int = Field(
        8192, ge=1, description="Items scored or waiting at once; past it: 503 + Retry-After."
    )
    retry_after_s: int = Field(2, ge=1, description="Retry-After sent with a 503.")
    default_timeout_s: float = Field(5.0, gt=0, description="Per-item deadline when none is sent.")
    max_timeout_s: float = Field(30.0, gt=0, description="Cap on a per-item `timeout_s`.")
    chunk_items: int = Field(
        32,
        ge=1,
        description=(
            "Items of a batch scored in one worker call, within the smallest of their deadlines "
            "(most scorers take microseconds; a process round trip each would dominate). A "
            "chunk past that deadline is scored again item by item, each with its own. 1 = off."
        ),
    )
    max_queue_wait_s: float = Field(
        60.0,
        gt=0,
        description=(
            "An item still waiting for a worker this long (plus twice its deadline) is an "
            "`error` (overloaded), so a request never hangs."
        ),
    )
