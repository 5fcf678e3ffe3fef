#!/usr/bin/env bash
# Build a local Debian base image with python3 from Debian's packages (no image registry needed).
# Usage: build_base_image.sh [TAG] [EXTRA_PACKAGES_COMMA_SEPARATED]
# Real users pull public images instead; our Dockerfiles take the base image as a build argument.
set -euo pipefail
tag=${1:-rlvr-base:bookworm}
extra=${2:-}
if docker image inspect "$tag" >/dev/null 2>&1; then
  echo "base image $tag exists"
  exit 0
fi
root=$(mktemp -d /tmp/rlvr-rootfs.XXXXXX)
include="python3,ca-certificates"
[ -n "$extra" ] && include="$include,$extra"
debootstrap --variant=minbase --include="$include" bookworm "$root" http://deb.debian.org/debian >/tmp/debootstrap-"${tag//[:\/]/_}".log 2>&1
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
tar -C "$root" -c . | docker import - "$tag" >/dev/null
rm -rf "$root"
echo "built base image $tag"
