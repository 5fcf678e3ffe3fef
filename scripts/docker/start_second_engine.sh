#!/usr/bin/env bash
# Start a second Docker engine beside the first (to stand in for a second node in the scale-out
# tests), with its own data root, exec root and socket, and the sandbox image loaded into it.
# Idempotent: an engine already answering on the socket is kept; the image is loaded only when
# that engine lacks it (its data root persists, so this costs ~7 s once per machine).
#   SOCKET (default /run/rlvr-docker2.sock), DATA_ROOT (/var/lib/rlvr-docker2),
#   IMAGE (rlvr-sandbox:latest, taken from the first engine).
set -euo pipefail
socket=${SOCKET:-/run/rlvr-docker2.sock}
data_root=${DATA_ROOT:-/var/lib/rlvr-docker2}
image=${IMAGE:-rlvr-sandbox:latest}
second() { DOCKER_HOST="unix://$socket" docker "$@"; }

if ! second info >/dev/null 2>&1; then
  mkdir -p "$data_root" /run/rlvr-docker2-exec
  nohup dockerd --data-root "$data_root" --exec-root /run/rlvr-docker2-exec \
    -H "unix://$socket" --pidfile /run/rlvr-docker2.pid --bridge=none --iptables=false \
    >/tmp/rlvr-dockerd2.log 2>&1 &
  for _ in $(seq 1 60); do
    second info >/dev/null 2>&1 && break
    sleep 1
  done
  second info >/dev/null 2>&1 || { tail -20 /tmp/rlvr-dockerd2.log >&2; exit 1; }
fi
if [ "$(second image inspect -f '{{.Id}}' "$image" 2>/dev/null)" != \
     "$(docker image inspect -f '{{.Id}}' "$image")" ]; then
  docker save "$image" | second load >/dev/null
fi
echo "second docker engine up at unix://$socket with $image"
