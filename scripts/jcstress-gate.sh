#!/usr/bin/env bash
# Runs jcstress and fails on what jcstress 0.16 itself lets pass: it exits 0 even when tests fail.
# A run passes only when its RUN RESULTS block says "Failed tests: No matches." and
# "Error tests: No matches." and at least one test ran.
set -uo pipefail
# Usage: jcstress-gate.sh JAR [MODE [FILTER [EXTRA]]]; EXTRA is split on spaces into more jcstress
# options (CI passes "-sc false -hs 64": one unified compile mode per fork, 4 forks per test instead of 14, and
# a 64 MB heap per fork).
jar=${1:?jcstress.jar}; mode=${2:-quick}; filter=${3:-.*}; extra=${4:-}
dir=$(dirname "$jar"); log="$dir/jcstress-$mode.log"
cd "$dir"
# -v: the log keeps every test's outcome table (counts), not only the failed ones. The forks take this JVM's
# flags: --add-opens java.base/java.lang is the carrier pool's own flag (the carrier package's tests reach
# the JDK's ForkJoinPool through it, as the pool does).
echo "jcstress-gate: java -jar $(basename "$jar") -v -m $mode -t '$filter' $extra"
# shellcheck disable=SC2086 # $extra is a list of options
java --enable-native-access=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED -jar "$jar" -v -m "$mode" -t "$filter" $extra -r "$dir/jcstress-results" 2>&1 | tee "$log"
fail=0
grep -q 'RUN RESULTS' "$log"                  || { echo "jcstress-gate: no RUN RESULTS block"; fail=1; }
grep -qE 'FATAL|No matching tests' "$log"     && { echo "jcstress-gate: jcstress found no tests or died (is <proc>full</proc> set?)"; fail=1; }
# jcstress skips a test with more actors than CPUs and still reports success: never count that as a pass.
grep -q 'No scheduling is possible' "$log"    && { echo "jcstress-gate: a test has more actors than this machine's CPUs and did not run"; fail=1; }
grep -q 'Failed tests: No matches\.' "$log"   || { echo "jcstress-gate: a test FAILED (forbidden or unknown outcome)"; fail=1; }
grep -q 'Error tests: No matches\.' "$log"    || { echo "jcstress-gate: a test ERRORED"; fail=1; }
[ $fail -eq 0 ] && echo "jcstress-gate: all tests passed in mode $mode ($log)"
exit $fail
