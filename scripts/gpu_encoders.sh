#!/usr/bin/env bash
# The encoders' speed on a GPU, spaCy's `spacy.MaxoutWindowEncoder.v2` against ours and the
# attention encoder of configs/ner_attention.cfg (predict and training-step words/s, whole
# tok2vec too), for a lent machine that reaches no package registry.
#
# Here, where pip reaches the package index, from the repository's root:
#     bash scripts/gpu_encoders.sh pack
#   makes .gpu/site.tar.xz (git ignores .gpu/): spaCy and the packages it needs that the
#   GPU machine's image lacks, at this virtual environment's versions, built for that
#   machine's Python (PYVER, 3.12), their compiled libraries stripped of debug symbols
#   (about 13 MB, where the wheels take 58 MB of the 64 MiB a call may carry).
# There, with the device tool (carry [".gpu"], well under 5 minutes on an H200):
#     bash scripts/gpu_encoders.sh run
#   unpacks it, installs this repository (no dependencies, no network), prints the machine,
#   then runs `benchmark encoders --gpu-id 0 --attention` and a short `benchmark attention
#   --gpu-id 0`, writing their tables, JSON and PNG to $OUT (or .gpu/out).
set -euo pipefail
cd "$(dirname "$0")/.."
PYVER=${PYVER:-3.12}
# spaCy, thinc and what they import, beyond the GPU image's packages (torch, numpy, numba,
# scipy, typer, click, tqdm, requests, jinja2, httpx, matplotlib are there).
PACKAGES="spacy thinc cymem preshed murmurhash blis srsly catalogue confection wasabi weasel
spacy-legacy spacy-loggers pydantic pydantic-core annotated-types typing-inspection cloudpathlib
smart-open wrapt"

pack() {
  local python=${PYTHON:-.venv/bin/python} pins=() name version
  for name in $PACKAGES; do
    version=$("$python" -m pip show "$name" 2>/dev/null | awk '/^Version:/ {print $2}')
    [ -n "$version" ] || { echo "$name is not installed in $python's environment" >&2; exit 1; }
    pins+=("$name==$version")
  done
  rm -rf .gpu/wheels .gpu/site && mkdir -p .gpu/wheels
  local platform=(--python-version "$PYVER" --implementation cp --only-binary=:all:
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_24_x86_64
    --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform manylinux1_x86_64)
  "$python" -m pip download -q --no-deps "${platform[@]}" -d .gpu/wheels "${pins[@]}"
  "$python" -m pip install -q --no-deps --no-index --no-compile --target .gpu/site "${platform[@]}" .gpu/wheels/*.whl
  find .gpu/site -name '*.so' -exec strip --strip-unneeded {} +
  rm -rf .gpu/site/*/tests .gpu/site/bin
  tar -C .gpu/site -cJf .gpu/site.tar.xz .
  rm -rf .gpu/wheels .gpu/site
  ls -l .gpu/site.tar.xz
}

run() {
  # PY: the Python that holds PyTorch (the image's python3); GPU_ID: the GPU (-1 tries it on the CPU).
  local out=${OUT:-.gpu/out} start=$SECONDS py=${PY:-python3} gpu=${GPU_ID:-0}
  mkdir -p "$out" /tmp/site /tmp/seqkit
  tar -C /tmp/site -xJf .gpu/site.tar.xz
  export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
  # This repository, with its entry points (spaCy finds our architectures through them).
  "$py" -m pip install -q --no-deps --no-index --no-build-isolation --target /tmp/seqkit .
  export PYTHONPATH=/tmp/seqkit:/tmp/site
  "$py" - "$gpu" <<'EOF' 2>&1 | tee "$out/machine.txt"
import platform, sys, spacy, thinc, torch
gpu = int(sys.argv[1])
device = torch.cuda.get_device_name(gpu) if gpu >= 0 else "CPU"
print(f"device: {device}; torch {torch.__version__} (CUDA {torch.version.cuda}); "
      f"spaCy {spacy.__version__}, thinc {thinc.__version__}, Python {platform.python_version()}")
EOF
  echo "installed in $((SECONDS - start)) s"
  "$py" -m spacy_seqkit benchmark encoders --gpu-id "$gpu" --attention --threads 1 --repeats 5 ${ENCODER_ARGS:-} \
    -o "$out" 2>&1 | tee "$out/encoders_gpu.txt"
  "$py" -m spacy_seqkit benchmark attention --gpu-id "$gpu" --threads 1 --lengths 32,512,8192 ${ATTENTION_ARGS:-} \
    -o "$out" 2>&1 | tee "$out/attention_gpu.txt"
  echo "done in $((SECONDS - start)) s"
}

case "${1:-}" in
  pack) pack ;;
  run) run ;;
  *) echo "usage: bash scripts/gpu_encoders.sh pack|run" >&2; exit 2 ;;
esac
