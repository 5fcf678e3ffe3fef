#!/usr/bin/env bash
# Fresh clone -> running service: install (scripts/setup.sh), start `rlvr-verifier serve` on
# 127.0.0.1:${VERIFIER_PORT:-8000}, wait for /health, send demo requests, then keep serving
# in the foreground until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
port=${VERIFIER_PORT:-8000}
url="http://127.0.0.1:$port"
.venv/bin/rlvr-verifier serve --port "$port" &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT INT TERM
for _ in $(seq 1 120); do
  curl -fsS "$url/health" >/dev/null 2>&1 && break
  kill -0 $server 2>/dev/null || { echo "service failed to start" >&2; exit 1; }
  sleep 0.5
done
echo "==> GET $url/health"
curl -fsS "$url/health"; echo
echo "==> demo requests"
.venv/bin/rlvr-verifier demo --url "$url"
echo "==> service running at $url (OpenAPI: $url/docs). Ctrl-C to stop."
wait $server
