#!/usr/bin/env bash
# native/park: builds libgarpark.so (the hardware park) and runs its C tests.
#   $1 = classes dir: ships $1/native/linux-<arch>/libgarpark.so and its .sha256 (the loader checks it)
#   $2 = work dir (target/native): objects, C test binaries, logs under $2/park/
# A failing C test fails the build. Where gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and qemu-user are
# installed it also cross-builds the aarch64 park, ships it as native/linux-aarch64/, and runs its C test
# under qemu-aarch64; otherwise it says "SKIPPED: ...". Sources unchanged since the last passing run:
# nothing is rebuilt, and it says so.
set -euo pipefail
classes=${1:?classes dir}; work=${2:?work dir}
here=$(cd "$(dirname "$0")" && pwd)
out=$work/park
mkdir -p "$out"

if [ "$(uname -s)" != Linux ]; then
  echo "native park: SKIPPED: $(uname -s) is not Linux; the pure-Java fallback will run"
  exit 0
fi

CC=${CC:-cc}
CFLAGS=(-O2 -std=c11 -fPIC -Wall -Wextra -Werror -fvisibility=hidden)
LDFLAGS=(-Wl,-z,noexecstack)
# The jextract input's function-pointer typedefs must be the functions' exact types (scripts/jextract.sh).
"$CC" "${CFLAGS[@]}" -DGARPARK_FFI_CHECK -fsyntax-only -x c "$here/../ffi/garpark_ffi.h"

sources=("$here/garpark.c" "$here/garpark.h" "$here/test_garpark.c" "$here/build.sh")

# Builds one arch: lib into the jar folder, test binary into $out; runs the test with the given runner.
#   build_arch <arch> <cc> <runner...>
build_arch() {
  local arch=$1 cc=$2; shift 2
  local jar_dir=$classes/native/linux-$arch
  local lib=$out/$arch/libgarpark.so test=$out/$arch/test_garpark log=$out/$arch/test.log
  mkdir -p "$out/$arch" "$jar_dir"
  "$cc" "${CFLAGS[@]}" -shared -pthread "${LDFLAGS[@]}" -o "$lib" "$here/garpark.c"
  "$cc" "${CFLAGS[@]}" -pthread -o "$test" "$here/test_garpark.c"
  echo "native park: C test ($arch${1:+, under $*})"
  if ! "$@" "$test" >"$log" 2>&1; then
    cat "$log" >&2
    echo "native park: FAILED: C test for $arch (log: $log)" >&2
    exit 1
  fi
  cat "$log"
  cp "$lib" "$jar_dir/libgarpark.so"
  (cd "$jar_dir" && sha256sum libgarpark.so | cut -d' ' -f1 >libgarpark.so.sha256)
}

host_arch=$(uname -m)
case "$host_arch" in
  x86_64|aarch64) ;;
  *) echo "native park: SKIPPED: no park for $host_arch; the pure-Java fallback will run"; exit 0 ;;
esac

stamp=$out/passed.stamp
# What the stamp vouches for: the compiler, and whether the emulated aarch64 test could run.
stamp_text="$("$CC" --version | head -1); cross=$(command -v aarch64-linux-gnu-gcc qemu-aarch64 | tr '\n' ' ' || true)"
newest_src=$(ls -t "${sources[@]}" | head -1)
if [ -f "$stamp" ] && [ "$stamp" -nt "$newest_src" ] && [ -f "$classes/native/linux-$host_arch/libgarpark.so" ] \
   && [ "$(cat "$stamp")" = "$stamp_text" ]; then
  echo "native park: up to date (sources unchanged since the C tests last passed; $stamp)"
  exit 0
fi
rm -f "$stamp"

build_arch "$host_arch" "$CC"

# The aarch64 park, cross-built and run under qemu (from an x86-64 host).
if [ "$host_arch" = x86_64 ]; then
  missing=()
  command -v aarch64-linux-gnu-gcc >/dev/null || missing+=(gcc-aarch64-linux-gnu)
  [ -d /usr/aarch64-linux-gnu/lib ] || missing+=(libc6-dev-arm64-cross)
  command -v qemu-aarch64 >/dev/null || missing+=(qemu-user)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "native park: SKIPPED: aarch64 park cross-build and emulated test (missing: ${missing[*]}; apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)"
  else
    # qemu advertises neither FEAT_WFxT nor the event stream, so the probe refuses there; the test drives
    # the ldxr + wfe loop itself (qemu runs wfe as a no-op, so the loop's logic, not its power, is tested).
    GARPARK_TEST_FORCE_WFE=1 build_arch aarch64 aarch64-linux-gnu-gcc qemu-aarch64 -L /usr/aarch64-linux-gnu
  fi
fi

echo "$stamp_text" >"$stamp"
