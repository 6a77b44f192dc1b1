#!/usr/bin/env bash
# Builds native/: every native/<part>/build.sh is called with
#   $1 = the classes dir (libraries shipped in the jar go under $1/native/<os>-<arch>/)
#   $2 = the work dir target/native (test-only libraries and C test binaries)
# Parts: park/ (the hardware park, shipped) and standin/ (stand-in CUDA/HIP drivers, tests only).
# With no C compiler nothing is built, the build goes on, and the pure-Java fallback runs.
set -euo pipefail
classes=${1:?classes dir}; work=${2:?work dir}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$classes" "$work"
if ! command -v "${CC:-cc}" >/dev/null 2>&1; then
  echo "native: no C compiler (${CC:-cc}); skipping native/, the pure-Java fallback will run" >&2
  exit 0
fi
for part in "$here"/*/build.sh; do
  [ -f "$part" ] || continue
  echo "native: $(basename "$(dirname "$part")")"
  bash "$part" "$classes" "$work"
done
