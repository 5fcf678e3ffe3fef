#!/usr/bin/env bash
# Build the local images the project needs on a machine with no image registry.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/docker/build_base_image.sh rlvr-base:bookworm
