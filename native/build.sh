#!/usr/bin/env bash
# Builds native/ into <classes>/native/<os>-<arch>/ (packed into the jar) and <work>/ (tests).
# Filled in by the park issue; with no C compiler it says so and the pure-Java fallback runs.
set -euo pipefail
classes=${1:?classes dir}; work=${2:?work dir}
mkdir -p "$classes" "$work"
echo "native: nothing to build yet"
