#!/usr/bin/env bash
# Runs every query of a queries TSV through `lwr search` and writes a run file
# for eval.py.
#
#   scripts/bench/run-lwr.sh QUERIES_TSV OUT_RUN
#   LWR=/path/to/lwr LWR_ARGS="--cache-dir DIR" scripts/bench/run-lwr.sh q.tsv run.tsv
#   python3 scripts/bench/eval.py q.tsv run.tsv --verbose
#
# For each query it runs:  $LWR $LWR_ARGS search --format json --max-files 10 "QUERY"
# (LWR defaults to `lwr`; LWR_ARGS is optional, word-split, placed before
# `search`, e.g. global flags selecting the index) and reads the JSON's
# `matches` array; each item's `path` (relative to the source root) becomes one
# row `qid<TAB>rank<TAB>path<TAB>snippetStartLine<TAB>snippetEndLine`, duplicates dropped, first 10
# distinct files kept (eval.py reads the first three columns; answer-eval.py the lines too).
# A query whose command fails or prints no JSON gets no rows (scores 0) and a
# warning on stderr. Needs bash and python3.
set -euo pipefail
queries=${1:?usage: run-lwr.sh QUERIES_TSV OUT_RUN}
out=${2:?usage: run-lwr.sh QUERIES_TSV OUT_RUN}
lwr=${LWR:-lwr}
read -r -a extra <<<"${LWR_ARGS:-}"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
: >"$out"
tail -n +2 "$queries" | while IFS=$'\t' read -r qid query _; do
  [[ -z $qid ]] && continue
  # One retry: a daemon that has just started may not answer the first one.
  if ! $lwr "${extra[@]}" search --format json --max-files 10 "$query" >"$tmp" 2>/dev/null &&
    ! $lwr "${extra[@]}" search --format json --max-files 10 "$query" >"$tmp" 2>/dev/null; then
    # a non-zero exit with valid JSON (e.g. "no matches") is still parsed below
    [[ -s $tmp ]] || { echo "run-lwr: $qid: lwr failed" >&2; continue; }
  fi
  python3 - "$qid" "$tmp" >>"$out" <<'PY' || echo "run-lwr: $qid: unreadable JSON" >&2
import json, sys
qid, path = sys.argv[1], sys.argv[2]
doc = json.load(open(path, encoding="utf-8"))
seen = []
for m in doc.get("matches") or []:
    p = m.get("path", "")
    while p.startswith("./"):
        p = p[2:]
    if p and p not in [s[0] for s in seen]:
        seen.append((p, m.get("snippetStartLine", 0), m.get("snippetEndLine", 0)))
for i, (p, a, b) in enumerate(seen[:10], 1):
    print(f"{qid}\t{i}\t{p}\t{a}\t{b}")
PY
done
echo "run-lwr: wrote $(wc -l <"$out") rows for $(tail -n +2 "$queries" | grep -c .) queries to $out" >&2
