#!/usr/bin/env bash
# gpu-check.sh: the GPU run of docs/GPU.md, on the machine with the GPU, from the repository root,
# with .gpu/ (scripts/gpu-pack.sh) carried. No build, no network, no Java but .gpu/jre.
#
#   (0) host facts        lscpu, /proc/cpuinfo flags, nvidia-smi, libcuda.so.1 as the loader finds it, CDS
#   (1) GPU tests         the JUnit console launcher over the packed test classes, one JVM per class:
#                         every *Test of dev.gpureactor.backend.cuda (stand-in half and real half), then
#                         gpu_test_extra below
#   (2) park probe        gar probe --json, compared with /proc/cpuinfo (waitpkg, monitorx)
#   (3) wake              gar gpu-bench --step wake: store -> waiter running, five waiters, one run
#   (4) round trip        gar gpu-bench --step rtt: RTT/2 through a parked virtual thread
#   (5) soak              gar soak on the SIMULATED device (it has no CUDA backend), with this host's park
#   (6) service           gar service on the SIMULATED device, 16 and 64 clients: CPU per request and wake
#                         of the library with this host's park, with the pure-Java park, and of the 100 us watcher
#
# Nothing can hang it or lose its evidence:
#   - every JVM runs under timeout(1): SIGQUIT at its bound (a thread dump into the log), SIGKILL 3 s later;
#   - the whole check has a bound (GAR_GPU_BUDGET_S; 210 s on the GPU machine): a step gets its budget or
#     what is left of the bound, whichever is less, and is not run when under 5 s are left;
#   - one JVM per test class: a class whose JVM hangs or crashes loses only its own report (a report
#     saying so stands in for it), and JUnit's timeouts run in a separate thread, so a spinning test
#     is reported and its class goes on;
#   - a JVM crash writes its log to stderr (-XX:+ErrorFileToStderr), which is the log that comes back,
#     and the summary quotes it; no core file (-XX:-CreateCoredumpOnCrash);
#   - a device that lacks what a step needs (stream memory operations, mapped host memory, an entry
#     point) makes that step "unsupported here (GAR-nnnn)", not a failure, and the check goes on.
# At most 8 files are written under $OUT (the device tool's limit):
#   gpu-check.log summary.txt host.txt cuda-tests.xml probe.json wake.json rtt.json soak.json (the service's
#   tables are in the log)
# The summary is printed last.
#
# GAR_GPU_DRY_RUN=1 runs the same steps, at the same sizes, against the stand-in CUDA driver
# (.gpu/native/libcuda-standin.so): every number is then labelled "stand-in". The dry run also runs
# the safeguards' probes (dev.gpureactor.gpucheck: a hung test, a stuck JVM, a crash; and gpu-bench on
# a device without stream memory operations) and fails unless each is stopped, killed, crashed or
# degraded as it should be. Exit status: 0 when every step passed, 1 otherwise.
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
started=$SECONDS
if [ "$dry" = 1 ]; then
  label="stand-in"
  cuda=(-Dgar.cuda.library="$G/native/libcuda-standin.so")
  bound=${GAR_GPU_BUDGET_S:-330} # 2 shared cores, and the probes' 25 s
else
  label="gpu"
  cuda=()
  bound=${GAR_GPU_BUDGET_S:-210}
fi
deadline=$((started + bound))
# The GPU's sizes, in the dry run too: CI runs them once at full size against the stand-in.
iters=(--iterations 2000 --warmup 200); rtt_iters=(--iterations 5000 --warmup 500)
soak=(--futures 50000 --seconds 40 --rounds 10)
budget_host=10 budget_tests=90 budget_class=45 budget_probe=15 budget_wake=45 budget_rtt=30 budget_soak=90 budget_service=60
[ "$dry" = 1 ] && budget_tests=150 # the probes' classes are in the same step

# The GPU tests, one JVM each: the CUDA package's test classes, then these. Add a class here to run it
# there too (its real half must not skip on the GPU machine).
gpu_test_extra=()

