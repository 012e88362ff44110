#!/usr/bin/env bash
# The Windows build under Wine (scripts/windows/README.md): prepares the
# Wine prefix, runs the package tests of the Windows build through the exec
# wrapper, then drives lwr.exe end to end (scripts/e2e-windows.sh).
#   scripts/test-windows.sh
set -euo pipefail
cd "$(dirname "$0")/.."
win=$(cd scripts/windows && pwd)
export WINEPREFIX=${WINEPREFIX:-/tmp/lwr-wine} WINEDEBUG=-all
"$win/wine-prefix.sh"
# A server the prefix's preparation started (wineboot on a new prefix) may
# still be running, and a second one cannot start: it is let end first.
timeout 60 /usr/lib/wine/wineserver -w >/dev/null 2>&1 </dev/null || /usr/lib/wine/wineserver -k >/dev/null 2>&1 </dev/null || true
# One wineserver (and the prefix's services) for the whole run, started
# here with its output detached: started by a test binary's wine, it would
# hold that test's output open while other packages run, and `go test`
# gives up waiting ("Test I/O incomplete").
/usr/lib/wine/wineserver -p >/dev/null 2>&1 </dev/null
/usr/lib/wine/wine64 cmd /c exit >/dev/null 2>&1 </dev/null || true
trap '/usr/lib/wine/wineserver -k >/dev/null 2>&1 || true' EXIT
# Every package but the commands, whose tests start lwr processes with
# `go build` (lwr.exe is driven by the end-to-end script instead).
pkgs=$(go list ./... | grep -v '/cmd/lwr$' | grep -v '/third_party/')
PATH="$win/bin:$PATH" GOOS=windows GOARCH=amd64 go test -count=1 $pkgs
./scripts/e2e-windows.sh
