"""Settings of the code verifier and its sandbox pool (nested under `VERIFIER_CODE__*`)."""

from __future__ import annotations

import os

from pydantic import BaseModel, Field

from rlvr.verifier.sandbox.host.settings import DockerSandboxSettings
from rlvr.verifier.sandbox.wire.languages import DEFAULT_FLAGS


class CodeSettings(BaseModel):
    is_enabled: bool = Field(True, description="Start the sandbox pool at startup.")
    pool_size: int = Field(
        default_factory=lambda: max(2, os.cpu_count() or 2),
        ge=1,
        description="Warm sandbox containers, i.e. items run in parallel (default: CPU count).",
    )
    max_jobs_per_sandbox: int = Field(
        5000,
        ge=1,
        description="A container is replaced after this many items (leak bound). Each job has "
        "fresh namespaces, so this bounds only the container's own processes; a replacement "
        "costs ~0.26 s of CPU, which at 500 was more than a third of /run_code's CPU at load.",
    )
    max_queue_items: int = Field(
        8192, ge=1, description="Items waiting or running at once; beyond it: 503 + Retry-After."
    )
    warm_timeout_s: float = Field(60.0, ge=0, description="Startup waits this long for the pool.")
    default_timeout_s: float = Field(5.0, gt=0, description="Per-test wall deadline by default.")
    max_timeout_s: float = Field(30.0, gt=0, description="Cap on an item's `timeout_s`.")
    default_memory_mb: int = Field(512, ge=32, description="Per-run address-space limit.")
    max_memory_mb: int = Field(896, ge=32, description="Cap on an item's `memory_mb`.")
    file_size_mb: int = Field(16, ge=1, description="Largest file a run may write.")
    max_processes: int = Field(32, ge=4, description="RLIMIT_NPROC of a run (per-container uid).")
    compile_timeout_s: float = Field(30.0, gt=0, description="Compiler deadline per item.")
    compile_memory_mb: int = Field(1024, ge=128, description="Compiler memory limit.")
    cpp_flags: list[str] = Field(
        default_factory=lambda: list(DEFAULT_FLAGS["cpp"]), description="g++ flags."
    )
    compile_flags: dict[str, list[str]] = Field(
        default_factory=lambda: {k: list(v) for k, v in DEFAULT_FLAGS.items() if k != "cpp"},
        description="Compiler flags of the other compiled languages (c, java, go, rust).",
    )
    compile_cache_mb: int = Field(
        256, ge=0, description="Host cache of compiled artefacts (identical sources compile once)."
    )
    retries: int = Field(
        1, ge=0, description="Times an item is retried on another sandbox if its sandbox died."
    )
    # ---- no work done twice (dedup.py)
    is_dedup_enabled: bool = Field(
        True,
        description=(
            "Run identical items of one request (same language, program, tests, limits, "
            "scoring) once and copy the verdict to the others (`reused: batch`)."
        ),
    )
    # Never kept: `error` results and results with a timed-out test (docs/code.md).
    cache_items: int = Field(
        4096, ge=0, description="Verdicts kept for identical items of later requests (0: off)."
    )
    cache_mb: float = Field(
        64.0, ge=0, description="Memory bound of that cache (its verdicts' serialized size)."
    )
    sandbox: DockerSandboxSettings = Field(default_factory=DockerSandboxSettings)
