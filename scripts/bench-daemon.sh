#!/usr/bin/env bash
# Part of make bench: lwr with its daemon running, against ripgrep, on a
# copy of the bench corpus (1×) and on ten copies of it (10×).
#   scripts/bench-daemon.sh CORPUS LWR WORKDIR
set -euo pipefail
corpus=$1 lwr=$2 work=$3
command -v rg >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ripgrep >/dev/null; }

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

mapfile -t queries < <(tail -n +2 index/testdata/dev-queries.tsv | cut -f2)

# start_daemon ROOT CACHE: starts lwr index watch and waits for its first sync.
daemon=
trap '[ -n "$daemon" ] && kill "$daemon" 2>/dev/null' EXIT
start_daemon() {
  "$lwr" --source-root "$1" --cache-dir "$2" index watch >"$work/daemon.log" 2>&1 &
  daemon=$!
  for _ in $(seq 3000); do
    if "$lwr" --source-root "$1" --cache-dir "$2" index status 2>/dev/null | grep -q "daemon:       running" &&
       ! "$lwr" --source-root "$1" --cache-dir "$2" index status 2>/dev/null | grep -q "syncing now"; then
      return 0
    fi
    sleep 0.1
  done
  echo "the daemon did not start; see $work/daemon.log" >&2; exit 1
}
stop_daemon() { "$lwr" --source-root "$1" --cache-dir "$2" index stop >/dev/null; wait "$daemon" 2>/dev/null || true; daemon=; }

# compare ROOT CACHE LABEL: lwr search through the daemon and rg -l -F with
# the same words, interleaved, 2 rounds over the dev queries.
compare() {
  local root=$1 cache=$2 label=$3 lw=() rw=()
  for round in 1 2; do
    for q in "${queries[@]}"; do
      read -r -a words <<<"$q"
      t0=$(now); "$lwr" --source-root "$root" --cache-dir "$cache" search --format json "$q" >/dev/null; t1=$(now)
      lw+=("$(ms "$t0" "$t1")")
      args=(); for w in "${words[@]}"; do args+=(-e "$w"); done
      t0=$(now); rg -l -F "${args[@]}" "$root" >/dev/null || true; t1=$(now)
      rw+=("$(ms "$t0" "$t1")")
    done
  done
  stats "$label lwr search via daemon, wall" ms "${lw[@]}"
  stats "$label rg -l -F, same words, wall" ms "${rw[@]}"
}

root1="$work/c1/corpus"
mkdir -p "$work/c1" && cp -r "$corpus" "$root1"
start_daemon "$root1" "$work/d1"
rss=$(awk '/VmRSS/ {print $2/1024}' "/proc/$daemon/status")
sleep 2
rss=$(awk '/VmRSS/ {print $2/1024}' "/proc/$daemon/status")
stats "daemon RSS at idle after the initial sync" MiB "$rss"
compare "$root1" "$work/d1" "1×"

# From a save to the change being searchable (polled every 10 ms).
lat=()
for i in $(seq 10); do
  word="lwrbench${RANDOM}x${i}"
  f="$root1/zz-bench/save$i.md"
  mkdir -p "$(dirname "$f")"
  t0=$(now); printf '# 保存 %s\n本文 %s\n' "$i" "$word" >"$f"
  until "$lwr" --source-root "$root1" --cache-dir "$work/d1" search --format json --mode fulltext "$word" | grep -q "save$i.md"; do sleep 0.01; done
  t1=$(now); lat+=("$(ms "$t0" "$t1")")
done
stats "save → searchable through the daemon" ms "${lat[@]}"
stop_daemon "$root1" "$work/d1"

if [ "${BENCH_10X:-1}" = 1 ]; then
  root10="$work/c10"
  for i in $(seq 10); do cp -r "$corpus" "$root10/copy$i" 2>/dev/null || { mkdir -p "$root10"; cp -r "$corpus" "$root10/copy$i"; }; done
  t0=$(now); start_daemon "$root10" "$work/d10"; t1=$(now)
  stats "10× corpus: daemon start and initial sync" s "$(( (t1 - t0) / 1000000 ))e-3"
  compare "$root10" "$work/d10" "10×"
  stop_daemon "$root10" "$work/d10"
fi