java="$G/jre/bin/java"
tmp=$(mktemp -d)
cache="$tmp/native" # the park library is extracted from the jar here, whatever $HOME is there
mkdir -p "$cache"
trap 'rm -rf "$tmp"' EXIT
steps=()   # "name|rc|seconds|budget|log offset before|log offset after" per step, and per test class

say() { echo "gpu-check: $*" | tee -a "$log"; }
log_size() { stat -c %s "$log"; }
# The log written between two offsets.
# (head stops reading early, and under pipefail tail's SIGPIPE would fail it: the writer's status is dropped)
log_part() { { tail -c +$(($1 + 1)) "$log" || true; } | head -c $(($2 - $1)); }
# (grep reads to the end, so that under pipefail no SIGPIPE of the writer makes a match a failure)
crashed_in() { log_part "$1" "$2" | grep '^# A fatal error has been detected by the Java Runtime Environment' > /dev/null; }

# bounded BUDGET NAME: the step's bound, the budget or what is left of the check's bound; 0: do not run.
bounded() {
  local left=$((deadline - SECONDS))
  if [ "$left" -lt 5 ]; then echo 0; elif [ "$1" -gt "$left" ]; then echo "$left"; else echo "$1"; fi
}

# run_step NAME BUDGET_S OUTFILE(or -) CMD...: stdout to OUTFILE (a .json keeps only its JSON line; the
# rest, such as a thread dump or a crash's header, goes to the log) or to the log; stderr to the log.
run_step() {
  local name=$1 budget out=$3 rc t0=$SECONDS off
  budget=$(bounded "$2"); shift 3
  off=$(log_size)
  if [ "$budget" = 0 ]; then
    say "---- $name: NOT RUN: the check's bound (${bound}s) is spent"
    steps+=("$name|-|0|$budget|$off|$off"); return 0
  fi
  say "---- $name (bound ${budget}s): $*"
  if [ "$out" = - ]; then
    timeout -s QUIT -k 3 "$budget" "$@" >> "$log" 2>&1; rc=$?
  elif [ "${out%.json}" != "$out" ]; then
    timeout -s QUIT -k 3 "$budget" "$@" > "$tmp/stdout" 2>> "$log"; rc=$?
    grep '^{' "$tmp/stdout" > "$out"; grep -v '^{' "$tmp/stdout" >> "$log"
  else
    timeout -s QUIT -k 3 "$budget" "$@" > "$out" 2>> "$log"; rc=$?
  fi
  local dt=$((SECONDS - t0))
  { [ $rc = 124 ] || [ $rc = 137 ]; } && say "$name: TIMED OUT after ${budget}s (SIGQUIT: a thread dump above, then SIGKILL)"
  say "$name: exit $rc in ${dt}s"
  steps+=("$name|$rc|$dt|$budget|$off|$(log_size)")
  return 0
}

if [ ! -x "$java" ] || [ ! -f "$G/gar.jar" ] || [ ! -f "$G/test-classes.jar" ] || [ ! -s "$G/cuda-tests.txt" ]; then
  say "FAILED: $G is missing or incomplete: run scripts/gpu-pack.sh here and carry .gpu"
  echo "gpu-check: no .gpu folder; nothing ran" > "$summary"
  cat "$summary"
  exit 1
fi
say "label: $label; $(head -1 "$G/PACKED" 2>/dev/null); bound ${bound}s; started $(date -u +%Y-%m-%dT%H:%M:%SZ)"

# The CDS archive travels gzipped (gpu-pack.sh): unpacked here, outside .gpu, so a later carry stays small.
cds=() cds_note="none: no .gpu/jre/lib/server/classes.jsa.gz"
if [ -f "$G/jre/lib/server/classes.jsa.gz" ]; then
  if gzip -dc "$G/jre/lib/server/classes.jsa.gz" > "$tmp/classes.jsa" 2>> "$log"; then
    cds=(-XX:SharedArchiveFile="$tmp/classes.jsa")
    cds_note=$("$java" -Xshare:on "${cds[@]}" -Xmx8g -version 2>&1 | grep 'sharing' > /dev/null && echo "mapped" \
      || echo "NOT mapped: $("$java" -Xshare:on "${cds[@]}" -Xmx8g -version 2>&1 | head -2 | paste -sd' ' -)")
  else
    cds_note="none: gzip could not unpack classes.jsa.gz"
  fi
