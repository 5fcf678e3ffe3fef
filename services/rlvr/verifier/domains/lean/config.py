"""Settings of the Lean verifier and its REPL pool (nested under `VERIFIER_LEAN__*`).

The pinned versions are recorded here as settings so that `/health` reports what the image was
built with; `docker/lean/install_lean.sh` reads the same names as build arguments
(`LEAN_TOOLCHAIN`, `REPL_REV`, `MATHLIB_REV`).

Every REPL runs in a locked-down container of the Lean image (`isolation="container"`, the
default): Lean elaboration can run code, so a REPL must run where a successful escape gains
nothing. `isolation="unsafe_process"` runs REPLs as children of the service instead; it exists
for development and for the stand-in REPL's plumbing tests only, and is NOT a sandbox.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

#: Lean release the image is built with (an elan toolchain name).
DEFAULT_LEAN_TOOLCHAIN = "leanprover/lean4:v4.15.0"
#: leanprover-community/repl tag matching that toolchain.
DEFAULT_REPL_REV = "v4.15.0"
#: mathlib4 tag for that toolchain (only used when Mathlib is installed): the one the REPL's own
#: Mathlib test project pins at tag v4.15.0, whose prebuilt cache `lake exe cache get` serves.
DEFAULT_MATHLIB_REV = "v4.15.0-patch1"
#: The image every REPL container starts from (docker/lean/Dockerfile).
DEFAULT_LEAN_IMAGE = "rlvr-lean:latest"


class LeanSandboxSettings(BaseModel):
    """The container each REPL runs in (`VERIFIER_LEAN__SANDBOX__*`)."""

    image: str = Field(
        DEFAULT_LEAN_IMAGE,
        description="Image with the Lean toolchain and REPL (docker/lean/Dockerfile).",
    )
    docker_host: str | None = Field(
        None, description="Docker engine URL (unix:// only); default: DOCKER_HOST or the socket."
    )
    pids_limit: int = Field(256, ge=16, description="Process limit of one REPL container.")
    cpus: float = Field(1.0, gt=0, description="CPU share of one REPL container (nano_cpus).")
    tmpfs_mb: int = Field(256, ge=8, description="Size of /tmp, the only writable place.")
    start_timeout_s: float = Field(60.0, gt=0, description="Time to create and start one.")
    label: str = Field("lean", description="Value of the `rlvr.pool` label on our containers.")
    stdin_preamble_path: str | None = Field(
        None,
        description=(
            "Development/test hook: a host file sent over the container's stdin (10-digit "
            "length, then its bytes) before the first command, so a program that is not in the "
            "image (the stand-in REPL) gets in without mounting a host directory. None for Lean."
        ),
    )


class LeanSettings(BaseModel):
    is_enabled: bool = Field(
        True, description="Start the Lean REPL pool when a toolchain is found."
    )
    isolation: Literal["container", "unsafe_process"] = Field(
        "container",
        description=(
            "`container`: every REPL runs in a locked-down container of `sandbox.image` (no "
            "network, no Docker socket, no secrets, read-only root, own uid). `unsafe_process`: "
            "REPLs run as the service's own children, with its network, files and Docker "
            "socket; for development and the stand-in REPL's tests only, NEVER in production."
        ),
    )
    sandbox: LeanSandboxSettings = Field(default_factory=LeanSandboxSettings)
    repl_command: str | None = Field(
        None,
        description=(
            "Full command line that starts one REPL (shell-style quoting), inside the container "
            "(or on the host with `unsafe_process`). Overrides `repl_path`/`lake_path`/"
            "`project_dir`; tests point it at the stand-in REPL."
        ),
    )
    repl_path: str = Field(
        "repl",
        description="The built leanprover-community REPL binary (path, or a name on PATH).",
    )
    lake_path: str = Field("lake", description="The `lake` binary (path, or a name on PATH).")
    project_dir: str | None = Field(
        None,
        description=(
            "A Lake project (e.g. one depending on Mathlib): the REPL then runs as "
            "`lake env <repl_path>` inside it so its packages are importable. None: run the "
            "REPL directly (core Lean only)."
        ),
    )
    lean_toolchain: str = Field(
        DEFAULT_LEAN_TOOLCHAIN, description="Pinned Lean toolchain (informational; for /health)."
    )
    repl_rev: str = Field(DEFAULT_REPL_REV, description="Pinned REPL git rev (informational).")
    mathlib_rev: str | None = Field(
        None, description="Pinned Mathlib rev when Mathlib is installed (informational)."
    )
    default_header: str = Field(
        "", description="Header used when an item sends none (e.g. `import Mathlib`)."
    )
    pool_size_per_header: int = Field(
        2, ge=1, description="Most warm REPLs kept for one header (each has it elaborated once)."
    )
    max_repls: int = Field(
        4, ge=1, description="Most REPL processes alive at once, over all headers."
    )
    max_proofs_per_repl: int = Field(
        200, ge=1, description="A REPL is recycled (killed, restarted) after this many proofs."
    )
    memory_limit_mb: int = Field(
        16384,
        ge=0,
        description=(
            "Memory cap of each REPL in MiB: the container's cgroup limit (no swap), or "
            "RLIMIT_AS with `unsafe_process`; 0 = no cap (not advised)."
        ),
    )
    max_rss_mb: int = Field(
        8192,
        ge=0,
        description=(
            "`unsafe_process` only: a REPL whose resident memory exceeds this after a proof is "
            "recycled; 0 = off (a container is held by its cgroup cap instead)."
        ),
    )
    max_queue: int = Field(
        256,
        ge=1,
        description="Most items waiting for a REPL; beyond it a request gets 503 + Retry-After.",
    )
    retry_after_s: int = Field(5, ge=1, description="Retry-After sent with a 503.")
    default_timeout_s: float = Field(
        60.0, gt=0, description="Per-proof deadline when an item sends no `timeout_s`."
    )
    max_timeout_s: float = Field(300.0, gt=0, description="Cap on an item's `timeout_s`.")
    header_timeout_s: float = Field(
        600.0, gt=0, description="Deadline for elaborating a header (e.g. importing Mathlib)."
    )

    def command(self) -> list[str]:
        """The argv that starts one REPL."""
        if self.repl_command:
            return shlex.split(self.repl_command)
        if self.project_dir:
            return [self.lake_path, "env", self.repl_path]
        return [self.repl_path]

    def working_dir(self) -> Path | None:
        return Path(self.project_dir) if self.project_dir and not self.repl_command else None

    @property
    def is_sandboxed(self) -> bool:
        return self.isolation == "container"
