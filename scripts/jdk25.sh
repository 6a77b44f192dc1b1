# Sourced by ./gar and .ci/run: exports JAVA_HOME pointing at a JDK 25, or fails saying where it looked.
# Order: $JAVA_HOME if it is 25, then the Temurin 25 package path, then `java` on PATH.
gar_jdk_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p'; }
gar_find_jdk25() {
  local c
  for c in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25-jdk-arm64 \
           /usr/lib/jvm/java-25-openjdk-amd64 /usr/lib/jvm/jdk-25 \
           "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /nonexistent)")")")"; do
    [ -n "$c" ] && [ -x "$c/bin/java" ] && [ -x "$c/bin/javac" ] || continue
    if [ "$(gar_jdk_major "$c")" = "25" ]; then export JAVA_HOME="$c"; export PATH="$c/bin:$PATH"; return 0; fi
  done
  echo "gar: no JDK 25 found. Looked at \$JAVA_HOME (${JAVA_HOME:-unset}), /usr/lib/jvm/temurin-25-jdk-*, and java on PATH." >&2
  echo "gar: install Temurin 25 (https://adoptium.net) or set JAVA_HOME to a JDK 25, then run again." >&2
  return 1
}
