#!/usr/bin/env bash
# Build a wheelhouse on the host for image builds, and optionally serve it over plain HTTP.
#
# Why: on machines whose containers do not trust the host's TLS chain (CI here), `pip install`
# inside `docker build` cannot reach PyPI. The host can, so it builds every wheel an image needs;
# the image then installs with `PIP_INSTALL_ARGS="--no-index --find-links http://127.0.0.1:PORT/"`
# (the build runs with `--network host`). Real users skip all this: the Dockerfiles' default is a
# plain `pip install` from PyPI.
#
# Usage: wheelhouse.sh DIR EXTRA [MORE_REQUIREMENTS...]    e.g. wheelhouse.sh build/wheels/verifier verifier
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$1
extra=$2
shift 2
python=${PYTHON:-.venv/bin/python}
mkdir -p "$dir"
# setuptools/wheel: the isolated build of our own package inside the image needs them offline too.
"$python" -m pip wheel -q --disable-pip-version-check -w "$dir" \
  "setuptools>=68" wheel ".[$extra]" "$@" 2>&1 | grep -v "is ignored" || true
# Our own wheel is rebuilt from source in the image; a stale copy here would only confuse.
rm -f "$dir"/rlvr-*.whl
count=$(find "$dir" -name '*.whl' | wc -l)
if [ "$count" -lt 3 ]; then
  echo "wheelhouse $dir: only $count wheels built" >&2
  exit 1
fi
echo "wheelhouse $dir: $count wheels, $(du -sh "$dir" | cut -f1)"
