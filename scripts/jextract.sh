#!/usr/bin/env bash
# Generates the FFM bindings of the native libraries with jextract, into one package per library:
#   dev.gpureactor.park.ffi          from native/ffi/garpark_ffi.h (the park library's functions and constants)
#   dev.gpureactor.backend.cuda.ffi  from native/ffi/cuda_ffi.h over cuda.h ($CUDA_HOME/include, /usr/local/cuda/include)
#   dev.gpureactor.backend.hip.ffi   from native/ffi/hip_ffi.h over hip_runtime_api.h (apt-get install libamdhip64-dev)
# Each generated file starts with a line naming the jextract version and the command, and its class is
# marked @SuppressWarnings("restricted") (the only change to jextract's output).
#
#   scripts/jextract.sh           regenerate into src/main/java (commit the result)
#   scripts/jextract.sh --check   regenerate into a temporary folder and fail on any difference (CI)
#
# jextract: $JEXTRACT, else ../shared/tools/jextract/jextract beside the repository (as on the project's
# machines), else `jextract` on PATH. Run as root it installs libclang the first time (a while).
# Library lookup stays at run time: the headers declare function-POINTER typedefs, for which jextract
# generates the exact descriptor and an invoke(address, ...) with no symbol lookup; the typed layer
# (park.NativePark) supplies each address from the library NativeLoader loaded. No -l is passed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

mode=write
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  *) echo "usage: scripts/jextract.sh [--check]" >&2; exit 2 ;;
esac

jx=${JEXTRACT:-}
if [ -z "$jx" ] && [ -x "$root/../shared/tools/jextract/jextract" ]; then jx=$root/../shared/tools/jextract/jextract; fi
if [ -z "$jx" ] && command -v jextract >/dev/null 2>&1; then jx=$(command -v jextract); fi
if [ -z "$jx" ]; then
  echo "jextract.sh: no jextract: set JEXTRACT=/path/to/jextract, or put jextract on PATH" >&2
  echo "jextract.sh: (the committed bindings build without it; only regenerating and --check need it)" >&2
  exit 2
fi
version=$("$jx" --version 2>&1 | awk '/^jextract/{j=$2} /^LibClang version/{sub(/.*clang version /,""); l=$1} END{print "jextract " j " (libclang " l ")"}')

# One library: package, header, header class, then the --include-* options.
park_opts=(
  -t dev.gpureactor.park.ffi --header-class-name garpark_ffi_h
  --include-typedef garpark_abi_version_fn --include-typedef garpark_probe_fn --include-typedef garpark_park_fn
  --include-typedef garpark_differs_fn --include-typedef garpark_ticks_fn
  --include-constant GARPARK_ABI_VERSION
  --include-constant GARPARK_NONE --include-constant GARPARK_UMWAIT --include-constant GARPARK_MWAITX
  --include-constant GARPARK_WFE --include-constant GARPARK_WFET
  --include-constant GARPARK_BOUND --include-constant GARPARK_CHANGED
  --include-constant GARPARK_REFUSED --include-constant GARPARK_BAD_ARG
  native/ffi/garpark_ffi.h
)

cuda_inc=""
for d in ${CUDA_HOME:+"$CUDA_HOME/include"} /usr/local/cuda/include /usr/include; do
  if [ -f "$d/cuda.h" ]; then cuda_inc=$d; break; fi
done
[ -n "$cuda_inc" ] || { echo "jextract.sh: no cuda.h (set CUDA_HOME, or install the CUDA toolkit headers)" >&2; exit 2; }
[ -f /usr/include/hip/hip_runtime_api.h ] || { echo "jextract.sh: no /usr/include/hip/hip_runtime_api.h (apt-get install libamdhip64-dev)" >&2; exit 2; }

