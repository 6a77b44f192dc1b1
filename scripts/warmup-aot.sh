#!/usr/bin/env bash
# Warm-up from a cold JVM, and what JDK 25's ahead-of-time cache adds (JEP 483, 514, 515).
#
# For each mode, three fresh JVMs serve the service benchmark's warm-up profile (512 clients, 20 s,
# per-second wake p50 and handlers woken per second, "steady after N s"): cold; a training run that
# writes an AOT cache (-XX:AOTCacheOutput: classes loaded and linked, and method profiles); and a run
# from that cache (-XX:AOTCache). The main cell is 0.1 s at one client, so the profile starts in a
# nearly cold JVM. Usage: scripts/warmup-aot.sh [OUT_DIR] [MODE ...]   (default modes: reactor watcher)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/warmup-aot}
shift || true
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(reactor watcher)
mkdir -p "$out"
args=(service --clients=1 --rounds=1 --prewarm=0s --warmup=0s --window=100ms --warmup-profile --profile-clients=512 --quiet)
for m in "${modes[@]}"; do
  tag=${m//[^A-Za-z0-9]/_}
  echo "== $m: cold JVM"
  GAR_JAVA_OPTS="" ./gar "${args[@]}" --modes="$m" --json="$out/$tag-cold.json" | sed -n '/Warm-up profile/,$p'
  echo "== $m: training run, writing $out/$tag.aot"
  GAR_JAVA_OPTS="-XX:AOTCacheOutput=$out/$tag.aot" ./gar "${args[@]}" --modes="$m" --json="$out/$tag-train.json" \
    | sed -n '/Warm-up profile/,$p' | grep -v '\[warning\]\[aot\]' # the JVM lists each class it leaves out of the cache
  echo "== $m: from the AOT cache"
  GAR_JAVA_OPTS="-XX:AOTCache=$out/$tag.aot" ./gar "${args[@]}" --modes="$m" --json="$out/$tag-aot.json" | sed -n '/Warm-up profile/,$p'
done
