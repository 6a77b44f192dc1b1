#!/usr/bin/env bash
# gpu-pack.sh: builds, HERE, the one folder the GPU machine needs (it has no Java, no Maven, no
# network): .gpu/ (ignored by git), carried there with the device tool's `carry: [".gpu"]`.
#
#   .gpu/jre/         a jlinked runtime (java.base, jdk.unsupported, java.management, jdk.management,
#                     jdk.jfr, and what jdeps finds the jar, the test classes and the launcher need),
#                     libjvm.so's static symbol table stripped (5 MiB)
#   .gpu/gar.jar      the library and the command line (the native park library inside, extracted at run time)
#   .gpu/test-classes.jar  the compiled tests, as a jar (1.2 MB less than the folder; step 1 runs the
#                     CUDA ones against the real libcuda.so.1)
#   .gpu/cuda-tests.txt     those CUDA test classes, one a line (the GPU machine has no Java or unzip to list the jar)
#   .gpu/lib/         junit-platform-console-standalone (the JUnit launcher, no Maven there)
#   .gpu/native/      the stand-in drivers (the tests' stand-in half) and libgarpark.so
#   .gpu/PACKED       what was packed: commit, date, JDK, sizes
#   .gpu/jre/lib/server/classes.jsa.gz
#                     the runtime's CDS archive (java -Xshare:dump with the jlinked runtime), gzipped: 15 MiB
#                     raw would not fit the carry; gpu-check.sh unpacks it there
#
# Fails if what travels is over 62 MiB: the device tool's limit is 64 MiB for everything that travels
# (the working tree's tracked and untracked-not-ignored files, shared/, and the carried .gpu), and
# 2 MiB stay free for the tree's growth. Usage: scripts/gpu-pack.sh [--no-build]
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cd "$root"
. scripts/jdk25.sh
gar_find_jdk25 || exit 2
limit=$((64 * 1024 * 1024))   # the device tool's, for everything that travels
margin=$((2 * 1024 * 1024))   # kept free: the tree grows between the pack and the call
out="$root/.gpu"

if [ "${1:-}" != "--no-build" ]; then
  echo "gpu-pack: building target/gar.jar and the test classes (mvn package -DskipTests) ..."
  mvn -B -q -ntp package -DskipTests
fi
for f in target/gar.jar target/test-classes target/native/libcuda-standin.so; do
  [ -e "$f" ] || { echo "gpu-pack: FAILED: $f is missing (run without --no-build)" >&2; exit 1; }
done

# The JUnit launcher matching the project's JUnit (5.x.y -> platform 1.x.y).
junit=$(sed -n 's:.*<junit.version>\(5\.[0-9.]*\)</junit.version>.*:\1:p' pom.xml)
platform="1.${junit#5.}"
console="org.junit.platform:junit-platform-console-standalone:$platform"

rm -rf "$out"
mkdir -p "$out/lib" "$out/native"
echo "gpu-pack: $console"
mvn -B -q -ntp dependency:copy -Dartifact="$console" -DoutputDirectory="$out/lib" -Dmdep.stripVersion=true
cp target/gar.jar "$out/gar.jar"
"$JAVA_HOME/bin/jar" --create --file "$out/test-classes.jar" -C target/test-classes .
(cd target/test-classes && find dev/gpureactor/backend/cuda -maxdepth 1 -name '*Test.class' | sed 's/\.class$//; s:/:.:g' | sort) \
  > "$out/cuda-tests.txt"
