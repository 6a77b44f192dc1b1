#!/bin/bash
# Counts the JVM's thaws and freezes with uprobes (root; Temurin 25.0.3's libjvm.so, file offsets from
# `nm` + `readelf -lW`, whose first two LOAD segments map offsets 1:1), then runs a command under
# `perf stat -e 'uprobes:*'`. Offsets are this build's; other builds need them read again.
J=${J:-/usr/lib/jvm/temurin-25-jdk-amd64/lib/server/libjvm.so}
cd /sys/kernel/tracing || exit 1
add() { echo "p:uprobes/$1 $J:0x$2" >> uprobe_events; }
add prepare_thaw 76f3f0   # Continuation::prepare_thaw: once per thaw, the top's and each return barrier's
add thaw0 776dd0          # thaw<Config<0, G1BarrierSet>>
add slow0 77e3b0          # Thaw<...G1...>::thaw_slow: a return barrier's thaw, or a top thaw the fast path refuses
add fslow 772230          # FreezeBase::freeze_slow
add frz0 774df0           # freeze_internal<Config<0, G1BarrierSet>>
add recurse 7731a0        # ThawBase::recurse_thaw
cd - >/dev/null
perf stat -e 'uprobes:*' -x, "$@"
