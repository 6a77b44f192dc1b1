#!/usr/bin/env bash
# gpu-check.sh: the GPU run of docs/GPU.md, on the machine with the GPU, from the repository root,
# with .gpu/ (scripts/gpu-pack.sh) carried. No build, no network, no Java but .gpu/jre.
#
#   (0) host facts        lscpu, /proc/cpuinfo flags, nvidia-smi
#   (1) CUDA tests        the JUnit console launcher over the packed test classes, package
#                         dev.gpureactor.backend.cuda: stand-in half and real-libcuda.so.1 half
#   (2) park probe        gar probe --json, compared with /proc/cpuinfo (waitpkg, monitorx)
#   (3) wake              gar gpu-bench --step wake: store -> waiter running, five waiters, one run
#   (4) round trip        gar gpu-bench --step rtt: RTT/2 through a parked virtual thread
#   (5) soak              gar soak on the SIMULATED device (it has no CUDA backend), with this host's park
#
# Each step runs under its own `timeout` (budgets below add up to 430 s, under 8 minutes); a step
# that fails or times out is recorded and the next one runs. At most 8 files are written under $OUT:
#   gpu-check.log summary.txt host.txt cuda-tests.xml probe.json wake.json rtt.json soak.json
# The summary is printed last.
#
# GAR_GPU_DRY_RUN=1 runs the same steps against the stand-in CUDA driver (.gpu/native/
# libcuda-standin.so) with fewer iterations: every number is then labelled "stand-in".
# Exit status: 0 when every step passed, 1 otherwise.
set -uo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cd "$root"
: "${OUT:?gpu-check: set OUT to the folder for the results}"
mkdir -p "$OUT"
G="$root/.gpu"
dry=${GAR_GPU_DRY_RUN:-0}
log="$OUT/gpu-check.log"
summary="$OUT/summary.txt"
: > "$log"
if [ "$dry" = 1 ]; then
  label="stand-in"
  cuda=(-Dgar.cuda.library="$G/native/libcuda-standin.so")
  iters=(--iterations 200 --warmup 20); rtt_iters=(--iterations 300 --warmup 30)
  soak=(--futures 3000 --seconds 8 --rounds 10)
  budget_tests=150 budget_probe=30 budget_wake=90 budget_rtt=60 budget_soak=60
else
  label="gpu"
  cuda=()
  iters=(--iterations 2000 --warmup 200); rtt_iters=(--iterations 5000 --warmup 500)
  soak=(--futures 50000 --seconds 40 --rounds 10)
  budget_tests=150 budget_probe=30 budget_wake=90 budget_rtt=60 budget_soak=90
fi
java="$G/jre/bin/java"
# The park library is extracted from the jar at run time: into a fresh folder, whatever $HOME is there.
cache=$(mktemp -d)
jflags=(--enable-native-access=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED -Dgar.native.cache="$cache")
steps=()   # "name|rc|seconds|budget" per step

say() { echo "gpu-check: $*" | tee -a "$log"; }

# run_step NAME BUDGET_S OUTFILE(or -) CMD...: stdout to OUTFILE (or the log), stderr to the log.
run_step() {
  local name=$1 budget=$2 out=$3; shift 3
  say "---- $name (budget ${budget}s): $*"
  local t0=$SECONDS rc
  if [ "$out" = - ]; then
    timeout -k 5 "$budget" "$@" >> "$log" 2>&1; rc=$?
  else
    timeout -k 5 "$budget" "$@" > "$out" 2>> "$log"; rc=$?
  fi
  local dt=$((SECONDS - t0))
  [ $rc = 124 ] || [ $rc = 137 ] && say "$name: TIMED OUT after ${budget}s"
  say "$name: exit $rc in ${dt}s"
  steps+=("$name|$rc|$dt|$budget")
  return 0
}

if [ ! -x "$java" ] || [ ! -f "$G/gar.jar" ]; then
  say "FAILED: $G is missing or incomplete: run scripts/gpu-pack.sh here and carry .gpu"
  echo "gpu-check: no .gpu folder; nothing ran" > "$summary"
  cat "$summary"
  exit 1
fi
say "label: $label; $(cat "$G/PACKED" 2>/dev/null | head -1); started $(date -u +%Y-%m-%dT%H:%M:%SZ)"

# (0) host facts
host_facts() {
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "label: $label"
  echo "kernel: $(uname -srm)"
  echo "cpu: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"
  echo "cores: $(nproc)"
  echo "cpuinfo flags of interest: $(grep -m1 -ow -E 'waitpkg|monitorx|mwaitx|constant_tsc|nonstop_tsc' /proc/cpuinfo | sort -u | paste -sd' ' -)"
  echo "aarch64 features: $(grep -m1 -i '^Features' /proc/cpuinfo | grep -ow -E 'wfxt|sev|sevl' | paste -sd' ' -)"
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.max.sm --format=csv,noheader 2>&1
  else
    echo "nvidia-smi: not found"
  fi
  ls -l /usr/lib/x86_64-linux-gnu/libcuda.so.1 /usr/lib64/libcuda.so.1 2>/dev/null
  echo "--- .gpu/PACKED"
  cat "$G/PACKED"
}
export -f host_facts
export G label
run_step "host" 10 "$OUT/host.txt" bash -c host_facts

