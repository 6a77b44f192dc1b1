#!/usr/bin/env bash
# native/kernels: the CUDA kernels, compiled by nvcc (when present) into one fatbin with sm_90 SASS (the
# H200) and compute_90 PTX (JIT-compiled by drivers of newer GPUs), shipped in the jar as
# $1/native/kernels/gar_kernels.fatbin. Without nvcc only the fatbin is skipped, and it says so: the
# stand-in driver's tests load a fatbin only where one was built.
#   $1 = classes dir   $2 = work dir (unused)
set -euo pipefail
classes=${1:?classes dir}
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${NVCC:-}
if [ -z "$nvcc" ]; then
  for c in ${CUDA_HOME:+"$CUDA_HOME/bin/nvcc"} /usr/local/cuda/bin/nvcc "$(command -v nvcc 2>/dev/null || true)"; do
    if [ -n "$c" ] && [ -x "$c" ]; then nvcc=$c; break; fi
  done
fi
out=$classes/native/kernels/gar_kernels.fatbin
if [ -z "$nvcc" ]; then
  echo "native/kernels: SKIPPED: no nvcc (set CUDA_HOME or NVCC); the jar has no kernel fatbin, gar demo --backend cuda uses host functions"
  exit 0
fi
mkdir -p "$(dirname "$out")"
if [ -f "$out" ] && [ "$out" -nt "$here/gar_kernels.cu" ] && [ "$out" -nt "$here/build.sh" ]; then
  echo "native/kernels: $out is up to date"
  exit 0
fi
tmp=$(mktemp "${TMPDIR:-/tmp}/gar-kernels.XXXXXX")
trap 'rm -f "$tmp"' EXIT
"$nvcc" -fatbin -O3 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 \
  -o "$tmp" "$here/gar_kernels.cu"
mv -f "$tmp" "$out"
echo "native/kernels: built $out ($(wc -c < "$out") bytes, sm_90 + compute_90 PTX) with $("$nvcc" --version | tail -n 2 | head -n 1)"