fi
# -Xmx8g keeps compressed oops on the 128 GiB machine (its default heap, 32 GiB, turns them off), as the archive has them.
jflags=(--enable-native-access=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED -Dgar.native.cache="$cache"
  -Xmx8g -XX:+ErrorFileToStderr -XX:-CreateCoredumpOnCrash ${cds[@]+"${cds[@]}"})

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
  # libcuda.so.1 as dlopen finds it: LD_LIBRARY_PATH, then the loader's cache (ldconfig -p), then the default folders.
  local first="" d f
  echo "libcuda.so.1, in the dynamic loader's order:"
  IFS=: read -ra ldp <<< "${LD_LIBRARY_PATH:-}"
  for d in ${ldp[@]+"${ldp[@]}"}; do
    [ -n "$d" ] && [ -e "$d/libcuda.so.1" ] && echo "  LD_LIBRARY_PATH: $d/libcuda.so.1 -> $(readlink -f "$d/libcuda.so.1")" \
      && first=${first:-$d/libcuda.so.1}
  done
  while read -r f; do
    echo "  ldconfig -p: $f -> $(readlink -f "$f")"; first=${first:-$f}
  done < <(ldconfig -p 2>/dev/null | awk '$1 == "libcuda.so.1" {print $NF}')
  for d in /lib64 /usr/lib64 /lib /usr/lib /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu; do
    [ -e "$d/libcuda.so.1" ] && echo "  default folder: $d/libcuda.so.1 -> $(readlink -f "$d/libcuda.so.1")" && first=${first:-$d/libcuda.so.1}
  done
  echo "libcuda.so.1, the loader takes: ${first:-none found}"
  echo "cds: $cds_note"
  echo "--- .gpu/PACKED"
  cat "$G/PACKED"
}
export -f host_facts
export G label cds_note
run_step "host" "$budget_host" "$OUT/host.txt" bash -c host_facts

# (1) the GPU tests, one JVM per class; the real half skips with its reason where there is no libcuda.so.1
classes=()
while read -r c; do [ -n "$c" ] && classes+=("$c"); done < "$G/cuda-tests.txt" # named by gpu-pack: no Java here to list the jar
classes+=(${gpu_test_extra[@]+"${gpu_test_extra[@]}"})
probes=()
# The dry run's probes go first: the classes after them show that a stuck or crashed JVM stops nothing else.
[ "$dry" = 1 ] && probes=(dev.gpureactor.gpucheck.HangProbe dev.gpureactor.gpucheck.StuckProbe dev.gpureactor.gpucheck.CrashProbe)
junit_tmp="$tmp/junit"
tests_end=$((SECONDS + budget_tests))
say "---- tests (bound ${budget_tests}s, at most ${budget_class}s a class): ${probes[*]+${probes[*]}} ${classes[*]}"
for cls in ${probes[@]+"${probes[@]}"} "${classes[@]}"; do
  cap=$budget_class
  case "$cls" in dev.gpureactor.gpucheck.*Probe) cap=8 ;; esac
  left=$((tests_end - SECONDS)); [ "$cap" -gt "$left" ] && cap=$left
  [ "$cap" -lt 5 ] && cap=0
  mkdir -p "$junit_tmp/$cls"
  if [ "$cap" = 0 ]; then
    steps+=("test ${cls##*.}|-|0|0|$(log_size)|$(log_size)"); say "---- test ${cls##*.}: NOT RUN: the tests' bound is spent"; continue
  fi
  run_step "test ${cls##*.}" "$cap" - "$java" "${jflags[@]}" -Dgar.native.dir="$G/native" \
    -jar "$G/lib/junit-platform-console-standalone.jar" execute --disable-banner --disable-ansi-colors --details=tree \
    --details-theme=ascii --class-path "$G/gar.jar:$G/test-classes.jar" --select-class "$cls" --reports-dir "$junit_tmp/$cls" \
    --config junit.jupiter.execution.timeout.thread.mode.default=SEPARATE_THREAD \
    --config junit.jupiter.execution.timeout.default=30s
