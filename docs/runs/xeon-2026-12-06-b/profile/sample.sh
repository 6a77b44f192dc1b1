#!/bin/bash
# usage: sample.sh OUT delay span  -- waits for the gar java process, then two snapshots span apart
out=$1; delay=$2; span=$3
for i in $(seq 100); do pid=$(pgrep -f 'gar.jar service' | head -1); [ -n "$pid" ] && break; sleep 0.2; done
sleep $delay
snap() { for t in /proc/$pid/task/*; do n=$(cat $t/comm 2>/dev/null); v=$(awk '/^voluntary_ctxt/{print $2}' $t/status 2>/dev/null); nv=$(awk '/^nonvoluntary_ctxt/{print $2}' $t/status 2>/dev/null); st=$(awk '{print $14+$15}' $t/stat 2>/dev/null); echo "${t##*/}|$n|$v|$nv|$st"; done; }
snap > $out.a; sleep $span; snap > $out.b
