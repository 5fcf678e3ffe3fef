"""Settings of the instruction-following verifier (`VERIFIER_IFEVAL__*`): queue, deadlines, pool."""

from __future__ import annotations

from pydantic import BaseModel, Field


class IfevalSettings(BaseModel):
    max_queue_items: int = Field(
        16384, ge=1, description="Items judged or waiting at once; past it: 503 + Retry-After."
    )
    retry_after_s: int = Field(2, ge=1, description="Retry-After sent with a 503.")
    default_timeout_s: float = Field(5.0, gt=0, description="Per-item deadline when none is sent.")
    max_timeout_s: float = Field(30.0, gt=0, description="Cap on a per-item `timeout_s`.")
    inline_max_chars: int = Field(
        20_000,
        ge=0,
        description=(
            "Responses up to this long are judged on a thread of the service (deadline checked "
            "between checks; every check is linear, so it overruns by milliseconds at most); "
            "longer ones go to a killable worker process that is stopped at the deadline."
        ),
    )
    workers: int = Field(
        1, ge=1, description="Worker processes for long responses and big batches (killable)."
    )
    share_min_items: int = Field(
        128,
        ge=0,
        description=(
            "A batch with at least this many short responses shares them with the workers, in "
            "chunks, so the service's thread and every worker judge it at once; a smaller batch "
            "is judged on the thread alone (no inter-process latency)."
        ),
    )
    share_chunk_items: int = Field(
        32,
        ge=1,
        description=(
            "Short responses per chunk of a shared batch (one worker task each: the pickling "
            "and the pipe are paid per chunk; the thread and the workers take chunks in turn)."
        ),
    )
