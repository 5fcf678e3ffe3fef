#!/usr/bin/env bash
# The GPU proof of the trainer, as ONE prepared run for a machine with one GPU and no network:
# start the verifier (math only), build a model from a config, cold-start SFT on worked
# solutions of reasoning-gym arithmetic, then GRPO; print held-out accuracy before/after each,
# GRPO step time and the share of it spent waiting for rewards; then a short tool-use run
# (GRPO with `--tools python`, rollouts calling Python sessions; needs Docker and the sandbox
# image, else recorded as skipped with the reason); results land in $OUT.
#
#   bash benchmarks/gpu_wheels.sh          # here, once: wheels + problems -> .gpu/ (git-ignored)
#   OUT=/tmp/out bash benchmarks/gpu_grpo.sh                     # on the GPU machine
#   RLVR_GPU_BENCH_TINY=1 PYTHON=.venv/bin/python bash benchmarks/gpu_grpo.sh   # CPU rehearsal
#
# Modules the machine lacks are installed from .gpu/wheels by unpacking the wheels into a
# private folder put first on PYTHONPATH (no pip, no network, nothing outside $SITE touched).
# The reasoning-gym problems are generated where reasoning-gym is installed, else read from
# .gpu/data (gpu_wheels.sh writes them there; carry `.gpu`).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
OUT="${OUT:-outputs/gpu_grpo}"
WHEELS="${RLVR_WHEELS:-.gpu/wheels}"
SITE="${RLVR_SITE:-$(mktemp -d)/site}"
mkdir -p "$OUT" "$SITE"

# module:wheel-name-prefix; a group (space-separated) is installed whole if any member is missing.
SINGLES=(
  trl:trl datasets:datasets dill:dill multiprocess:multiprocess
  fastapi:fastapi starlette:starlette annotated_doc:annotated_doc uvicorn:uvicorn h11:h11
  click:click pydantic_settings:pydantic_settings dotenv:python_dotenv
  latex2sympy2_extended:latex2sympy2_extended antlr4:antlr4_python3_runtime
  math_verify:math_verify pebble:pebble prometheus_client:prometheus_client tenacity:tenacity
  httpx:httpx httpcore:httpcore anyio:anyio idna:idna certifi:certifi
  xxhash:xxhash psutil:psutil pandas:pandas dateutil:python_dateutil pytz:pytz tzdata:tzdata
  typing_extensions:typing_extensions
)
GROUPS_=("pydantic:pydantic pydantic_core:pydantic_core annotated_types:annotated_types typing_inspection:typing_inspection")
FORCE=",${RLVR_FORCE_WHEELS:-},"

has_module() { "$PY" -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('$1') is None)" 2>/dev/null; }
unpack() {
  local prefix=$1 wheel
  wheel=$(ls "$WHEELS"/"$prefix"-[0-9]*.whl 2>/dev/null | head -1 || true)
  if [ -z "$wheel" ]; then echo "!! missing wheel for $prefix in $WHEELS (run benchmarks/gpu_wheels.sh)" >&2; return 1; fi
  "$PY" -m zipfile -e "$wheel" "$SITE"
  echo "   installed $(basename "$wheel")"
}
echo "==> modules from carried wheels (into $SITE)"
for pair in "${SINGLES[@]}"; do
  module=${pair%%:*}; prefix=${pair#*:}
  if [[ "$FORCE" == *",$module,"* ]] || ! has_module "$module"; then unpack "$prefix"; fi
done
for group in "${GROUPS_[@]}"; do
  missing=0
  for pair in $group; do has_module "${pair%%:*}" || missing=1; done
  if [ "$missing" = 1 ]; then for pair in $group; do unpack "${pair#*:}"; done; fi
done
export PYTHONPATH="$SITE:$PWD${PYTHONPATH:+:$PYTHONPATH}"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1 TOKENIZERS_PARALLELISM=false

"$PY" -c "import trl, datasets, fastapi, uvicorn, rlvr.verifier.app, rlvr_train.grpo; print('imports ok: trl', trl.__version__, 'datasets', datasets.__version__)"
"$PY" -c "import torch; print('cuda:', torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else '')"
OUT="$OUT" "$PY" -u benchmarks/gpu_grpo.py 2>&1 | tee "$OUT/log.txt" | grep --line-buffered -v -E "Warning|warnings.warn|it/s\]|^\s*$"