done
# cuda-tests.xml: each class's suite, named after it; a class whose JVM left no report gets one saying why.
xml_escape() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g'; }
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo '<testsuites>'
  for s in "${steps[@]}"; do
    IFS='|' read -r name rc dt budget off end <<< "$s"
    case "$name" in "test "*) ;; *) continue ;; esac
    cls=""
    for c in ${probes[@]+"${probes[@]}"} "${classes[@]}"; do [ "${c##*.}" = "${name#test }" ] && cls=$c; done
    report="$junit_tmp/$cls/TEST-junit-jupiter.xml"
    if [ -f "$report" ]; then
      sed -n '/<testsuite /,/<\/testsuite>/p' "$report" | sed "1s/ name=\"[^\"]*\"/ name=\"$cls\"/"
    else
      if [ "$rc" = - ]; then why="not run: the tests' bound was spent"
      elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then why="its JVM was killed after ${budget}s (hung); the thread dump and the tests it finished are in gpu-check.log"
      elif crashed_in "$off" "$end"; then why="its JVM crashed (exit $rc); the crash log is in gpu-check.log and the summary"
      else why="its JVM left no report (exit $rc); see gpu-check.log"; fi
      echo "<testsuite name=\"$cls\" tests=\"1\" skipped=\"0\" failures=\"0\" errors=\"1\" time=\"$dt\">"
      echo "<testcase name=\"(the class's JVM)\" classname=\"$cls\" time=\"$dt\"><error message=\"$(echo "$why" | xml_escape)\"/></testcase>"
      echo "</testsuite>"
    fi
  done
  echo '</testsuites>'
} > "$OUT/cuda-tests.xml"

# (2) the park probe
run_step "probe" "$budget_probe" "$OUT/probe.json" "$java" "${jflags[@]}" ${cuda[@]+"${cuda[@]}"} -jar "$G/gar.jar" probe --json

# (3) and (4): gar gpu-bench
run_step "wake" "$budget_wake" "$OUT/wake.json" "$java" "${jflags[@]}" ${cuda[@]+"${cuda[@]}"} -jar "$G/gar.jar" \
  gpu-bench --step wake "${iters[@]}" --delay-us 500 --timeout-ms 5000 --json
run_step "rtt" "$budget_rtt" "$OUT/rtt.json" "$java" "${jflags[@]}" ${cuda[@]+"${cuda[@]}"} -jar "$G/gar.jar" \
  gpu-bench --step rtt "${rtt_iters[@]}" --timeout-ms 5000 --json
if [ "$dry" = 1 ]; then
  # The degradation's probe: the stand-in's device without stream memory operations; its JSON goes to the log.
  run_step "rtt-no-memops" 20 - env GAR_STANDIN_ATTR_122=0 "$java" "${jflags[@]}" "${cuda[@]}" -jar "$G/gar.jar" \
    gpu-bench --iterations 300 --warmup 30 --timeout-ms 5000 --json
fi

# (5) the soak, on the simulated device
run_step "soak (sim device)" "$budget_soak" "$OUT/soak.json" "$java" "${jflags[@]}" -jar "$G/gar.jar" soak "${soak[@]}" --json

# (6) the service benchmark, on the simulated device: whether this host's park (a hardware one where the
# probe found it) changes the CPU per request against the pure-Java park and the watcher. A hardware
# park holds its core while it waits (the OS counts it as running), so this is where that cost shows.
service=(--modes=reactor,reactor:hardwarePark=false,watcher --clients=16,64 --rounds=1 --prewarm=1s --warmup=2s --window=4s)
run_step "service (sim device)" "$budget_service" - "$java" "${jflags[@]}" -jar "$G/gar.jar" service "${service[@]}"

