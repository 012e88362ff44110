#!/usr/bin/env bash
# make test: the unit tests with the race detector, a short fuzzing budget
# and the bench-corpus tests, then one line that says how it went.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$SECONDS
failed=()
step() {
  local name=$1
  shift
  "$@" 2>&1 | tee -a "$log"
  ((PIPESTATUS[0] == 0)) || failed+=("$name")
}
step unit "$GO" test -race -count=1 ./...
step fuzz make -s test-fuzz
step corpus make -s test-corpus
ok=$(grep -cE '^ok[[:space:]]' "$log")
bad=$(grep -E '^(FAIL|--- FAIL)' "$log" | sort -u | tr '\n' ' ')
took=$((SECONDS - start))
if ((${#failed[@]} == 0)); then
  echo "make test: PASS ($ok package runs ok; unit, fuzz and corpus tests in ${took}s)"
else
  echo "make test: FAIL in ${failed[*]} after ${took}s: ${bad:-see above}"
  exit 1
fi
