#!/usr/bin/env bash
# Builds the stand-in CUDA and HIP drivers (test-only: they go to the work dir, never into the jar).
#   $1 = classes dir (unused: nothing here ships)   $2 = work dir (target/native)
# Produces $2/libcuda-standin.so, $2/libcuda-standin-nov2.so (no cuStreamWriteValue64_v2) and
# $2/libamdhip64-standin.so. Where a real cuda.h is found (CUDA_HOME, /usr/local/cuda, /usr/include),
# standin_cuda.h is also checked against it: every entry point must be declared there, and with the
# same prototype.
set -euo pipefail
work=${2:?work dir}
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}
flags=(-O2 -std=c11 -fPIC -Wall -Wextra -Werror -pthread -fvisibility=hidden)
link=(-shared -pthread -Wl,-Bsymbolic -Wl,--no-undefined)
mkdir -p "$work"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gar-standin.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$cc" "${flags[@]}" -c "$here/standin_core.c" -o "$tmp/core.o"
"$cc" "${flags[@]}" -c "$here/standin_cuda.c" -o "$tmp/cuda.o"
"$cc" "${flags[@]}" -DGAR_STANDIN_NO_V2 -c "$here/standin_cuda.c" -o "$tmp/cuda-nov2.o"
"$cc" "${flags[@]}" -c "$here/standin_hip.c" -o "$tmp/hip.o"
"$cc" "${link[@]}" "$tmp/core.o" "$tmp/cuda.o" -o "$tmp/libcuda-standin.so"
"$cc" "${link[@]}" "$tmp/core.o" "$tmp/cuda-nov2.o" -o "$tmp/libcuda-standin-nov2.so"
"$cc" "${link[@]}" "$tmp/core.o" "$tmp/hip.o" -o "$tmp/libamdhip64-standin.so"
# Replace atomically: a running test JVM may have the old ones mapped.
for lib in libcuda-standin.so libcuda-standin-nov2.so libamdhip64-standin.so; do
  mv -f "$tmp/$lib" "$work/$lib"
done
echo "native/standin: built $work/libcuda-standin.so, libcuda-standin-nov2.so, libamdhip64-standin.so"

# The jextract inputs (native/ffi/*_ffi.h, scripts/jextract.sh): each function-pointer typedef must be
# its function's exact type in the vendor's own header, where that header is here.
if [ -f /usr/include/hip/hip_runtime_api.h ]; then
  "$cc" "${flags[@]}" -D__HIP_PLATFORM_AMD__ -DGAR_FFI_CHECK -fsyntax-only -x c "$here/../ffi/hip_ffi.h"
  echo "native/standin: native/ffi/hip_ffi.h agrees with /usr/include/hip/hip_runtime_api.h"
else
  echo "native/standin: no hip_runtime_api.h (apt-get install libamdhip64-dev); native/ffi/hip_ffi.h not checked"
fi

cuda_h=""
for dir in ${CUDA_HOME:+"$CUDA_HOME/include"} /usr/local/cuda/include /usr/include; do
  if [ -f "$dir/cuda.h" ]; then cuda_h=$dir; break; fi
done
if [ -z "$cuda_h" ]; then
  echo "native/standin: no cuda.h found; signatures not checked against NVIDIA's header (the Java header test still runs)"
  exit 0
fi
# 1. every cu* entry point of the stand-in header is declared by cuda.h (as itself or through its macros)
names=$(sed -n 's/^GAR_API [^(]*[ *]\(cu[A-Za-z0-9_]*\)(.*/\1/p' "$here/standin_cuda.h")
{
  echo '#include <cuda.h>'
  echo 'typedef void (*gar_fn)(void);'
  echo 'gar_fn gar_declared_by_cuda_h[] = {'
  for n in $names; do echo "  (gar_fn) $n,"; done
  echo '};'
} > "$tmp/declared.c"
"$cc" "${flags[@]}" -I"$cuda_h" -fsyntax-only "$tmp/declared.c"
# 2. the prototypes agree: re-declaring with a different one is a compile error
"$cc" "${flags[@]}" -I"$cuda_h" -fsyntax-only "$here/sigcheck_cuda.c"
echo "native/standin: standin_cuda.h agrees with $cuda_h/cuda.h ($(echo $names | wc -w) entry points)"
"$cc" "${flags[@]}" -I"$cuda_h" -DGAR_FFI_CHECK -fsyntax-only -x c "$here/../ffi/cuda_ffi.h"
echo "native/standin: native/ffi/cuda_ffi.h agrees with $cuda_h/cuda.h"
