#!/usr/bin/env bash
# Fails when a package depends (directly or not) on a lwr package it may not
# use. The direction:
#
#   cmd → research/agent (MCP) → research → research/local → {index, policy} → analyzer/edition → analyzer → config
#   index → index/extract (PDF and Office text; imports no lwr package)
#   index → analyzer/thesaurus (SudachiDict's synonym groups; imports no lwr package)
#   research → research/report → {policy, research/understand}     research/local → research/report
#   research → web;  research/understand → web → analyzer
#   {cmd, research/agent} → research/deep (deep research: plan, phases, state) → research
#   cmd → research/agent/skill → config (the shipped skill stands alone)
#   {index, web} → config/boltfile (bbolt files opened guarded; imports no lwr package)
#
# index, policy and web never depend on each other; nothing depends on cmd;
# research/local and research/report never depend on the pipeline
# (research), nor report on local. The commands that only search, index,
# validate or finalize import no pipeline either (checked per file).
set -euo pipefail
cd "$(dirname "$0")/.."
mod=$(go list -m)
declare -A allowed=(
  [config]=""
  [config/configtest]=""
  [config/boltfile]=""
  [analyzer]="config"
  [analyzer/edition]="analyzer config"
  [analyzer/thesaurus]=""
  [analyzer/thesaurus/internal/gen]="analyzer config"
  [analyzer/internal/basegen]=""
  [index/extract]=""
  [index]="index/extract analyzer/edition analyzer/thesaurus analyzer config config/boltfile"
  [policy]="analyzer/edition analyzer config"
  [web]="analyzer config config/boltfile"
  [web/webtest]="web analyzer config config/boltfile"
  [research/understand]="web analyzer config config/boltfile"
  [research/report]="research/understand index index/extract policy web analyzer/edition analyzer config config/boltfile analyzer/thesaurus"
  [research/local]="research/report research/understand index index/extract policy web analyzer/edition analyzer config config/boltfile analyzer/thesaurus"
  [research]="research/local research/report research/understand index index/extract policy web analyzer/edition analyzer config config/boltfile analyzer/thesaurus"
  [research/deep]="research research/local research/report research/understand index index/extract policy web analyzer/edition analyzer config config/boltfile analyzer/thesaurus"
  [research/researchtest]="config/configtest research/report research/understand index index/extract policy web analyzer/edition analyzer config config/boltfile analyzer/thesaurus"
  [research/agent]="research/agent/skill research/deep research research/local research/report research/understand index index/extract policy web analyzer/edition analyzer config config/boltfile analyzer/thesaurus"
  [research/agent/skill]="config"
  [cmd/lwr]="research/agent/skill research/agent research/deep research research/local research/report research/understand index index/extract policy web analyzer/edition analyzer config config/boltfile analyzer/thesaurus"
)
status=0
for pkg in "${!allowed[@]}"; do
  [[ -d $pkg ]] || continue
  while read -r dep; do
    [[ $dep == "$mod/"* ]] || continue
    rel=${dep#"$mod/"}
    [[ $rel == "$pkg" ]] && continue
    ok=0
    for a in ${allowed[$pkg]}; do [[ $rel == "$a" ]] && ok=1; done
    if ((ok == 0)); then
      echo "import rule broken: $pkg depends on $rel (allowed: ${allowed[$pkg]:-nothing})" >&2
      status=1
    fi
  done < <(go list -deps "./$pkg")
done
# Every package of the module is named above.
while read -r p; do
  rel=${p#"$mod"}; rel=${rel#/}
  [[ -n ${allowed[$rel]+x} ]] || { echo "package $rel has no place in scripts/check-imports.sh" >&2; status=1; }
done < <(go list ./... | grep -v '/third_party/')
# The commands that do not research import no pipeline.
for f in cmd/lwr/search_cmd.go cmd/lwr/index_cmd.go cmd/lwr/daemon_cmd.go cmd/lwr/validate_cmd.go cmd/lwr/finalize_cmd.go; do
  if grep -q '^[[:space:]]*"lwr/research"$' "$f"; then
    echo "$f imports the research pipeline (lwr/research); use lwr/research/local or lwr/research/report" >&2
    status=1
  fi
done
# The daemon's server lives in research/local, not in the pipeline.
if grep -l 'net\.Listen\|\.Accept()' research/*.go 2>/dev/null; then
  echo "research/ serves a socket; the daemon belongs in research/local" >&2
  status=1
fi
# Every package says what it owns.
while read -r d; do
  name=$(basename "$d")
  [[ $d == cmd/* ]] && continue
  # A command (package main) says what it does: "// Command <name> ...".
  grep -qs "^// Command $name " "$d"/*.go && continue
  grep -q "^// Package $name " "$d/doc.go" 2>/dev/null || grep -qs "^// Package $name " "$d"/*.go || { echo "$d lacks a package comment" >&2; status=1; }
done < <(go list -f '{{.Dir}}' ./... | grep -v '/third_party/' | sed "s|^$PWD/||")
exit $status
