#!/usr/bin/env bash
# Install a pinned Lean 4 toolchain (via elan), build the leanprover-community REPL at a pinned
# rev, and optionally Mathlib with its prebuilt cache; leave a `repl` launcher in $LEAN_PREFIX/bin.
#
# Interface (environment variables; Dockerfile.verifier passes them as build args):
#   LEAN_PREFIX      install root (default /opt/lean): elan in $ELAN_HOME, the REPL in
#                    $LEAN_PREFIX/repl, Mathlib in $LEAN_PREFIX/mathlib4, launcher $LEAN_PREFIX/bin/repl
#   ELAN_HOME        where elan keeps toolchains (default $LEAN_PREFIX/elan)
#   LEAN_TOOLCHAIN   elan toolchain (default leanprover/lean4:v4.15.0 = LeanSettings.lean_toolchain)
#   REPL_REV         git rev of https://github.com/leanprover-community/repl (default v4.15.0)
#   INSTALL_MATHLIB  true: also fetch Mathlib (default false; several GB)
#   MATHLIB_REV      git rev of https://github.com/leanprover-community/mathlib4 (default
#                    v4.15.0-patch1: the rev the REPL's own Mathlib test project pins at tag
#                    v4.15.0, so its prebuilt cache is known to exist). The install fails, rather
#                    than compile Mathlib for hours, if `lake exe cache get` leaves anything to build.
#
# The launcher `$LEAN_PREFIX/bin/repl` needs no settings: it runs the REPL with the pinned
# toolchain, exports LEAN_SYSROOT (else the REPL runs `lean --print-prefix` for every command to
# find the core library) and, with Mathlib, Mathlib's LEAN_PATH (computed by `lake env` at install
# time, so `import Mathlib` works). It is what the Lean image (docker/lean/Dockerfile) runs in
# each REPL container; `VERIFIER_LEAN__REPL_PATH=repl` (the default) finds it on the image's PATH.
# Versions chosen here are written to $LEAN_PREFIX/versions.env (VERIFIER_LEAN__* lines) so the
# service can report them in /health.
#
# Needs network access to GitHub (and Mathlib's cache server). Runs as root on Debian/Ubuntu to
# apt-get curl/git if they are missing; elsewhere install those first.
set -euo pipefail

LEAN_PREFIX=${LEAN_PREFIX:-/opt/lean}
ELAN_HOME=${ELAN_HOME:-$LEAN_PREFIX/elan}
LEAN_TOOLCHAIN=${LEAN_TOOLCHAIN:-leanprover/lean4:v4.15.0}
REPL_REV=${REPL_REV:-v4.15.0}
INSTALL_MATHLIB=${INSTALL_MATHLIB:-false}
MATHLIB_REV=${MATHLIB_REV:-v4.15.0-patch1}
export ELAN_HOME

log() { printf '[install_lean] %s\n' "$*" >&2; }

