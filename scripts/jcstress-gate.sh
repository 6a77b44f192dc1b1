#!/usr/bin/env bash
# Runs jcstress and fails on what jcstress 0.16 itself lets pass: it exits 0 even when tests fail.
# A run passes only when its RUN RESULTS block says "Failed tests: No matches." and
# "Error tests: No matches." and at least one test ran.
set -uo pipefail
jar=${1:?jcstress.jar}; mode=${2:-quick}; filter=${3:-.*}
dir=$(dirname "$jar"); log="$dir/jcstress-$mode.log"
cd "$dir"
java --enable-native-access=ALL-UNNAMED -jar "$jar" -m "$mode" -t "$filter" -r "$dir/jcstress-results" 2>&1 | tee "$log"
fail=0
grep -q 'RUN RESULTS' "$log"                  || { echo "jcstress-gate: no RUN RESULTS block"; fail=1; }
grep -qE 'FATAL|No matching tests' "$log"     && { echo "jcstress-gate: jcstress found no tests or died (is <proc>full</proc> set?)"; fail=1; }
grep -q 'Failed tests: No matches\.' "$log"   || { echo "jcstress-gate: a test FAILED (forbidden or unknown outcome)"; fail=1; }
grep -q 'Error tests: No matches\.' "$log"    || { echo "jcstress-gate: a test ERRORED"; fail=1; }
[ $fail -eq 0 ] && echo "jcstress-gate: all tests passed in mode $mode ($log)"
exit $fail
