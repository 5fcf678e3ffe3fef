#!/usr/bin/env bash
# Set up from scratch (scripts/setup.sh), then run the whole test suite with pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest "$@"
