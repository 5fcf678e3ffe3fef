"""`docker/lean/install_lean.sh` run end to end against STAND-IN downloaders (no network here).

`curl`, `git`, `elan` and `lake` are replaced by small scripts on PATH that record their arguments
and lay out what the real tools would (the "built REPL" is the stand-in `fake_repl.py`). This
checks the script's own logic: pinned revs reach git and elan, a mismatched toolchain pin is
refused, the launcher runs the REPL directly or under `lake env` in the Mathlib project, and the
versions file is written. It does not show that the real downloads and builds succeed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rlvr.verifier.domains.lean.config import (
    DEFAULT_LEAN_TOOLCHAIN,
    DEFAULT_MATHLIB_REV,
    DEFAULT_REPL_REV,
)

REPO = Path(__file__).resolve().parents[5]
SCRIPT = REPO / "docker" / "lean" / "install_lean.sh"
FAKE_REPL = Path(__file__).with_name("fake_repl.py")

STUBS = {
    "curl": """#!/bin/sh
echo "curl $*" >> "$STUB_LOG"
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
cat > "$out" <<'EOF'
mkdir -p "$ELAN_HOME/bin"; cp "$STUB_DIR/elan.real" "$ELAN_HOME/bin/elan"
EOF
""",
    "elan.real": """#!/bin/sh
echo "elan $*" >> "$STUB_LOG"
if [ "$1" = which ]; then mkdir -p "$ELAN_HOME/tc/bin"; echo "$ELAN_HOME/tc/bin/lean"; fi
""",
    "git": """#!/bin/sh
echo "git $*" >> "$STUB_LOG"
if [ "$1" = init ]; then mkdir -p "$3"; fi
if [ "$3" = checkout ]; then echo "$STUB_PIN" > "$2/lean-toolchain"; fi
""",
    "lake": """#!/bin/sh
echo "lake $* (in $PWD)" >> "$STUB_LOG"
if [ "$1" = build ] && [ "$2" = repl ]; then
  mkdir -p .lake/build/bin
  printf '#!/bin/sh\\nexec %s %s "$@"\\n' "$STUB_PYTHON" "$STUB_FAKE" > .lake/build/bin/repl
  chmod +x .lake/build/bin/repl
