#!/usr/bin/env bash
# Build the local images the project needs on a machine with no image registry.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/docker/build_base_image.sh rlvr-base:bookworm
# Code sandbox (see docker/sandbox/Dockerfile): a base with python3 and every toolchain of
# services/rlvr/verifier/sandbox/wire/languages.py and numpy/sympy for Python runs, then the image;
# both cached by tag.
bash scripts/docker/build_base_image.sh rlvr-base-langs:bookworm \
  g++,gcc,libc6-dev,default-jdk-headless,nodejs,golang-go,rustc,python3-numpy,python3-sympy
docker build -q --network host --build-arg BASE_IMAGE=rlvr-base-langs:bookworm -t rlvr-sandbox:latest docker/sandbox >/dev/null
echo "sandbox image rlvr-sandbox:latest ready"