# ------------------------------------------------------------------ the summary
num() { grep -o "\"$1\":[0-9]*" | head -1 | cut -d: -f2; }
us() { awk -v n="${1:-}" 'BEGIN { if (n == "") print "-"; else printf "%.1f", n / 1000 }'; }
# A device that lacks what the step needs: the coded error, or empty.
unsupported_code() { # NAME OFF END
  local j=/dev/null code
  case "$1" in probe) j=$OUT/probe.json ;; wake) j=$OUT/wake.json ;; rtt) j=$OUT/rtt.json ;; "soak (sim device)") j=$OUT/soak.json ;; esac
  code=$({ cat "$j" 2>/dev/null; log_part "$2" "$3" | grep '^{'; } | grep -o '"unsupported":"GAR-[0-9]*' | head -1 | cut -d'"' -f4)
  [ -z "$code" ] && code=$(log_part "$2" "$3" | grep -oE '^gar: GAR-(0013|0023)|^gar: GAR-0008 .*CUDA_ERROR_NOT_(SUPPORTED|PERMITTED)' \
    | head -1 | grep -oE 'GAR-[0-9]+')
  echo "$code"
}
# Per-suite counts of cuda-tests.xml: name, tests, failed, unsupported-here, skipped (a failure naming
# what the device lacks counts as unsupported here).
suite_counts() {
  awk '
    /<testsuite / { match($0, / name="[^"]*"/); name = substr($0, RSTART + 7, RLENGTH - 8); order[++n] = name }
    /<testcase / { inb = 1; blk = "" }
    inb { blk = blk $0 "\n" }
    inb && (/<\/testcase>/ || /<testcase [^>]*\/>/) {
      t[name]++
      if (blk ~ /<skipped/) k[name]++
      else if (blk ~ /<(failure|error)/) {
        if (blk ~ /GAR-0023|NoStreamMemOps|CUDA_ERROR_NOT_SUPPORTED|CUDA_ERROR_NOT_PERMITTED/) u[name]++; else f[name]++
      }
      inb = 0
    }
    END { for (i = 1; i <= n; i++) printf "%s %d %d %d %d\n", order[i], t[order[i]], f[order[i]], u[order[i]], k[order[i]] }
  ' "$OUT/cuda-tests.xml"
}
{
  echo "GPU check ($label)  $(date -u +%Y-%m-%dT%H:%M:%SZ)  $(sed -n 's/^cpu: //p' "$OUT/host.txt"), $(nproc) cores"
  [ "$label" = stand-in ] && echo "STAND-IN DRIVER: every number below is the stand-in's, not a GPU's"
  sed -n '/^[^:]*, [0-9.]*, /p' "$OUT/host.txt" | head -1 | sed 's/^/gpu: /'
  echo "$(grep "^libcuda.so.1, the loader takes:" "$OUT/host.txt"); CDS archive: $(sed -n 's/^cds: //p' "$OUT/host.txt")"
  echo
  printf '%-22s %5s %8s  %s\n' step exit seconds status
  failed=0
  crashes=()
  for s in "${steps[@]}"; do
    IFS='|' read -r name rc dt budget off end <<< "$s"
    status=ok
    if [ "$rc" = - ]; then status="NOT RUN (the bound was spent)"; failed=1
    elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then status="TIMED OUT (${budget}s)"
    elif crashed_in "$off" "$end"; then status="CRASHED (its log below)"; crashes+=("$name|$off|$end")
    elif [ "$rc" != 0 ]; then status=FAILED; fi
    code=$(unsupported_code "$name" "$off" "$end")
    [ -n "$code" ] && [ "$status" = ok -o "$status" = FAILED ] && status="unsupported here ($code)"
    case "$name" in
      "test HangProbe"|"test StuckProbe"|"test CrashProbe") status="probe: $status (checked below)" ;;
      "test "*) [ "$status" = ok ] || [ "${status#unsupported}" != "$status" ] || [ "$rc" = 1 ] || failed=1 ;; # rc 1: counted below
      *) case "$status" in ok|unsupported*) ;; *) failed=1 ;; esac ;;
    esac
    printf '%-22s %5s %8s  %s\n' "$name" "$rc" "$dt" "$status"
  done
  echo
  t=0 f=0 u=0 k=0
  while read -r name nt nf nu nk; do
    case "$name" in dev.gpureactor.gpucheck.*) continue ;; esac
    t=$((t + nt)) f=$((f + nf)) u=$((u + nu)) k=$((k + nk))
  done < <(suite_counts)
  echo "(1) GPU tests: $t run, $f failed, $u unsupported here, $k skipped$([ "$label" = stand-in ] && echo ' (the real-driver half skips here)')"
  [ "$f" != 0 ] && failed=1
  if [ "$label" = gpu ] && [ "$k" != 0 ]; then
    echo "    FAILED: on the GPU machine no GPU test may skip (the real-driver half did not run)"; failed=1
  fi
  grep -o 'skipped: [^"&]*' "$OUT/cuda-tests.xml" | sort | uniq -c | head -2 | cut -c1-160 | sed 's/^/      /'
  grep -o '<\(failure\|error\) message="[^"]*"' "$OUT/cuda-tests.xml" | grep -v '(the class' | head -3 | cut -c1-200 | sed 's/^/    /'
  if [ "$dry" = 1 ]; then
    # The safeguards' probes: each must be stopped, killed or crashed as it should be.
    hang=$(suite_counts | awk '$1 == "dev.gpureactor.gpucheck.HangProbe" {print $3}')
    hang_msg=$(sed -n '/name="dev.gpureactor.gpucheck.HangProbe"/,/<\/testsuite>/p' "$OUT/cuda-tests.xml" | grep -o 'timed out after [0-9]* seconds' | head -1)
    if [ "$hang" = 1 ] && [ -n "$hang_msg" ]; then echo "    probe hung test: stopped by its JUnit timeout (separate thread) and reported, \"$hang_msg\": OK"
    else echo "    probe hung test: NOT reported as timed out: FAILED"; failed=1; fi
    stuck=$(printf '%s\n' "${steps[@]}" | grep '^test StuckProbe|')
    IFS='|' read -r _ src _ sbudget soff send <<< "$stuck"
    if { [ "$src" = 137 ] || [ "$src" = 124 ]; } && log_part "$soff" "$send" | grep '^Full thread dump' > /dev/null \
       && grep -q 'name="dev.gpureactor.gpucheck.StuckProbe".*' "$OUT/cuda-tests.xml"; then
      echo "    probe stuck JVM: killed after ${sbudget}s, reported as such, its thread dump in gpu-check.log, the next classes ran: OK"
    else echo "    probe stuck JVM: NOT killed and reported (exit $src): FAILED"; failed=1; fi
    if printf '%s\n' ${crashes[@]+"${crashes[@]}"} | grep '^test CrashProbe|' > /dev/null; then
      echo "    probe crash: its crash log came back (below): OK"
    else echo "    probe crash: NO crash log in gpu-check.log: FAILED"; failed=1; fi
  fi
  if [ "${#crashes[@]}" -gt 0 ]; then
    echo "crashes (-XX:+ErrorFileToStderr: the whole log of each is in gpu-check.log):"
    for c in "${crashes[@]}"; do
      IFS='|' read -r name off end <<< "$c"
      echo "  [$name]"
      log_part "$off" "$end" | awk '
        /^# A fatal error has been detected/ { on = 1 }
        on && /^#  (SIG|Internal Error|Out of Memory)/ { sub(/^# */, ""); if (!seen[$0]++) print "    " $0 }
        on && prob { sub(/^# */, ""); if (!seen[$0]++) print "    problematic frame: " $0; prob = 0 }
        on && /^# Problematic frame:/ { prob = 1 }
        on && /^Current thread/ { print "    " substr($0, 1, 110) }
        on && /^(Java frames|Native frames)/ { frames = 1 }
        on && frames && /^[CVjJv] / && shown < 8 { print "    " substr($0, 1, 150); shown++ }' | head -14
    done
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
    grep -o '"unsupported":"[^"]\+"' "$OUT/$j.json" 2>/dev/null | head -1 | cut -c1-200 | sed "s/^\"unsupported\":\"/    $j unsupported here: /"
  done
  if [ "$dry" = 1 ]; then
    nm=$(printf '%s\n' "${steps[@]}" | grep '^rtt-no-memops|')
    IFS='|' read -r _ nrc _ _ noff nend <<< "$nm"
    nj=$(log_part "$noff" "$nend" | grep '^{' | tail -1)
    qp=$(echo "$nj" | grep -o '"variant":"query-plan","park":"[^"]*","asked":[0-9]*,"completed":[0-9]*')
    if [ "$nrc" = 0 ] && echo "$nj" | grep '"unsupported":"GAR-0023' > /dev/null && [ -n "$qp" ] && [ "$(echo "$qp" | num asked)" = "$(echo "$qp" | num completed)" ]; then
      echo "    probe no stream memory operations: unsupported here (GAR-0023), the query plan's round trip $(echo "$qp" | num completed)/$(echo "$qp" | num asked): OK"
    else echo "    probe no stream memory operations: NOT degraded to the query plan (exit $nrc): FAILED"; failed=1; fi
  fi
  echo "(5) soak (simulated device): ok=$(grep -o '"ok":[a-z]*' "$OUT/soak.json" 2>/dev/null | tail -1 | cut -d: -f2)," \
    "futures=$(num futures < "$OUT/soak.json" 2>/dev/null), lost=$(num lostWakes < "$OUT/soak.json" 2>/dev/null)," \
    "duplicated=$(num duplicatedWakes < "$OUT/soak.json" 2>/dev/null), wrong=$(num wrongWakes < "$OUT/soak.json" 2>/dev/null)"
  if [ -f "$OUT/soak.json" ] && ! grep -q '"ok":true' "$OUT/soak.json"; then
    failed=1
    # Why, in the summary itself (CI shows only this): what stopped the run, the first samples, the thread snapshot.
    grep -o '"stopped":"[^"]*"' "$OUT/soak.json" | head -1 | sed 's/^/    /'
    for k in samples stacks; do
      grep -oE "\"$k\":\[(\"([^\"\\\\]|\\\\.)*\",?)*\]" "$OUT/soak.json" | grep -v "\\[\\]\$" | head -1 | sed "s/^\"$k\":\[\"//; s/\"\]\$//; s/\",\"/\n/g" |
        head -n 24 | cut -c1-700 | sed "s/^/    $k: /" # stacks: joiner, carriers, parkers, then the mounted virtual threads
    done
  fi
  sv=$(printf '%s\n' "${steps[@]}" | grep '^service (sim device)|')
  IFS='|' read -r _ _ _ _ soff send <<< "$sv"
  echo "(6) service (simulated device), against the 100 us watcher [this host's park: ${hp%%:*}]:"
  log_part "${soff:-0}" "${send:-0}" | grep -E '^(reactor|reactor:hardwarePark=false) +[0-9]+ +rps' | cut -c1-120 | sed 's/^/    /'
  log_part "${soff:-0}" "${send:-0}" | grep -E '^Correctness' | sed 's/^/    /'
  grep '^gar: ' "$log" | sort -u | head -3 | cut -c1-200 | sed 's/^/    error: /'
  echo
  echo "check: $((SECONDS - started)) s of its ${bound} s bound"
  echo "files: $(cd "$OUT" && ls | paste -sd' ' -) ($(ls "$OUT" | wc -l) of at most 8)"
  [ $failed = 0 ] && echo "RESULT: every step passed ($label)" || echo "RESULT: a step FAILED ($label): see gpu-check.log"
} > "$summary" 2>> "$log"
cat "$summary" >> "$log"
# The log comes back only under 16 MiB: keep its head and its tail.
if [ "$(log_size)" -gt $((15 * 1024 * 1024)) ]; then
  { head -c $((7 * 1024 * 1024)) "$log"; printf '\n[gpu-check: %s bytes cut from the middle]\n' "$(($(log_size) - 14 * 1024 * 1024))"
    tail -c $((7 * 1024 * 1024)) "$log"; } > "$tmp/log" && mv "$tmp/log" "$log"
fi
cat "$summary"
grep -q '^RESULT: every step passed' "$summary"
