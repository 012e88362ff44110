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
# Root reads files whatever their mode: the tests of unreadable files run
# again as an unprivileged user, where there is one.
if [[ $(id -u) == 0 ]] && command -v runuser >/dev/null && id nobody >/dev/null 2>&1; then
  bin=$(mktemp -d)
  chmod 1777 "$bin"
  unprivileged() {
    "$GO" test -c -o "$bin/index.test" ./index/ && chmod 755 "$bin/index.test" &&
      (cd "$bin" && runuser -u nobody -- env HOME="$bin" TMPDIR="$bin" ./index.test -test.run 'Unreadable' -test.v) &&
      echo "ok  	lwr/index (as nobody: unreadable files)"
  }
  step unprivileged unprivileged
  rm -rf "$bin"
fi
# The dictionary readers lwr patches (third_party/kagome-dict/PATCHES.md).
step third_party bash -c 'cd third_party/kagome-dict && "$0" test -count=1 ./...' "$GO"
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
