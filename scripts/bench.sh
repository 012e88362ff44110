#!/usr/bin/env bash
# make bench: speed, memory and relevance of lwr on the bench corpus of
# scripts/bench/make-corpus.sh (built here if missing). Every figure is
# measured several times in this run and printed as median (min–max).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=$(realpath -m "${1:-.bench/corpus}")
bench=scripts/bench
runs=${RUNS:-3}
lwr=$PWD/bin/lwr
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ ! -d "$corpus/manpages-ja" ]; then
  "$bench/make-corpus.sh" "$corpus"
fi
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
echo "corpus: $(find "$corpus" -type f | wc -l) files, $(du -sb "$corpus" | cut -f1 | awk '{printf "%.1f MB", $1/1e6}'); $(nproc) cores; $(go version | cut -d' ' -f3)"

# stats NAME UNIT VALUES...: prints the median and the range.
stats() {
  local name=$1 unit=$2; shift 2
  python3 - "$name" "$unit" "$@" <<'PY'
import statistics, sys
name, unit, vals = sys.argv[1], sys.argv[2], [float(v) for v in sys.argv[3:]]
print(f"{name:<44} median {statistics.median(vals):8.3f} {unit:<4} (min {min(vals):.3f} – max {max(vals):.3f}, n={len(vals)})")
PY
}
now() { date +%s.%N; }
elapsed() { python3 -c "print($2 - $1)"; }

# Full build from nothing.
walls=(); rss=(); sizes=()
for i in $(seq "$runs"); do
  rm -rf "$work/cache"
  /usr/bin/time -f "%e %M" -o "$work/time" "$lwr" --source-root "$corpus" --cache-dir "$work/cache" index build >/dev/null
  read -r w m <"$work/time"
  walls+=("$w"); rss+=("$(python3 -c "print($m/1024)")")
  sizes+=("$(du -sb "$work/cache" | cut -f1 | awk '{print $1/1e6}')")
done
stats "full build, wall" s "${walls[@]}"
stats "full build, peak RSS" MiB "${rss[@]}"
stats "index on disk" MB "${sizes[@]}"

# The full build against Groonga with TokenMecab on the same documents, in
# one paired run (cpu and peak memory ratios).
"$bench/groonga.sh" "$corpus" "$lwr" "$work/groonga" "$runs"

# Where a full build's cpu goes (its profile, by the share of cpu under
# each part): kagome's lattice within lwr's Japanese analysis, the bigram
# view, Bleve's segments and their merges, the garbage collector.
LWR_BENCH_CORPUS="$corpus" go test -run '^$' -bench 'CorpusBuild$' -benchtime 1x -cpuprofile "$work/build.cpu" -o "$work/index.test" ./index/ >/dev/null
go tool pprof -top -cum -nodecount=400 "$work/index.test" "$work/build.cpu" 2>/dev/null | awk '
  BEGIN {
    part["lwr/analyzer.(*Analyzer).Terms"] = "Japanese analysis (kagome and folding)"
    part["github.com/ikawaha/kagome/v2/tokenizer.Tokenizer.Analyze"] = "kagome lattice (part of the analysis)"
    part["lwr/analyzer.BigramTerms"] = "bigram view"
    part["github.com/blevesearch/zapx/v17.(*ZapPlugin).newWithChunkMode"] = "Bleve segments written"
    part["github.com/blevesearch/zapx/v17.(*ZapPlugin).MergeUsing"] = "Bleve segments merged"
    part["runtime.gcBgMarkWorker"] = "garbage collector"
  }
  $6 in part {printf "build profile: %-40s %6s of cpu\n", part[$6], $5}'

# No-op build of the unchanged tree.
noop=()
for i in $(seq 7); do
  t0=$(now); "$lwr" --source-root "$corpus" --cache-dir "$work/cache" index build >/dev/null; t1=$(now)
  noop+=("$(elapsed "$t0" "$t1")")
done
stats "no-op build, wall" s "${noop[@]}"

# In-process ranked search, 8 results with snippets, over the dev queries.
p50=()
out=$(LWR_BENCH_CORPUS="$corpus" LWR_TEST_INDEX_DIR="$work/inproc" go test -run '^$' -bench 'CorpusSearch$' -benchtime 600x -count "$runs" ./index/ 2>&1)
while read -r v; do p50+=("$v"); done < <(grep -o '[0-9.]* p50-ms' <<<"$out" | cut -d' ' -f1)
stats "in-process ranked search p50" ms "${p50[@]}"

