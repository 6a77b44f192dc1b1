#!/bin/bash
# ap.sh MODE CLIENTS OUT: runs `gar service` with one mode at one level (a 25 s window) and profiles 10 s of
# its window with async-profiler (cpu, 200 us, per thread), attached through Att.java (the attach API passes
# the agent's options verbatim, where `jcmd JVMTI.agent_load` splits them). Needs the async-profiler jar from
# Maven Central (tools.profiler:async-profiler:4.1) unpacked, its linux-x64/libasyncProfiler.so named by
# ASYNC_PROFILER_LIB, and Att.java compiled into ATT_CLASSES. Writes OUT.txt (the run) and OUT.collapsed.
set -euo pipefail
m=$1; c=$2; out=$3
lib=${ASYNC_PROFILER_LIB:?path of linux-x64/libasyncProfiler.so}; att=${ATT_CLASSES:?directory of the compiled Att.class}
cd "$(git rev-parse --show-toplevel)"
( for i in $(seq 100); do pid=$(pgrep -f 'gar.jar service' | head -1) && break; sleep 0.2; done
  sleep 14; java -cp "$att" Att "$pid" "$lib" "start,event=cpu,interval=200us,threads" > /dev/null 2>&1
  sleep 10; java -cp "$att" Att "$pid" "$lib" "stop,file=$out.collapsed,collapsed,threads" > /dev/null 2>&1 ) &
./gar service --modes="$m" --clients="$c" --rounds=1 --prewarm=2s --warmup=3s --window=25s --no-fates > "$out.txt" 2>&1
wait
