#!/usr/bin/env bash
# Build the local images the project needs on a machine with no image registry.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/docker/build_base_image.sh rlvr-base:bookworm
# Code sandbox (see docker/sandbox/Dockerfile): the base plus g++, then the image; both cached.
bash scripts/docker/build_base_image.sh rlvr-base-cpp:bookworm g++
docker build -q --build-arg BASE_IMAGE=rlvr-base-cpp:bookworm -t rlvr-sandbox:latest docker/sandbox >/dev/null
echo "sandbox image rlvr-sandbox:latest ready"
