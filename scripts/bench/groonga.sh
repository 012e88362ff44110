#!/usr/bin/env bash
# The build cost of lwr against Groonga with TokenMecab (MeCab, IPA
# dictionary) on the same documents, measured in one paired run: each round
# times Groonga's static build (load the documents, then create the index
# column) and lwr's full build (index build --force) one after the other,
# and the medians of cpu (user+sys) and peak RSS are compared.
#
#   scripts/bench/groonga.sh CORPUS LWR WORKDIR [ROUNDS]
#
# Installs Debian's groonga, groonga-tokenizer-mecab and mecab-ipadic-utf8
# when missing (needs apt). Prints one line per figure and the ratios.
set -euo pipefail
corpus=$(realpath "$1") lwr=$(realpath "$2") work=$3 rounds=${4:-3}
mkdir -p "$work"
if ! command -v groonga >/dev/null || ! dpkg -s groonga-tokenizer-mecab mecab-ipadic-utf8 >/dev/null 2>&1; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq groonga groonga-tokenizer-mecab mecab-ipadic-utf8 >/dev/null
fi
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
# MeCab reads the dictionary its mecabrc names; Debian points that at the
# highest-priority dictionary installed (mecab-naist-jdic, which
# groonga-tokenizer-mecab pulls in, over ipadic), so the IPA dictionary lwr
# uses is named here.
ipadic=/var/lib/mecab/dic/ipadic-utf8
[[ -d $ipadic ]] || { echo "groonga: $ipadic is missing (apt-get install mecab-ipadic-utf8)" >&2; exit 1; }
printf 'dicdir = %s\n' "$ipadic" >"$work/mecabrc"
export MECABRC=$work/mecabrc

# The documents as Groonga's load command takes them (not timed): every
# file lwr indexes, by its path, as UTF-8 text.
python3 - "$corpus" "$work/load.grn" <<'PY'
import json, os, sys
root, out = sys.argv[1], sys.argv[2]
docs = []
for d, _, files in os.walk(root):
    for f in sorted(files):
        p = os.path.join(d, f)
        with open(p, "rb") as fh:
            docs.append({"_key": os.path.relpath(p, root), "body": fh.read().decode("utf-8", "replace")})
with open(out, "w", encoding="utf-8") as fh:
    fh.write("table_create Docs TABLE_HASH_KEY ShortText\n")
    fh.write("column_create Docs body COLUMN_SCALAR LongText\n")
    fh.write("load --table Docs\n")
    json.dump(docs, fh, ensure_ascii=False)
    fh.write("\n")
    fh.write("table_create Terms TABLE_PAT_KEY ShortText --default_tokenizer TokenMecab --normalizer NormalizerAuto\n")
    fh.write("column_create Terms docs_body COLUMN_INDEX|WITH_POSITION Docs body\n")
print(f"groonga: {len(docs)} documents to load", file=sys.stderr)
PY

median() { python3 -c 'import statistics,sys; print(statistics.median(float(v) for v in sys.argv[1:]))' "$@"; }
g_cpu=(); g_rss=(); l_cpu=(); l_rss=()
for i in $(seq "$rounds"); do
  rm -rf "$work/grn" && mkdir -p "$work/grn"
  /usr/bin/time -f "%U %S %M" -o "$work/time" groonga -n "$work/grn/db" <"$work/load.grn" >"$work/grn.out"
  grep -q '"TokenMecab"\|\[\[-' "$work/grn.out" && { echo "groonga: the build failed: $(head -c 300 "$work/grn.out")" >&2; exit 1; }
  read -r u s m <"$work/time"; g_cpu+=("$(python3 -c "print($u+$s)")"); g_rss+=("$(python3 -c "print($m/1024)")")
  rm -rf "$work/lcache"
  /usr/bin/time -f "%U %S %M" -o "$work/time" "$lwr" --source-root "$corpus" --cache-dir "$work/lcache" index build --force >/dev/null
  read -r u s m <"$work/time"; l_cpu+=("$(python3 -c "print($u+$s)")"); l_rss+=("$(python3 -c "print($m/1024)")")
done
gc=$(median "${g_cpu[@]}") gr=$(median "${g_rss[@]}") lc=$(median "${l_cpu[@]}") lr=$(median "${l_rss[@]}")
printf 'build vs groonga: groonga+TokenMecab cpu %.2f s, peak %.0f MiB; lwr cpu %.2f s, peak %.0f MiB (medians of %d paired rounds)\n' "$gc" "$gr" "$lc" "$lr" "$rounds"
printf 'build vs groonga: cpu ratio %.2fx, peak ratio %.2fx\n' "$(python3 -c "print($lc/$gc)")" "$(python3 -c "print($lr/$gr)")"