# Only the entry points each typed layer binds (CudaDriver.functions(), HipRuntime.functions()).
cuda_opts=(
  -t dev.gpureactor.backend.cuda.ffi --header-class-name cuda_ffi_h -I "$cuda_inc"
  --include-typedef cuInit_fn --include-typedef cuDriverGetVersion_fn --include-typedef cuGetErrorName_fn
  --include-typedef cuGetErrorString_fn --include-typedef cuDeviceGetCount_fn
  --include-typedef cuDeviceGet_fn --include-typedef cuDeviceGetName_fn
  --include-typedef cuDeviceGetAttribute_fn --include-typedef cuDevicePrimaryCtxRetain_fn
  --include-typedef cuDevicePrimaryCtxRelease_v2_fn --include-typedef cuDevicePrimaryCtxSetFlags_v2_fn
  --include-typedef cuCtxCreate_v4_fn
  --include-typedef cuCtxDestroy_v2_fn --include-typedef cuCtxGetCurrent_fn
  --include-typedef cuCtxSetCurrent_fn --include-typedef cuCtxPushCurrent_v2_fn
  --include-typedef cuCtxPopCurrent_v2_fn --include-typedef cuCtxGetDevice_fn
  --include-typedef cuMemHostAlloc_fn --include-typedef cuMemHostGetDevicePointer_v2_fn
  --include-typedef cuMemFreeHost_fn --include-typedef cuStreamCreate_fn
  --include-typedef cuStreamDestroy_v2_fn --include-typedef cuStreamGetCtx_fn
  --include-typedef cuStreamQuery_fn --include-typedef cuStreamSynchronize_fn
  --include-typedef cuMemsetD8Async_fn --include-typedef cuLaunchHostFunc_fn
  --include-typedef cuModuleLoadData_fn --include-typedef cuModuleUnload_fn
  --include-typedef cuModuleGetFunction_fn --include-typedef cuLaunchKernel_fn --include-typedef cuStreamWriteValue64_v2_fn
  --include-typedef cuStreamWaitValue64_v2_fn
  --include-constant CUDA_SUCCESS --include-constant CUDA_ERROR_INVALID_VALUE
  --include-constant CUDA_ERROR_OUT_OF_MEMORY --include-constant CUDA_ERROR_NOT_INITIALIZED
  --include-constant CUDA_ERROR_INVALID_CONTEXT --include-constant CUDA_ERROR_NOT_READY
  --include-constant CUDA_ERROR_LAUNCH_FAILED --include-constant CUDA_ERROR_NOT_SUPPORTED --include-constant CUDA_ERROR_NO_BINARY_FOR_GPU
  --include-constant CU_MEMHOSTALLOC_PORTABLE --include-constant CU_MEMHOSTALLOC_DEVICEMAP
  --include-constant CU_MEMHOSTALLOC_WRITECOMBINED
  --include-constant CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1
  --include-constant CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1
  --include-constant CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS --include-constant CU_STREAM_DEFAULT
  --include-constant CU_STREAM_NON_BLOCKING --include-constant CU_STREAM_WRITE_VALUE_DEFAULT
  --include-constant CU_STREAM_WAIT_VALUE_GEQ --include-constant CU_CTX_SCHED_AUTO --include-constant CU_CTX_SCHED_SPIN
  --include-constant CU_CTX_SCHED_YIELD --include-constant CU_CTX_SCHED_BLOCKING_SYNC
  native/ffi/cuda_ffi.h
)
hip_opts=(
  -t dev.gpureactor.backend.hip.ffi --header-class-name hip_ffi_h -D__HIP_PLATFORM_AMD__
  --include-typedef hipInit_fn --include-typedef hipDriverGetVersion_fn --include-typedef hipGetErrorName_fn
  --include-typedef hipGetErrorString_fn --include-typedef hipGetDeviceCount_fn
  --include-typedef hipGetDevice_fn --include-typedef hipSetDevice_fn --include-typedef hipDeviceGet_fn
  --include-typedef hipDeviceGetName_fn --include-typedef hipDevicePrimaryCtxRetain_fn
  --include-typedef hipDevicePrimaryCtxRelease_fn --include-typedef hipHostMalloc_fn
  --include-typedef hipHostGetDevicePointer_fn --include-typedef hipHostFree_fn
  --include-typedef hipStreamCreate_fn --include-typedef hipStreamDestroy_fn
  --include-typedef hipStreamGetDevice_fn --include-typedef hipStreamQuery_fn
  --include-typedef hipStreamSynchronize_fn --include-typedef hipStreamWriteValue64_fn
  --include-typedef hipMemsetD8Async_fn --include-typedef hipLaunchHostFunc_fn
  --include-constant hipSuccess --include-constant hipErrorInvalidValue
  --include-constant hipErrorOutOfMemory --include-constant hipErrorNoDevice
  --include-constant hipErrorNotReady --include-constant hipErrorLaunchFailure
  --include-constant hipHostMallocPortable --include-constant hipHostMallocMapped
  --include-constant hipHostMallocWriteCombined --include-constant hipHostMallocCoherent
  --include-constant hipHostMallocNonCoherent
  native/ffi/hip_ffi.h
)

# generate <out dir> <package dir> <options...>: runs jextract, then stamps every file with the command.
generate() {
  local out=$1 pkgdir=$2; shift 2
  "$jx" --output "$out" "$@"
  local stamp="// Generated by $version through scripts/jextract.sh; do not edit. Command: jextract --output src/main/java $*"
  local f
  # The one edit: each top-level class is marked @SuppressWarnings("restricted") (linking is what
  # generated code is for), so the build's -Xlint:all stays quiet.
  for f in "$out/$pkgdir"/*.java; do
    { echo "$stamp"; sed -E 's/^((public )?(final )?class [A-Za-z_$0-9]+)/@SuppressWarnings("restricted")\n\1/' "$f"; } > "$f.tmp" && mv "$f.tmp" "$f"
  done
}

libs=("dev/gpureactor/park/ffi" "dev/gpureactor/backend/cuda/ffi" "dev/gpureactor/backend/hip/ffi")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gar-jextract.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
generate "$tmp" "dev/gpureactor/park/ffi" "${park_opts[@]}"
generate "$tmp" "dev/gpureactor/backend/cuda/ffi" "${cuda_opts[@]}"
generate "$tmp" "dev/gpureactor/backend/hip/ffi" "${hip_opts[@]}"

status=0
for pkg in "${libs[@]}"; do
  committed=src/main/java/$pkg
  if [ "$mode" = check ]; then
    if ! diff -r -u --exclude=package-info.java "$committed" "$tmp/$pkg"; then
      echo "jextract.sh --check: $committed differs from what $version generates; run scripts/jextract.sh and commit" >&2
      status=1
    else
      echo "jextract.sh --check: $committed matches $version"
    fi
  else
    mkdir -p "$committed"
    find "$committed" -maxdepth 1 -name '*.java' ! -name package-info.java -delete
    cp "$tmp/$pkg"/*.java "$committed/"
    echo "jextract.sh: wrote $committed ($(ls "$tmp/$pkg" | wc -l) files, $version)"
  fi
done
exit $status
