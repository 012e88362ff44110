#!/usr/bin/env bash
# lwr research end to end on the bench corpus with the daemon running:
# offline (--skip-web), and with a fake SearXNG whose answers come from the
# web cache (each query is searched once first to fill it; the keyword
# cache is filled by the same run). Medians over two rounds of the dev
# queries, process start to exit. For make bench:
#   scripts/bench-research.sh CORPUS LWR WORKDIR
set -euo pipefail
corpus=$1 lwr=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)

stats() {
  local name=$1 unit=$2; shift 2
  python3 - "$name" "$unit" "$@" <<'PY'
import statistics, sys
name, unit, vals = sys.argv[1], sys.argv[2], [float(v) for v in sys.argv[3:]]
print(f"{name:<44} median {statistics.median(vals):8.3f} {unit:<4} (min {min(vals):.3f} – max {max(vals):.3f}, n={len(vals)})")
PY
}
now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000 ))e-3; }
mapfile -t queries < <(tail -n +2 "$repo/index/testdata/dev-queries.tsv" | cut -f2)

cache=$work/research-cache
ws=$work/research-ws
mkdir -p "$cache" "$ws"
lwr_() { "$lwr" --source-root "$corpus" --cache-dir "$cache" "$@"; }

daemon= fake=
cleanup() {
  [ -n "$daemon" ] && { lwr_ index stop >/dev/null 2>&1 || kill "$daemon" 2>/dev/null; wait "$daemon" 2>/dev/null || true; }
  [ -n "$fake" ] && kill "$fake" 2>/dev/null
  return 0
}
trap cleanup EXIT
lwr_ index build >/dev/null
lwr_ index watch >"$work/research-daemon.log" 2>&1 &
daemon=$!
for _ in $(seq 600); do
  if lwr_ index status 2>/dev/null | grep -q "daemon:       running" && ! lwr_ index status 2>/dev/null | grep -q "syncing now"; then break; fi
  sleep 0.1
done

# Offline.
off=()
for round in 1 2; do
  for q in "${queries[@]}"; do
    t0=$(now); lwr_ research --skip-web --workspace "$ws" "$q" >/dev/null; t1=$(now)
    off+=("$(ms "$t0" "$t1")")
  done
done
stats "lwr research --skip-web via daemon, wall" ms "${off[@]}"

# With a fake SearXNG, answered from the cache.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 "$here/fake-searxng.py" "$port" >/dev/null &
fake=$!
export LWR_WEB_PROVIDERS=searxng LWR_WEB_SEARXNG_BASE_URL=http://127.0.0.1:$port
for _ in $(seq 50); do python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/search?q=x')" 2>/dev/null && break; sleep 0.1; done
for q in "${queries[@]}"; do lwr_ research --workspace "$ws" "$q" >/dev/null; done
cached=()
for round in 1 2; do
  for q in "${queries[@]}"; do
    t0=$(now); lwr_ research --workspace "$ws" "$q" >/dev/null; t1=$(now)
    cached+=("$(ms "$t0" "$t1")")
  done
done
stats "lwr research, web from cache, via daemon" ms "${cached[@]}"
