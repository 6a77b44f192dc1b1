# Sourced by ./gar, .ci/run and the scripts that run Maven or java: exports JAVA_HOME pointing at a JDK 25 (and quiets
# Maven's JDK warnings on it), or fails saying where it looked.
# Order: $JAVA_HOME if it is 25, then the Temurin 25 package path, then `java` on PATH.
gar_jdk_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p'; }
# Maven 3.8's own libraries (guava, jansi) use sun.misc.Unsafe's memory methods, which JDK 24+ reports
# with four "terminally deprecated" lines on every run. Allow them in Maven's JVM only (MAVEN_OPTS, read
# by the mvn script alone; the tests' and tools' JVMs never see it). The flag exists from JDK 23 on: set
# only once a JDK 25 is found, and never twice.
gar_quiet_maven() {
  case " ${MAVEN_OPTS:-} " in
    *" --sun-misc-unsafe-memory-access="*) ;;
    *) export MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow${MAVEN_OPTS:+ $MAVEN_OPTS}" ;;
  esac
}
gar_find_jdk25() {
  local c
  for c in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25-jdk-arm64 \
           /usr/lib/jvm/java-25-openjdk-amd64 /usr/lib/jvm/jdk-25 \
           "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /nonexistent)")")")"; do
    [ -n "$c" ] && [ -x "$c/bin/java" ] && [ -x "$c/bin/javac" ] || continue
    if [ "$(gar_jdk_major "$c")" = "25" ]; then export JAVA_HOME="$c"; export PATH="$c/bin:$PATH"; gar_quiet_maven; return 0; fi
  done
  echo "gar: no JDK 25 found. Looked at \$JAVA_HOME (${JAVA_HOME:-unset}), /usr/lib/jvm/temurin-25-jdk-*, and java on PATH." >&2
  echo "gar: install Temurin 25 (https://adoptium.net) or set JAVA_HOME to a JDK 25, then run again." >&2
  return 1
}