# (1) the CUDA tests, both halves; the real half skips with its reason where there is no libcuda.so.1
junit_tmp=$(mktemp -d)
run_step "cuda-tests" "$budget_tests" - "$java" "${jflags[@]}" -Dgar.native.dir="$G/native" \
  -jar "$G/lib/junit-platform-console-standalone.jar" execute --disable-banner --disable-ansi-colors --details=tree \
  --class-path "$G/gar.jar:$G/test-classes" --select-package dev.gpureactor.backend.cuda --reports-dir "$junit_tmp"
cp "$junit_tmp"/TEST-junit-jupiter.xml "$OUT/cuda-tests.xml" 2>/dev/null || say "cuda-tests: no JUnit report"
rm -rf "$junit_tmp"

# (2) the park probe
run_step "probe" "$budget_probe" "$OUT/probe.json" "$java" "${jflags[@]}" ${cuda[@]+"${cuda[@]}"} -jar "$G/gar.jar" probe --json

# (3) and (4): gar gpu-bench
run_step "wake" "$budget_wake" "$OUT/wake.json" "$java" "${jflags[@]}" ${cuda[@]+"${cuda[@]}"} -jar "$G/gar.jar" \
  gpu-bench --step wake "${iters[@]}" --delay-us 500 --timeout-ms 5000 --json
run_step "rtt" "$budget_rtt" "$OUT/rtt.json" "$java" "${jflags[@]}" ${cuda[@]+"${cuda[@]}"} -jar "$G/gar.jar" \
  gpu-bench --step rtt "${rtt_iters[@]}" --timeout-ms 5000 --json

# (5) the soak, on the simulated device
run_step "soak (sim device)" "$budget_soak" "$OUT/soak.json" "$java" "${jflags[@]}" -jar "$G/gar.jar" soak "${soak[@]}" --json

