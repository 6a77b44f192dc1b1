#!/bin/bash
# apalloc.sh MODE CLIENTS OUT: as docs/runs/xeon-2026-12-06-b/profile/ap.sh, with async-profiler's alloc mode
# (sampled allocations, per thread) in place of cpu: runs `gar service` with one mode at one level (a 25 s
# window) and records 10 s of it. Needs ASYNC_PROFILER_LIB and ATT_CLASSES as ap.sh does. Writes OUT.txt
# and OUT.collapsed (sample counts per stack; alloc.py sums them per 1,000 requests).
set -euo pipefail
m=$1; c=$2; out=$3
lib=${ASYNC_PROFILER_LIB:?path of linux-x64/libasyncProfiler.so}; att=${ATT_CLASSES:?directory of the compiled Att.class}
cd "$(git rev-parse --show-toplevel)"
( for i in $(seq 100); do pid=$(pgrep -f 'gar.jar service' | head -1) && break; sleep 0.2; done
  sleep 14; java -cp "$att" Att "$pid" "$lib" "start,event=alloc,threads" > /dev/null 2>&1
  sleep 10; java -cp "$att" Att "$pid" "$lib" "stop,file=$out.collapsed,collapsed=total,threads" > /dev/null 2>&1 ) &
./gar service --modes="$m" --clients="$c" --rounds=1 --prewarm=2s --warmup=3s --window=25s --no-fates > "$out.txt" 2>&1
wait
