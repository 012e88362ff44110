#!/usr/bin/env bash
# Builds a real Japanese document corpus from Debian's Japanese documentation,
# for benchmarks and relevance evaluation. Nothing in it is written by this project.
#
#   scripts/bench/make-corpus.sh OUT_DIR
#
# Layout (stable: evaluation files refer to these relative paths):
#   OUT_DIR/manpages-ja/manN/NAME.N.txt   rendered Japanese man pages (UTF-8 text)
#   OUT_DIR/debian-policy-ja/NAME.rst.txt Debian Policy Manual chapters (reStructuredText)
#   OUT_DIR/debian-faq-ja/debian-faq.ja.txt the Debian FAQ (one long text file)
set -euo pipefail
out=${1:?usage: make-corpus.sh OUT_DIR}
need=()
for p in manpages-ja manpages-ja-dev debian-policy-ja debian-faq-ja man-db groff-base bsdextrautils; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if ((${#need[@]})); then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
mkdir -p "$out/manpages-ja" "$out/debian-policy-ja" "$out/debian-faq-ja"
export MANWIDTH=100 LANG=C.UTF-8 LC_ALL=C.UTF-8 MAN_KEEP_FORMATTING=0
n=0
while IFS= read -r -d '' f; do
  rel=${f#/usr/share/man/ja/}
  rel=${rel%.gz}
  dst="$out/manpages-ja/$rel.txt"
  [[ -s $dst ]] && { n=$((n+1)); continue; }
  mkdir -p "$(dirname "$dst")"
  # A page that only sources another (.so) renders to the target's text; keep it too.
  if man -l "$f" 2>/dev/null | col -bx >"$dst.tmp" && [[ -s $dst.tmp ]]; then
    mv "$dst.tmp" "$dst"; n=$((n+1))
  else
    rm -f "$dst.tmp"
  fi
done < <(find /usr/share/man/ja -type f -name '*.gz' -print0 | sort -z)
for f in /usr/share/doc/debian-policy/ja/policy.html/_sources/*.rst.txt; do
  cp "$f" "$out/debian-policy-ja/"
done
zcat /usr/share/doc/debian/FAQ/debian-faq.ja.txt.gz >"$out/debian-faq-ja/debian-faq.ja.txt"
echo "corpus: $n man pages, $(ls "$out/debian-policy-ja" | wc -l) policy chapters, 1 FAQ in $out ($(du -sh "$out" | cut -f1))"
