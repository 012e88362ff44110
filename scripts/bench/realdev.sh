#!/usr/bin/env bash
# Answer and file relevance of lwr on testdata/realdev (real public documents
# of 7 organisations; see its SOURCES.md): builds an index of the folder,
# runs every question of one part of the set through `lwr search`, and
# prints answer MRR@10, answer@1 and file MRR@10, overall and for the
# everyday questions.
#
#   scripts/bench/realdev.sh [tune|holdout|all|blind|blind2|blind3|realrules|rulesblind|rulesblind3|rulesblind4] [LWR]
#
# tune and holdout are the two parts of split.tsv (questions of holdout are
# kept out of tuning); blind is blind-queries.tsv with blind-answers.tsv,
# blind2 blind2-queries.tsv with blind2-answers.tsv (a second set written
# from the documents alone), blind3 the same of blind3-*.tsv (a third); realrules is testdata/realrules (public company
# rules, its questions written the same way), rulesblind its blind-queries.tsv
# with blind-answers.tsv (a further set, kept out of tuning), rulesblind3
# its blind3-queries.tsv with blind3-answers.tsv (a third, written from the
# documents alone), rulesblind4 its blind4-*.tsv (a fourth, the same way).
# LWR defaults to bin/lwr (make build). RUN_OUT=FILE keeps the run file;
# VERBOSE=1 prints a line per question.
set -euo pipefail
cd "$(dirname "$0")/../.."
part=${1:-tune}
lwr=$(realpath "${2:-bin/lwr}")
set_dir=testdata/realdev
[[ $part == realrules || $part == rulesblind* ]] && set_dir=testdata/realrules
work=$(mktemp -d)
stop() { "$lwr" --source-root "$set_dir/docs" --cache-dir "$work/cache" index stop >/dev/null 2>&1 || true; rm -rf "$work"; }
trap stop EXIT
case $part in
  blind | blind2 | blind3) queries=$set_dir/$part-queries.tsv answers=$set_dir/$part-answers.tsv kinds=$set_dir/$part-queries.tsv ;;
  rulesblind) queries=$set_dir/blind-queries.tsv answers=$set_dir/blind-answers.tsv kinds=$set_dir/blind-queries.tsv ;;
  rulesblind3 | rulesblind4) n=${part#rulesblind} queries=$set_dir/blind$n-queries.tsv answers=$set_dir/blind$n-answers.tsv kinds=$set_dir/blind$n-queries.tsv ;;
  realrules) queries=$set_dir/queries.tsv answers=$set_dir/answers.tsv kinds=$set_dir/queries.tsv ;;
  tune | holdout | all) queries=$set_dir/queries.tsv answers=$set_dir/answers.tsv kinds=$set_dir/query_kinds.tsv ;;
  *) echo "usage: scripts/bench/realdev.sh [tune|holdout|all|blind|blind2|blind3|realrules|rulesblind|rulesblind3|rulesblind4] [LWR]" >&2; exit 2 ;;
esac
[[ -f $queries && -f $answers ]] || { echo "realdev: $queries or $answers is missing" >&2; exit 2; }
# keep QIDS_FILE FILE: the rows of FILE (header kept) whose qid is listed.
keep() { awk -F'\t' 'NR==FNR {want[$1]=1; next} FNR==1 || ($1 in want)' "$1" "$2"; }
case $part in
  tune | holdout) awk -F'\t' -v p="$part" 'NR>1 && $2==p {print $1}' $set_dir/split.tsv >"$work/qids" ;;
  *) tail -n +2 "$queries" | cut -f1 >"$work/qids" ;;
esac
# Everyday questions: query_kinds.tsv's kind, or the blind set's fourth column.
if [[ $part == blind* || $part == realrules || $part == rulesblind* ]]; then
  awk -F'\t' 'NR>1 && $4=="everyday" {print $1}' "$kinds" >"$work/everyday"
else
  awk -F'\t' 'NR>1 && $2=="everyday" {print $1}' "$kinds" >"$work/everyday"
fi
grep -Fxf "$work/everyday" "$work/qids" >"$work/qids-everyday" || true
"$lwr" --source-root "$set_dir/docs" --cache-dir "$work/cache" index build >/dev/null
# The daemon answers the questions (one dictionary load, not one a question).
"$lwr" --source-root "$set_dir/docs" --cache-dir "$work/cache" index watch --detach >/dev/null
keep "$work/qids" "$queries" >"$work/q.tsv"
LWR="$lwr" LWR_ARGS="--source-root $set_dir/docs --cache-dir $work/cache" scripts/bench/run-lwr.sh "$work/q.tsv" "$work/run.tsv" 2>/dev/null
[[ -n ${RUN_OUT:-} ]] && cp "$work/run.tsv" "$RUN_OUT"
report() {
  local name=$1 qids=$2
  keep "$qids" "$answers" >"$work/a.tsv"
  keep "$qids" "$work/run.tsv" >"$work/r.tsv"
  python3 scripts/bench/answer-eval.py "$work/a.tsv" "$work/r.tsv" --json | python3 -c '
import json, sys
r = json.load(sys.stdin)
print("realdev %-18s answer MRR@10 %.4f  answer@1 %.4f  file MRR@10 %.4f  (%d questions)" % (sys.argv[1], r["answer MRR@10"], r["answer@1"], r["file MRR@10"], r["queries"]))' "$name"
  if [[ -n ${VERBOSE:-} ]]; then python3 scripts/bench/answer-eval.py "$work/a.tsv" "$work/r.tsv" --verbose | grep -v '^answer\|^file\|^queries' | sed 's/^/  /'; fi
}
report "$part" "$work/qids"
report "$part everyday" "$work/qids-everyday"