# The synonym resource (SudachiDict's groups, analyzer/thesaurus): ranked
# search with and without it, side by side; its load (once per process)
# and its share of the binary. The index is the same either way (the
# groups expand queries only): its size is the full build's above.
with=(); without=()
out=$(LWR_BENCH_CORPUS="$corpus" LWR_TEST_INDEX_DIR="$work/inproc" go test -run '^$' -bench 'CorpusSearchThesaurus' -benchtime 600x -count "$runs" ./index/ 2>&1)
while read -r v; do with+=("$v"); done < <(grep 'Thesaurus/with-' <<<"$out" | grep -o '[0-9.]* p50-ms' | cut -d' ' -f1)
while read -r v; do without+=("$v"); done < <(grep 'Thesaurus/without-' <<<"$out" | grep -o '[0-9.]* p50-ms' | cut -d' ' -f1)
stats "synonyms: ranked search p50 with SudachiDict" ms "${with[@]}"
stats "synonyms: ranked search p50 without it" ms "${without[@]}"
go test -run '^$' -bench 'BenchmarkLoad' -benchmem -count "$runs" ./analyzer/thesaurus/ | awk '/^BenchmarkLoad/ {printf "synonyms: load once per process %8.1f ms %6.1f MB allocated\n", $3/1e6, $5/1e6}'
echo "synonyms: embedded $(stat -c %s analyzer/thesaurus/sudachi.tsv.gz | awk '{printf "%.2f MB", $1/1e6}') of a $(stat -c %s "$lwr" | awk '{printf "%.1f MB", $1/1e6}') binary; index on disk is the same with and without"

# One-shot lwr search, process start to exit, no daemon.
mapfile -t queries < <(tail -n +2 index/testdata/dev-queries.tsv | cut -f2)
shot=()
for i in $(seq 10); do
  q=${queries[$((i % ${#queries[@]}))]}
  t0=$(now); "$lwr" --source-root "$corpus" --cache-dir "$work/cache" search --format json "$q" >/dev/null; t1=$(now)
  shot+=("$(elapsed "$t0" "$t1")")
done
stats "one-shot lwr search (no daemon), wall" s "${shot[@]}"

# Relevance on the development queries, and on the check queries kept out
# of tuning.
for qs in index/testdata/dev-queries.tsv "$(dirname "$0")/../index/testdata/check-queries.tsv"; do
  LWR="$lwr" LWR_ARGS="--source-root $corpus --cache-dir $work/cache" "$bench/run-lwr.sh" "$qs" "$work/run.tsv" 2>/dev/null
  echo "relevance on $qs:"
  python3 "$bench/eval.py" "$qs" "$work/run.tsv" | sed 's/^/  /'
done

# Answers on real documents (testdata/realdev): answer MRR@10, answer@1 and
# file MRR@10 on the tuning part, the part kept out of tuning and, when it
# is there, the blind sets.
for part in tune holdout blind blind2 blind3; do
  [[ $part == blind* && ! -f testdata/realdev/$part-queries.tsv ]] && continue
  "$bench/realdev.sh" "$part" "$lwr"
done
# The same on real company rules (testdata/realrules).
"$bench/realdev.sh" realrules "$lwr"
"$bench/realdev.sh" rulesblind "$lwr"
"$bench/realdev.sh" rulesblind3 "$lwr"
"$bench/realdev.sh" rulesblind4 "$lwr"

# The daemon: search latency against ripgrep at 1× and 10×, save-to-search
# latency, idle memory.
"$(dirname "$0")/bench-daemon.sh" "$corpus" "$lwr" "$work"

# lwr research end to end with the daemon: offline, and with the web from
# the cache (a fake SearXNG on loopback).
"$(dirname "$0")/bench-research.sh" "$corpus" "$lwr" "$work"

# PDF, Word, Excel and PowerPoint: a generated corpus of a few hundred
# documents (Japanese man page text): full build, no-op build, extraction
# MB/s per format, and pdftotext alone on the same PDFs.
if /usr/bin/python3 -c 'import docx, openpyxl, reportlab' 2>/dev/null && command -v pdftotext >/dev/null; then
  office=$work/office
  /usr/bin/python3 "$(dirname "$0")/make-office-corpus.py" "$corpus" "$office" 100 >/dev/null
  echo "office corpus: $(ls "$office" | wc -l) files, $(du -sb "$office" | cut -f1 | awk '{printf "%.1f MB", $1/1e6}')"
  walls=(); rss=()
  for i in $(seq "$runs"); do
    rm -rf "$work/ocache"
    /usr/bin/time -f "%e %M" -o "$work/time" "$lwr" --source-root "$office" --cache-dir "$work/ocache" index build >/dev/null
    read -r w m <"$work/time"
    walls+=("$w"); rss+=("$(python3 -c "print($m/1024)")")
  done
  stats "office: full build, wall" s "${walls[@]}"
  stats "office: full build, peak RSS" MiB "${rss[@]}"
  noop=()
  for i in $(seq 7); do
    t0=$(now); "$lwr" --source-root "$office" --cache-dir "$work/ocache" index build >/dev/null; t1=$(now)
    noop+=("$(elapsed "$t0" "$t1")")
  done
  stats "office: no-op build (extracts nothing), wall" s "${noop[@]}"
  LWR_BENCH_OFFICE=$office go test -run '^$' -bench 'BenchmarkExtract' -benchtime 3x ./index/extract/ | grep -E '^BenchmarkExtract' | awk '{printf "office: extraction %-24s %8s MB/s\n", $1, $(NF-1)}'
  pdf=()
  for i in $(seq "$runs"); do
    t0=$(now); for f in "$office"/*.pdf; do pdftotext -enc UTF-8 "$f" - >/dev/null; done; t1=$(now)
    pdf+=("$(elapsed "$t0" "$t1")")
  done
  stats "office: pdftotext alone on the same PDFs" s "${pdf[@]}"
else
  echo "office: python3-docx, python3-openpyxl, python3-reportlab or pdftotext missing; office benchmark skipped"
fi
