#!/bin/sh
# Prepares a Wine prefix in which Go (>= 1.22) Windows binaries start: installs wine (Debian 12: wine 8.0) if missing,
# initialises the prefix, adds the one-export bcryptprimitives.dll that Wine 8.0 lacks, and reports Windows 10.
#   WINEPREFIX=/tmp/lwr-wine scripts/windows/wine-prefix.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${WINEPREFIX:?set WINEPREFIX}"
export WINEDEBUG=-all PATH="$PATH:/usr/local/go/bin"
if [ ! -x /usr/lib/wine/wine64 ]; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wine64 wine >/dev/null
fi
if [ ! -f "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" ]; then
  timeout 180 /usr/lib/wine/wine64 wineboot --init >/dev/null 2>&1 || true
  tmp=$(mktemp -d)
  (cd "$here/mkshim" && go run . "$tmp/bcryptprimitives.dll") >/dev/null
  cp "$tmp/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/"
  rm -rf "$tmp"
  timeout 60 /usr/lib/wine/wine64 reg add 'HKCU\Software\Wine' /v Version /t REG_SZ /d win10 /f >/dev/null 2>&1 || true
fi
echo "wine prefix ready: $WINEPREFIX"