[ -s "$out/cuda-tests.txt" ] || { echo "gpu-pack: FAILED: no CUDA test class in target/test-classes" >&2; exit 1; }
cp target/native/*.so "$out/native/"
# The park library for each architecture built (the jar carries them too), each in its own folder: one
# glob into one folder made the second copy fail and the message below lie.
park_found=0
for d in target/classes/native/linux-*; do
  [ -f "$d/libgarpark.so" ] || continue
  mkdir -p "$out/native/$(basename "$d")" && cp "$d/libgarpark.so" "$out/native/$(basename "$d")/" && park_found=1
done
[ "$park_found" = 1 ] || echo "gpu-pack: no libgarpark.so built (no C compiler?); the probe will say so there"

# Modules: the fixed set, plus what jdeps finds in the jar, the tests and the launcher.
fixed="java.base,jdk.unsupported,java.management,jdk.management,jdk.jfr"
# One jdeps per input, without a class path: given several inputs, or the others on -cp, jdeps 25
# left out java.xml, which the test classes alone need.
found=""
for input in "$out/gar.jar" "$out/test-classes.jar" "$out/lib/junit-platform-console-standalone.jar"; do
  found="$found,$("$JAVA_HOME/bin/jdeps" --print-module-deps --ignore-missing-deps --multi-release 25 "$input" 2>/dev/null | tail -1)"
done
modules=$(echo "$fixed,$found" | tr ',' '\n' | sed '/^$/d' | sort -u | paste -sd, -)
echo "gpu-pack: jlink --add-modules $modules"
"$JAVA_HOME/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
  --compress=zip-9 --output "$out/jre"
# libjvm.so's static symbol table: about 5 MiB of what travels, and read only by a debugger or an hs_err
# report (whose frames inside the JVM then show as offsets; the exported JVM_/JNI_ symbols stay). Before
# the CDS dump, so the archive is made by the JVM that maps it.
if command -v strip >/dev/null; then
  strip --strip-unneeded "$out/jre/lib/server/libjvm.so"
else
  echo "gpu-pack: no strip(1) here: libjvm.so travels with its symbol table" >&2
fi

# The CDS archive of the jlinked runtime (the JDK's default class list): without it every class of the
# first uses is parsed and verified, which slowed a soak's first seconds. Dumped with compressed oops,
# which gpu-check.sh keeps on (-Xmx8g) on the 128 GiB machine, where the default heap would turn them
# off and the JVM would look for the nocoops archive. Only the raw archive maps; it travels gzipped.
"$out/jre/bin/java" -Xshare:dump -XX:+UseCompressedOops -Xmx1g >/dev/null
jsa="$out/jre/lib/server/classes.jsa"
[ -f "$jsa" ] || { echo "gpu-pack: FAILED: java -Xshare:dump wrote no $jsa" >&2; exit 1; }
"$out/jre/bin/java" -Xshare:on -Xmx8g -version >/dev/null 2>&1 \
  || { echo "gpu-pack: FAILED: the jlinked runtime does not map its own CDS archive (java -Xshare:on -Xmx8g -version)" >&2; exit 1; }
jsa_raw=$(stat -c %s "$jsa")
gzip -9 -n "$jsa"

# Everything that travels with the device call: the working tree's tracked and untracked-not-ignored
# files (symbolic links as links), shared/ where there is one, and .gpu (carried).
tree_bytes() {
  git ls-files -z --cached --others --exclude-standard 2>/dev/null | xargs -0 -r stat -c %s 2>/dev/null | awk '{s += $1} END {print s + 0}'
}
tree=$(tree_bytes)
shared=0; [ -d shared ] && shared=$(du -sb shared | cut -f1)
size=$(du -sb "$out" | cut -f1)
travels=$((tree + shared + size))
{
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "packed: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m)"
  echo "jdk: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)"
  echo "modules: $modules"
  echo "junit launcher: $console"
  echo "sizes (bytes):"
  du -sb "$out"/jre "$out"/gar.jar "$out"/test-classes.jar "$out"/lib "$out"/native | sed 's:'"$out"'/::'
  echo "cds archive: $jsa_raw bytes raw, $(stat -c %s "$jsa.gz") gzipped (jre/lib/server/classes.jsa.gz)"
  echo ".gpu: $size bytes"
  echo "working tree (tracked + untracked-not-ignored): $tree bytes; shared/: $shared bytes"
  echo "travels: $travels bytes ($((travels / 1024 / 1024)) MiB); the limit is $limit bytes (64 MiB), of which 2 MiB are kept free"
} > "$out/PACKED"
cat "$out/PACKED"
if [ "$travels" -gt $((limit - margin)) ]; then
  echo "gpu-pack: FAILED: what travels is $travels bytes (.gpu $size + working tree $tree + shared/ $shared)," \
    "over $((limit - margin)) bytes (the device tool's 64 MiB less 2 MiB kept free): drop something from .gpu" \
    "or untrack large files" >&2
  exit 1
fi
echo "gpu-pack: OK: .gpu is $((size / 1024 / 1024)) MiB, everything that travels $((travels / 1024 / 1024)) MiB" \
  "($travels of $limit bytes); carry it with: carry: [\".gpu\"]"