# ------------------------------------------------------------------ the summary
num() { grep -o "\"$1\":[0-9]*" | head -1 | cut -d: -f2; }
us() { awk -v n="${1:-}" 'BEGIN { if (n == "") print "-"; else printf "%.1f", n / 1000 }'; }
{
  echo "GPU check ($label)  $(date -u +%Y-%m-%dT%H:%M:%SZ)  $(sed -n 's/^cpu: //p' "$OUT/host.txt"), $(nproc) cores"
  [ "$label" = stand-in ] && echo "STAND-IN DRIVER: every number below is the stand-in's, not a GPU's"
  sed -n '/^[^:]*, [0-9.]*, /p' "$OUT/host.txt" | head -1 | sed 's/^/gpu: /'
  echo
  printf '%-20s %5s %8s  %s\n' step exit seconds status
  failed=0
  for s in "${steps[@]}"; do
    IFS='|' read -r name rc dt budget <<< "$s"
    status=ok
    [ "$rc" != 0 ] && status=FAILED && failed=1
    { [ "$rc" = 124 ] || [ "$rc" = 137 ]; } && status="TIMED OUT (${budget}s)"
    printf '%-20s %5s %8s  %s\n' "$name" "$rc" "$dt" "$status"
  done
  echo
  if [ -f "$OUT/cuda-tests.xml" ]; then
    x=$(grep -m1 '<testsuite ' "$OUT/cuda-tests.xml")
    t=$(echo "$x" | grep -o 'tests="[0-9]*"' | grep -o '[0-9]*'); f=$(echo "$x" | grep -o 'failures="[0-9]*"' | grep -o '[0-9]*')
    e=$(echo "$x" | grep -o 'errors="[0-9]*"' | grep -o '[0-9]*'); k=$(echo "$x" | grep -o 'skipped="[0-9]*"' | grep -o '[0-9]*')
    echo "(1) CUDA tests: $t run, $f failed, $e errors, $k skipped$([ "$label" = stand-in ] && echo ' (the real-driver half skips here)')"
    if [ "$label" = gpu ] && [ "${k:-0}" != 0 ]; then
      echo "    FAILED: on the GPU machine no CUDA test may skip (the real-driver half did not run)"; failed=1
    fi
    grep -o 'skipped: [^"&]*' "$OUT/cuda-tests.xml" | sort | uniq -c | head -2 | sed 's/^/      /'
  fi
  hp=$(grep -o '"hardware park":"[^"]*"' "$OUT/probe.json" 2>/dev/null | cut -d'"' -f4)
  flags=$(sed -n 's/^cpuinfo flags of interest: //p' "$OUT/host.txt")
  want=none; case " $flags " in *" waitpkg "*) want=umwait ;; *" monitorx "*) want=mwaitx ;; esac
  got=none; case "$hp" in "hardware umwait"*) got=umwait ;; "hardware mwaitx"*) got=mwaitx ;; "hardware wfe"*) got=wfe ;; "hardware wfet"*) got=wfet ;; esac
  echo "(2) park probe: ${hp:0:90}"
  echo "    /proc/cpuinfo: ${flags:-no waitpkg, no monitorx}; expects $want, probe chose $got: $([ "$want" = "$got" ] && echo AGREE || echo DISAGREE)"
  echo "(3) store -> waiter running, us [$label]     p50      p99      max   done/asked"
  grep -o '"waiter":"[^"]*","park":"[^"]*","asked":[0-9]*,"completed":[0-9]*,"wake_ns":{[^}]*}' "$OUT/wake.json" 2>/dev/null |
    while read -r w; do
      printf '    %-34s %8s %8s %8s   %s/%s\n' "$(echo "$w" | cut -d'"' -f4)" "$(us "$(echo "$w" | sed 's/.*wake_ns//' | num p50)")" \
        "$(us "$(echo "$w" | sed 's/.*wake_ns//' | num p99)")" "$(us "$(echo "$w" | sed 's/.*wake_ns//' | num max)")" \
        "$(echo "$w" | num completed)" "$(echo "$w" | num asked)"
    done
  echo "    device turnaround (go written -> store seen), p50 us: $(grep -o '"device_turnaround_ns":{[^}]*}' "$OUT/wake.json" 2>/dev/null | num p50 | head -1 | xargs -I{} awk 'BEGIN{printf "%.1f", {}/1000}')"
  echo "(4) round trip, RTT/2 us [$label]            p50      p99      max   done/asked"
  grep -o '"variant":"[^"]*","park":"[^"]*","asked":[0-9]*,"completed":[0-9]*,"half_rtt_ns":{[^}]*}' "$OUT/rtt.json" 2>/dev/null |
    while read -r w; do
      printf '    %-34s %8s %8s %8s   %s/%s\n' "$(echo "$w" | cut -d'"' -f4)" "$(us "$(echo "$w" | sed 's/.*half_rtt_ns//' | num p50)")" \
        "$(us "$(echo "$w" | sed 's/.*half_rtt_ns//' | num p99)")" "$(us "$(echo "$w" | sed 's/.*half_rtt_ns//' | num max)")" \
        "$(echo "$w" | num completed)" "$(echo "$w" | num asked)"
    done
  for j in wake rtt; do
    grep -o '"error":"[^"]\+"' "$OUT/$j.json" 2>/dev/null | head -2 | sed "s/^/    $j /"
  done
  echo "(5) soak (simulated device): ok=$(grep -o '"ok":[a-z]*' "$OUT/soak.json" 2>/dev/null | tail -1 | cut -d: -f2)," \
    "futures=$(num futures < "$OUT/soak.json" 2>/dev/null), lost=$(num lostWakes < "$OUT/soak.json" 2>/dev/null)," \
    "duplicated=$(num duplicatedWakes < "$OUT/soak.json" 2>/dev/null), wrong=$(num wrongWakes < "$OUT/soak.json" 2>/dev/null)"
  if [ -f "$OUT/soak.json" ] && ! grep -q '"ok":true' "$OUT/soak.json"; then
    # Why, in the summary itself (CI shows only this): what stopped the run, the first samples, the thread snapshot.
    grep -o '"stopped":"[^"]*"' "$OUT/soak.json" | head -1 | sed 's/^/    /'
    for k in samples stacks; do
      grep -oE "\"$k\":\[(\"([^\"\\\\]|\\\\.)*\",?)*\]" "$OUT/soak.json" | grep -v "\\[\\]\$" | head -1 | sed "s/^\"$k\":\[\"//; s/\"\]\$//; s/\",\"/\n/g" |
        head -n 24 | cut -c1-700 | sed "s/^/    $k: /" # stacks: joiner, carriers, parkers, then the mounted virtual threads
    done
  fi
  grep '^gar: ' "$log" | sort -u | head -3 | sed 's/^/    error: /'
  echo
  echo "files: $(cd "$OUT" && ls | paste -sd' ' -)"
  [ $failed = 0 ] && echo "RESULT: every step passed ($label)" || echo "RESULT: a step FAILED ($label): see gpu-check.log"
} > "$summary" 2>> "$log"
cat "$summary" >> "$log"
rm -rf "$cache"
cat "$summary"
grep -q '^RESULT: every step passed' "$summary"
