#!/usr/bin/env bash
# The service benchmark on Jetty 12 (docs/SERVICE.md, "On Jetty"): compiles the library and its tests,
# then runs dev.gpureactor.bench.service.JettyServiceBench on the test class path (with the tools' classes), where Jetty is (a
# test-scope dependency: neither the library nor target/gar.jar carries it). Arguments go to the
# benchmark: --modes, --clients, --rounds, --prewarm, --warmup, --window, --max-requests,
# --load-carriers, --json FILE. Maven works offline here (-o); drop MVN_OFFLINE to let it download.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/jdk25.sh
. scripts/jdk25.sh
gar_find_jdk25 || exit 2 # Maven and java below run on it (the default java may be older)
offline=${MVN_OFFLINE--o}
mvn -B -ntp $offline -q test-compile
cp_file=$(mktemp)
trap 'rm -f "$cp_file"' EXIT
mvn -B -ntp $offline -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file"
java --enable-native-access=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED \
  -cp "target/classes:target/tools-classes:target/test-classes:$(cat "$cp_file")" dev.gpureactor.bench.service.JettyServiceBench "$@"
