"""Settings of the Lean verifier and its REPL pool (nested under `VERIFIER_LEAN__*`).

The pinned versions are recorded here as settings so that `/health` reports what the image was
built with; `docker/lean/install_lean.sh` reads the same names as build arguments
(`LEAN_TOOLCHAIN`, `REPL_REV`, `MATHLIB_REV`).
"""

from __future__ import annotations

import shlex
from pathlib import Path

from pydantic import BaseModel, Field

#: Lean release the image is built with (an elan toolchain name).
DEFAULT_LEAN_TOOLCHAIN = "leanprover/lean4:v4.15.0"
#: leanprover-community/repl tag matching that toolchain.
DEFAULT_REPL_REV = "v4.15.0"
#: mathlib4 tag matching that toolchain (only used when Mathlib is installed).
DEFAULT_MATHLIB_REV = "v4.15.0"


class LeanSettings(BaseModel):
    is_enabled: bool = Field(
        True, description="Start the Lean REPL pool when a toolchain is found."
    )
    repl_command: str | None = Field(
        None,
        description=(
            "Full command line that starts one REPL (shell-style quoting). Overrides "
            "`repl_path`/`lake_path`/`project_dir`; tests point it at the stand-in REPL."
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
        description="Address-space cap (RLIMIT_AS) of each REPL process, in MiB; 0 = no cap.",
    )
    max_rss_mb: int = Field(
        8192,
        ge=0,
        description="A REPL whose resident memory exceeds this after a proof is recycled; 0 = off.",
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
