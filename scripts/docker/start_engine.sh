#!/usr/bin/env bash
# Start a Docker engine if none answers, and wait until it does.
# Used by .ci/run and by developers on machines where dockerd is not a system service.
set -euo pipefail
if docker info >/dev/null 2>&1; then
  exit 0
fi
if ! command -v dockerd >/dev/null 2>&1; then
  echo "dockerd not installed: apt-get install -y docker.io" >&2
  exit 1
fi
log=${DOCKERD_LOG:-/tmp/dockerd.log}
nohup dockerd >"$log" 2>&1 &
for _ in $(seq 1 60); do
  if docker info >/dev/null 2>&1; then
    echo "docker engine up ($(docker version --format '{{.Server.Version}}'))"
    exit 0
  fi
  sleep 1
done
echo "docker engine did not start; see $log" >&2
tail -20 "$log" >&2
exit 1
