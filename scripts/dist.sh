#!/usr/bin/env bash
# Release archives of lwr for Windows (amd64, arm64), macOS (amd64, arm64)
# and Linux (amd64, arm64), with a SHA256SUMS file:
#   scripts/dist.sh OUT_DIR VERSION
set -euo pipefail
out=${1:-dist} version=${2:-dev}
cd "$(dirname "$0")/.."
rm -rf "$out" && mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for p in windows/amd64 windows/arm64 darwin/amd64 darwin/arm64 linux/amd64 linux/arm64; do
  os=${p%/*} arch=${p#*/}
  name="lwr_${version}_${os}_${arch}"
  dir="$work/$name"
  mkdir -p "$dir"
  exe=lwr
  [[ $os == windows ]] && exe=lwr.exe
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -buildvcs=auto \
    -ldflags "-s -w -X main.version=$version" -o "$dir/$exe" ./cmd/lwr
  cp README.md "$dir/"
  if [[ $os == windows ]]; then
    (cd "$work" && python3 -c 'import sys, zipfile, os
name = sys.argv[1]
with zipfile.ZipFile(name + ".zip", "w", zipfile.ZIP_DEFLATED) as z:
    for root, _, files in os.walk(name):
        for f in sorted(files):
            z.write(os.path.join(root, f))' "$name")
    mv "$work/$name.zip" "$out/"
  else
    tar -C "$work" -czf "$out/$name.tar.gz" "$name"
  fi
done
(cd "$out" && sha256sum -- *.zip *.tar.gz > SHA256SUMS)
ls -l "$out"
