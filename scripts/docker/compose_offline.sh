#!/usr/bin/env bash
# `docker compose up` on a machine with no image registry: build the images compose would pull
# bases for (python:3.11-slim) from Debian's packages instead, then start compose with them.
#
#   bash scripts/docker/compose_offline.sh            # = docker compose up -d, offline
#   bash scripts/docker/compose_offline.sh --profile cpu up   # any compose arguments
#
# Builds, each only when missing: the sandbox image (scripts/docker/build_images.sh) and the
# verifier image (scripts/docker/build_e2e_images.sh: a debootstrap base, wheels built on the
# host from PyPI); with `--profile cpu` also the CPU trainer image. Needs debootstrap, and PyPI
# reachable from the host (not from containers).
set -euo pipefail
cd "$(dirname "$0")/../.."
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(up -d)
verifier=${RLVR_VERIFIER_IMAGE:-rlvr-verifier:latest}
trainer=${RLVR_TRAINER_CPU_IMAGE:-rlvr-trainer:cpu}
has() { docker image inspect "$1" >/dev/null 2>&1; }

has "${RLVR_SANDBOX_IMAGE:-rlvr-sandbox:latest}" || bash scripts/docker/build_images.sh
wants_trainer=0
[[ " ${args[*]} " == *" cpu "* ]] && wants_trainer=1
if ! has "$verifier" || { [ "$wants_trainer" = 1 ] && ! has "$trainer"; }; then
  RLVR_SKIP_TRAINER=$((1 - wants_trainer)) bash scripts/docker/build_e2e_images.sh "$verifier" "$trainer"
fi
if docker compose version >/dev/null 2>&1; then compose=(docker compose); else compose=(docker-compose); fi
exec "${compose[@]}" "${args[@]}"
