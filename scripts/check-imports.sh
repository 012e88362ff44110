#!/usr/bin/env bash
# Fails when a package depends (directly or not) on a lwr package it may not
# use. The direction:
#
#   cmd → research/agent (MCP) → research → research/local/daemon → research/local → {index, policy} → analyzer/edition → analyzer → config → config/glob
#   research/local/daemon: the daemon, its client, its thin server, its wire types and transports, and the router
#   research/local: the in-process Searcher (Session), Request and its Check, rendering, the error outcomes; it imports no network
#   index → index/extract (PDF and Office text; imports no lwr package)
#   index → analyzer/thesaurus (SudachiDict's synonym groups; imports no lwr package)
#   {analyzer/edition, index, research/report, research, research/deep} → analyzer/lazyre (regular expressions compiled at first use; imports no lwr package)
#   research → research/report → {policy, research/understand}     research/local → research/report
#   research → web → {web/intent, analyzer};  research/understand → web/intent (what a query asks for; imports no lwr package)
#   {cmd, research/agent} → research/deep (deep research: plan, phases, state) → research
#   cmd → research/agent/skill → config (the shipped skill stands alone)
#   {index, web} → config/boltfile (bbolt files opened guarded; imports no lwr package)
#   config → config/glob (the one path-pattern dialect; imports no lwr package)
#
# index, policy and web never depend on each other; nothing depends on cmd;
# research/local and research/report never depend on the pipeline
# (research), nor report on local, nor local on its daemon, nor either on
# web (the network; what a question asks for is web/intent). The commands
# that only search, index, validate or finalize import no pipeline either
# (checked per file).
set -euo pipefail
cd "$(dirname "$0")/.."
mod=$(go list -m)
base="config config/glob"
an="analyzer/edition analyzer analyzer/thesaurus analyzer/lazyre $base"
ix="index index/extract config/boltfile $an"
rep="research/report research/understand web/intent policy $ix"
net="web $rep"
loc="research/local $rep"
declare -A allowed=(
  [config]="config/glob"
  [config/glob]=""
  [config/configtest]=""
  [config/boltfile]=""
  [analyzer]="$base"
  [analyzer/edition]="analyzer analyzer/lazyre $base"
  [analyzer/lazyre]=""
  [analyzer/thesaurus]=""
  [analyzer/thesaurus/internal/gen]="analyzer $base"
  [analyzer/internal/basegen]=""
  [index/extract]=""
  [index]="index/extract analyzer/edition analyzer/thesaurus analyzer/lazyre analyzer config/boltfile $base"
  [policy]="analyzer/edition analyzer/lazyre analyzer $base"
  [web]="web/intent analyzer config/boltfile $base"
  [web/intent]=""
  [web/webtest]="web web/intent analyzer config/boltfile $base"
  [research/understand]="web/intent analyzer config/boltfile $base"
  [research/report]="research/understand web/intent policy $ix"
  [research/local]="$rep"
  [research/local/daemon]="$loc"
  [research/local/localtest]="research/researchtest config/configtest $loc"
  [research]="web $loc"
  [research/deep]="research research/local/daemon web $loc"
  [research/researchtest]="config/configtest $net"
  [research/agent]="research/agent/skill research/deep research research/local/daemon web $loc"
  [research/agent/skill]="$base"
  [cmd/lwr]="research/agent/skill research/agent research/deep research research/local/daemon web $loc"
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
# The daemon is research/local/daemon (package daemon); the pipeline and
# the in-process research/local open no connection of their own.
if [[ $(go list -f '{{.Name}}' ./research/local/daemon) != daemon ]]; then
  echo "research/local/daemon is not package daemon" >&2
  status=1
fi
for pkg in research research/local; do
  if go list -f '{{join .Imports "\n"}}' "./$pkg" | grep -qE '^(net|net/.*|crypto/tls)$'; then
    echo "$pkg imports the network; connections belong in research/local/daemon" >&2
    status=1
  fi
done
if grep -l 'net\.Listen\|\.Accept()\|net\.Dial' research/*.go research/local/*.go 2>/dev/null; then
  echo "research/ or research/local serves or dials a socket; the daemon belongs in research/local/daemon" >&2
  status=1
fi
# The Makefile and the scripts use nothing outside the repository.
outside='\.\./(shared|main|notes)|/work/|\$\(CURDIR\)/\.\.'
if grep -nE "$outside" Makefile $(ls scripts/*.sh scripts/*/*.sh scripts/*.py scripts/*/*.py 2>/dev/null | grep -v check-imports.sh); then
  echo "the Makefile or a script reaches outside the repository" >&2
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
