#!/usr/bin/env bash
# Download, on a machine with the package index, the wheels that benchmarks/gpu_grpo.sh may need
# on a GPU machine without network (Python 3.12, x86_64). They go to .gpu/wheels (git-ignored),
# which travels with `carry: [".gpu"]`; gpu_grpo.sh installs only those whose module is missing.
# Then generate the run's reasoning-gym problems into .gpu/data (also git-ignored, ~3.4 MB): the
# GPU machine has no reasoning-gym.
set -euo pipefail
cd "$(dirname "$0")/.."
DEST="${1:-.gpu/wheels}"
mkdir -p "$DEST"
PY="${PYTHON:-.venv/bin/python}"
# module-independent pins: what this repo is tested with (.venv), TRL's per the shared README.
PACKAGES=(
  trl==1.16.0 datasets==5.2.0 dill==0.4.1 multiprocess==0.70.19
  fastapi==0.165.0 starlette==1.10.0 annotated-doc==0.0.7 uvicorn==0.54.0 h11==0.16.0 click==8.5.1
  pydantic==2.14.4 pydantic_core==2.50.5 annotated-types==0.8.0 typing-inspection==0.4.5
  pydantic-settings==2.16.3 python-dotenv==1.2.4
  latex2sympy2_extended==1.11.0 antlr4-python3-runtime==4.13.2 math-verify==0.9.0
  Pebble==5.2.3 prometheus_client==0.26.0 tenacity==9.2.1
  httpx==0.28.1 httpcore==1.0.9 anyio==4.16.0 idna==3.20 certifi==2026.10.19.post1
  xxhash==4.1.0 psutil==7.2.2 pandas==3.1.1 python-dateutil==4.0.0 pytz==2026.6 tzdata==2026.6
  typing_extensions==4.16.0
)
"$PY" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
  --python-version 3.12 --implementation cp --abi cp312 --abi abi3 --abi none \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 --platform any \
  -d "$DEST" "${PACKAGES[@]}" 2>&1 | grep -v "is ignored" || true
ls "$DEST" | wc -l
du -sh "$DEST"
# The problems of the plan gpu_grpo.sh runs (RLVR_GPU_BENCH_SET may change task and sizes).
PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" "$PY" benchmarks/gpu_grpo.py --prepare
du -sh .gpu/data
