"""Settings of stateful Python sessions (nested under `VERIFIER_SESSIONS__*`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rlvr.verifier.sandbox.host.settings import DockerSandboxSettings


class SessionContainerSettings(DockerSandboxSettings):
    """The session containers: their own label (never `/code`'s pool), room for many sessions'
    memory and processes, and job namespaces required (a session without them would share its
    container's kernel state with its neighbours)."""

    memory_mb: int = Field(
        6144, ge=128, description="Memory of one container, all its sessions together (cgroup)."
    )
    pids_limit: int = Field(
        256,
        ge=16,
        description="Processes of one container (cgroup); raised to fit "
        "sessions_per_container x (max_processes + 3).",
    )
    cpus: float = Field(2.0, gt=0, description="CPU share of one container (nano_cpus).")
    cpu_pinning: Literal["spread", "off"] = Field(
        "off",
        description="Off: a container's many sessions run cells at once, on up to `cpus` cores "
        "(`spread` would pin all of them to one).",
    )
    job_channel: Literal["attach"] = Field(
        "attach",
        description="Session containers take their cells over the engine's attach stream (the "
        "job channel is the code executor's only).",
    )
    tmpfs_mb: int = Field(8, ge=8, description="The container's /tmp (sessions have their own).")
    job_namespaces: Literal["preferred", "required", "off"] = Field(
        "required", description="Sessions need their own namespaces: keep `required`."
    )
    label: str = Field("sessions", description="Value of the `rlvr.pool` label.")


class SessionSettings(BaseModel):
    is_enabled: bool = Field(True, description="Offer `/sessions` (starts session containers).")
    id_tag: str = Field(
        "",
        pattern=r"^([0-9a-f]{8})?$",
        description="What starts this process's session ids (8 hex characters); empty: "
        "derived from the host name and pid. A Ray Serve replica sets it from its replica id, "
        "which Serve's session router matches.",
    )
    max_sessions: int = Field(
        1024, ge=1, description="Sessions this process holds at once; one more is a 503."
    )
    sessions_per_container: int = Field(
        64, ge=1, description="Sessions multiplexed in one sandbox container."
    )
    min_containers: int = Field(
        0,
        ge=0,
        description="Session containers started at startup (0: the first open starts one; "
        "each further one starts ahead, when a quarter of the room is left).",
    )
    warm_timeout_s: float = Field(60.0, ge=0, description="Startup waits this long for them.")
    default_memory_mb: int = Field(512, ge=32, description="A session's address-space limit.")
    max_memory_mb: int = Field(2048, ge=32, description="Cap on a session's `memory_mb`.")
    default_timeout_s: float = Field(30.0, gt=0, description="Wall seconds per cell by default.")
    max_timeout_s: float = Field(300.0, gt=0, description="Cap on a cell's `timeout_s`.")
    default_idle_ttl_s: float = Field(
        600.0, gt=0, description="Seconds without a cell before a session is closed."
    )
    max_idle_ttl_s: float = Field(3600.0, gt=0, description="Cap on a session's `idle_ttl_s`.")
    default_max_lifetime_s: float = Field(
        3600.0, gt=0, description="Seconds after opening at which a session is closed."
    )
    max_lifetime_cap_s: float = Field(
        21600.0, gt=0, description="Cap on a session's `max_lifetime_s`."
    )
    max_processes: int = Field(
        32, ge=4, description="Processes and threads of one session (RLIMIT_NPROC, its own)."
    )
    file_size_mb: int = Field(16, ge=1, description="Largest file a session may write.")
    cpu_s: int = Field(
        600,
        ge=1,
        description="CPU seconds one process of a session may use over its life (RLIMIT_CPU): "
        "a thread left spinning between cells ends the session, not its neighbours' share.",
    )
    tmpfs_mb: int = Field(16, ge=1, description="Size of a session's own /tmp (its work dir).")
    output_limit_bytes: int = Field(
        1 << 20, ge=1024, description="Stdout or stderr of one cell; more ends the session."
    )
    max_files_bytes: int = Field(
        16 << 20, ge=0, description="Bytes of `files` one open may send (decoded)."
    )
    reaper_interval_s: float = Field(
        1.0, gt=0, description="How often idle and over-age sessions are looked for."
    )
    retry_after_s: int = Field(5, ge=1, description="`Retry-After` of a 503 at the limit.")
    open_timeout_s: float = Field(
        60.0, gt=0, description="Time to place and open one session (a container start included)."
    )
    sandbox: SessionContainerSettings = Field(default_factory=SessionContainerSettings)