fi
if [ "$1" = env ]; then shift; LEAN_PATH=/fake/mathlib/lib; export LEAN_PATH; exec "$@"; fi
if [ "$2" = --no-build ] && [ -n "$STUB_NO_CACHE" ]; then exit 3; fi
""",
}


def run_script(tmp_path: Path, **env: str) -> tuple[subprocess.CompletedProcess[str], str]:
    stubs = tmp_path / "stubs"
    stubs.mkdir(exist_ok=True)
    for name, text in STUBS.items():
        path = stubs / name
        path.write_text(text)
        path.chmod(0o755)
    log = tmp_path / "calls.log"
    full_env = {
        "PATH": f"{stubs}:/usr/bin:/bin",
        "STUB_DIR": str(stubs),
        "STUB_LOG": str(log),
        "STUB_PYTHON": sys.executable,
        "STUB_FAKE": str(FAKE_REPL),
        "LEAN_PREFIX": str(tmp_path / "lean"),
        "HOME": str(tmp_path),
        **env,
    }
    # what the cloned projects pin: by default the toolchain the script installs
    full_env.setdefault("STUB_PIN", env.get("LEAN_TOOLCHAIN", DEFAULT_LEAN_TOOLCHAIN))
    # the launcher puts the toolchain dir first on PATH; give it a `lake` there as well
    done = subprocess.run(
        ["bash", str(SCRIPT)], env=full_env, capture_output=True, text=True, timeout=60
    )
    return done, log.read_text() if log.exists() else ""


@pytest.mark.skipif(not os.access("/bin/sh", os.X_OK), reason="needs /bin/sh")
def test_core_install_builds_the_pinned_repl_and_a_working_launcher(tmp_path: Path) -> None:
    done, calls = run_script(tmp_path, REPL_REV="v9.9.9", LEAN_TOOLCHAIN="leanprover/lean4:v9.9.9")
    assert done.returncode == 0, done.stderr
    assert "elan toolchain install leanprover/lean4:v9.9.9" in calls
    assert "fetch -q --depth 1 origin v9.9.9" in calls
    assert "mathlib4" not in calls
    prefix = tmp_path / "lean"
    launcher = (prefix / "bin" / "repl").read_text()
    assert "LEAN_PATH" not in launcher  # no Mathlib: core Lean only
    assert "lake env" not in launcher  # no lake (nor its lock files) at run time
    # the toolchain root, so the REPL does not spawn `lean --print-prefix` per command
    assert f'LEAN_SYSROOT="{prefix}/elan/tc"; export LEAN_SYSROOT' in launcher
    versions = (prefix / "versions.env").read_text()
    assert "VERIFIER_LEAN__REPL_REV=v9.9.9" in versions
    assert "MATHLIB" not in versions
    assert "REPL answers" in done.stderr  # the smoke test went through the launcher


def test_mathlib_install_bakes_mathlibs_search_path_into_the_launcher(tmp_path: Path) -> None:
    done, calls = run_script(tmp_path, INSTALL_MATHLIB="true", MATHLIB_REV="v9.9.8")
    assert done.returncode == 0, done.stderr
    assert "mathlib4 fetch -q --depth 1 origin v9.9.8" in calls
    assert "lake exe cache get" in calls
    assert "lake build --no-build Mathlib" in calls  # all from the cache, or the install fails
    assert f"lake env printenv LEAN_PATH (in {tmp_path}/lean/mathlib4)" in calls
    launcher = (tmp_path / "lean" / "bin" / "repl").read_text()
    assert 'LEAN_PATH="/fake/mathlib/lib"; export LEAN_PATH' in launcher
    versions = (tmp_path / "lean" / "versions.env").read_text()
    assert "VERIFIER_LEAN__MATHLIB_REV=v9.9.8" in versions
    assert "VERIFIER_LEAN__DEFAULT_HEADER=import Mathlib" in versions
    assert "REPL answers" in done.stderr


def test_mathlib_install_fails_when_the_cache_leaves_something_to_build(tmp_path: Path) -> None:
    done, _ = run_script(tmp_path, INSTALL_MATHLIB="true", STUB_NO_CACHE="1")
    assert done.returncode != 0
    assert "cache for v4.15.0-patch1 is incomplete" in done.stderr


def test_launcher_exports_the_sysroot_to_the_repl(tmp_path: Path) -> None:
    done, _ = run_script(tmp_path)
    assert done.returncode == 0, done.stderr
    launcher = tmp_path / "lean" / "bin" / "repl"
    shown = subprocess.run(
        ["sh", "-c", f'sed "s|^exec .*|echo $LEAN_SYSROOT; exec env|" {launcher} | sh'],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert f"LEAN_SYSROOT={tmp_path}/lean/elan/tc" in shown.stdout


def test_mismatched_toolchain_pin_is_refused(tmp_path: Path) -> None:
    done, _ = run_script(tmp_path, STUB_PIN="leanprover/lean4:v1.0.0")
    assert done.returncode != 0
    assert "pins leanprover/lean4:v1.0.0" in done.stderr


def test_script_defaults_are_the_settings_defaults() -> None:
    text = SCRIPT.read_text()
    assert f"LEAN_TOOLCHAIN=${{LEAN_TOOLCHAIN:-{DEFAULT_LEAN_TOOLCHAIN}}}" in text
    assert f"REPL_REV=${{REPL_REV:-{DEFAULT_REPL_REV}}}" in text
    assert f"MATHLIB_REV=${{MATHLIB_REV:-{DEFAULT_MATHLIB_REV}}}" in text
