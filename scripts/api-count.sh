#!/usr/bin/env bash
# Counts the public API: the public types of the packages module-info exports (top-level, and nested in a
# public type), and their public and protected methods and constructors as `javap -protected` shows them
# (a record's and an enum's generated members included). Run after `mvn -q -o compile`, from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/jdk25.sh
. scripts/jdk25.sh
gar_find_jdk25 || exit 2 # Maven and java below run on it (the default java may be older)
classes=target/classes
pkgs=$(sed -n 's/^ *exports \([a-z.]*\);/\1/p' src/main/module/module-info.java)
top=()
for p in $pkgs; do
  for f in "$classes/${p//.//}"/*.class; do
    case $f in */package-info.class|*\$*) ;; *) top+=("$f") ;; esac
  done
done
files=()
for f in "${top[@]}"; do
  if javap -public "$f" | grep -qE '^public .*(class|interface|enum|record) '; then
    files+=("$f")
    for n in "${f%.class}"\$*.class; do [ -e "$n" ] && files+=("$n"); done
  fi
done
out=$(javap -protected "${files[@]}")
types=$(grep -cE '^(public|protected) .*(class|interface|enum|record) ' <<<"$out" || true)
methods=$(grep -E '^  (public|protected) ' <<<"$out" | grep -c '(' || true)
echo "exported packages: $(wc -w <<<"$pkgs"), public types: $types, public or protected methods and constructors: $methods"