need_tools() {
  local missing=()
  for tool in curl git; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  if ((${#missing[@]})); then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
      log "installing ${missing[*]} (and ca-certificates) with apt-get"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        curl git ca-certificates >/dev/null
    else
      log "missing ${missing[*]}: install them first"; exit 1
    fi
  fi
}

install_elan() {
  if [ ! -x "$ELAN_HOME/bin/elan" ]; then
    log "installing elan into $ELAN_HOME"
    curl -sSfL https://raw.githubusercontent.com/leanprover/elan/master/elan-init.sh -o /tmp/elan-init.sh
    sh /tmp/elan-init.sh -y --no-modify-path --default-toolchain none
    rm -f /tmp/elan-init.sh
  fi
  export PATH="$ELAN_HOME/bin:$PATH"
  log "installing toolchain $LEAN_TOOLCHAIN"
  elan toolchain install "$LEAN_TOOLCHAIN"
  elan default "$LEAN_TOOLCHAIN"
}

clone_at() {  # clone_at URL REV DIR
  rm -rf "$3"
  git init -q "$3"
  git -C "$3" remote add origin "$1"
  git -C "$3" fetch -q --depth 1 origin "$2"
  git -C "$3" checkout -q FETCH_HEAD
}

check_toolchain_file() {  # the project's own pin must be ours, or its build would fetch another
  local found
  found=$(tr -d '[:space:]' <"$1/lean-toolchain")
  if [ "$found" != "$LEAN_TOOLCHAIN" ]; then
    log "$1 pins $found but LEAN_TOOLCHAIN=$LEAN_TOOLCHAIN: choose matching revs"; exit 1
  fi
}

build_repl() {
  log "building the REPL at $REPL_REV"
  clone_at https://github.com/leanprover-community/repl "$REPL_REV" "$LEAN_PREFIX/repl"
  check_toolchain_file "$LEAN_PREFIX/repl"
  (cd "$LEAN_PREFIX/repl" && lake build repl)
  test -x "$LEAN_PREFIX/repl/.lake/build/bin/repl"
}

install_mathlib() {
  log "fetching Mathlib at $MATHLIB_REV with its prebuilt cache"
  clone_at https://github.com/leanprover-community/mathlib4 "$MATHLIB_REV" "$LEAN_PREFIX/mathlib4"
  check_toolchain_file "$LEAN_PREFIX/mathlib4"
  (cd "$LEAN_PREFIX/mathlib4" && lake exe cache get)
  # Everything must come from the cache: `--no-build` fails instead of compiling for hours.
  (cd "$LEAN_PREFIX/mathlib4" && lake build --no-build Mathlib) || {
    log "the Mathlib cache for $MATHLIB_REV is incomplete: choose a rev whose cache exists"; exit 1
  }
}

write_launcher() {
  # The launcher runs the REPL with the pinned toolchain's own binaries (no elan proxy, no lake at
  # run time: the service's unprivileged user cannot write lock files under $LEAN_PREFIX). With
  # Mathlib, its search path is computed once here with `lake env` and baked in.
  local toolchain_bin sysroot lean_path=""
  toolchain_bin=$(dirname "$(elan which lean)")
  sysroot=$(dirname "$toolchain_bin")
  if [ "$INSTALL_MATHLIB" = true ]; then
    lean_path=$(cd "$LEAN_PREFIX/mathlib4" && lake env printenv LEAN_PATH)
    [ -n "$lean_path" ] || { log "lake env gave no LEAN_PATH for Mathlib"; exit 1; }
  fi
  mkdir -p "$LEAN_PREFIX/bin"
  {
    echo '#!/bin/sh'
    echo '# Generated by docker/lean/install_lean.sh.'
    echo "PATH=\"$toolchain_bin:\$PATH\"; export PATH"
    echo "LEAN_SYSROOT=\"$sysroot\"; export LEAN_SYSROOT"
    if [ -n "$lean_path" ]; then echo "LEAN_PATH=\"$lean_path\"; export LEAN_PATH"; fi
    echo "exec \"$LEAN_PREFIX/repl/.lake/build/bin/repl\" \"\$@\""
  } >"$LEAN_PREFIX/bin/repl"
  chmod 755 "$LEAN_PREFIX/bin/repl"
  ln -sf "$toolchain_bin/lake" "$LEAN_PREFIX/bin/lake"
  ln -sf "$toolchain_bin/lean" "$LEAN_PREFIX/bin/lean"
  {
    echo "VERIFIER_LEAN__LEAN_TOOLCHAIN=$LEAN_TOOLCHAIN"
    echo "VERIFIER_LEAN__REPL_REV=$REPL_REV"
    if [ "$INSTALL_MATHLIB" = true ]; then
      echo "VERIFIER_LEAN__MATHLIB_REV=$MATHLIB_REV"
      echo "VERIFIER_LEAN__DEFAULT_HEADER=import Mathlib"
    fi
  } >"$LEAN_PREFIX/versions.env"
}

smoke_test() {  # one command through the launcher: the REPL must answer with an env
  local out
  out=$(printf '{"cmd": "theorem smoke : 1 + 1 = 2 := rfl"}\n\n' | "$LEAN_PREFIX/bin/repl")
  case "$out" in
    *'"env"'*) log "REPL answers: $(echo "$out" | tr -d '\n' | cut -c1-80)" ;;
    *) log "REPL smoke test failed: $out"; exit 1 ;;
  esac
}

main() {
  mkdir -p "$LEAN_PREFIX"
  need_tools
  install_elan
  build_repl
  [ "$INSTALL_MATHLIB" = true ] && install_mathlib
  write_launcher
  smoke_test
  chmod -R a+rX "$LEAN_PREFIX"
  log "done: $LEAN_PREFIX/bin/repl (toolchain $LEAN_TOOLCHAIN, REPL $REPL_REV," \
      "Mathlib $([ "$INSTALL_MATHLIB" = true ] && echo "$MATHLIB_REV" || echo none))"
}

main "$@"
