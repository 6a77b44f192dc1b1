#!/bin/bash
# Runs gar commands with bad arguments; reports rc and whether a stack trace appeared.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
run() {
  out=$(timeout 25 $J --enable-native-access=ALL-UNNAMED -jar target/gar.jar "$@" 2>&1); rc=$?
  st=$(echo "$out" | grep -cE '^\s+at |Exception in thread|Caused by')
  first=$(echo "$out" | grep -v '^\s*$' | head -2 | tr '\n' '|' | cut -c1-260)
  echo "rc=$rc trace=$st :: gar $* :: $first"
}
run demo --bad
run demo --waiters=-1
run demo --waiters=99999999999999999999
run demo --waiters=abc
run demo --carriers=0
run demo --carriers=-5
run demo --carriers=5000
run demo --carriers=2147483648
run demo --kind=bogus
run demo --kind=
run demo --plan=
run demo --plan='flag:park_us=0,backstop_us=1'
run demo --plan='flag:park_us=99999999999999999999999,backstop_us=1'
run demo --backend=bogus
run demo --backend=cuda
run demo --backend=hip
run demo --backend=metal
run demo --jfr=/nonexistent/dir/x.jfr
run demo --jfr=
run bench --waits=-1ms --quiet
run bench --waits=abc --quiet
run bench --waits=0 --quiet
run bench --duration=-1s --quiet
run bench --duration=0s --quiet
run bench --duration=999999999999d --quiet
run bench --strategies=bogus --quiet
run bench --rounds=0 --quiet
run bench --rounds=-1 --quiet
run bench --futures=-1 --quiet
run bench --park-spin=-1us --quiet
run bench --park-slice=0 --quiet
run bench --park-slice=abc --quiet
run bench --margin-us=-1 --quiet
run bench --carrier-turns=maybe --quiet
run bench --jitter=bogus --quiet
run bench --device=bogus --quiet
run bench --plot=/nonexistent/x.svg --quiet
run bench --json=/nonexistent/x.json --quiet
run bench --min-waits=-1 --quiet
run bench --warmup=-1s --quiet
run soak --futures=-1
run soak --futures=0
run soak --lines=0
run soak --lines=-1
run soak --lines=100000
run soak --rounds=0
run soak --rounds=-3
run soak --seconds=-1
run soak --seed=abc
run soak --settle-ms=-1
run soak --close-waits=-1
run soak --plan=garbage
run soak --carriers=0
run service --clients=0 --quiet
run service --clients=-1 --quiet
run service --modes=bogus --quiet
run service --modes= --quiet
run service --modes='reactor:park_slice=abc' --quiet
run service --window=-1s --quiet
run service --warmup=abc --quiet
run service --rounds=0 --quiet
run service --max-requests=-1 --quiet
run service --load-carriers=-1 --quiet
run service --profile-clients=-1 --quiet
run scale --lines=0 --quiet
run scale --lines=-1 --quiet
run scale --waits=-1ms --quiet
run scale --fan-out=-1 --quiet
run scale --fan-out=0 --quiet
run scale --fan-out-rounds=-1 --quiet
run scale --waiters=-1 --quiet
run scale --lines-per-parker=0 --quiet
run scale --window=0s --quiet
run scale --idle-lines=-1 --quiet
run gpu-bench --iterations=-1
run gpu-bench --delay-us=-1
run gpu-bench --step=bogus
run gpu-bench --timeout-ms=-1
run gpu-bench --waiters=-1
run gpu-bench
run blocking --blockers=-1 --quiet
run blocking --block=bogus --quiet
run blocking --after=-1 --quiet
run blocking --patience=-1 --quiet
run blocking --blockers=0 --quiet
run probe --json=x
run probe extra
run nosuchcmd
