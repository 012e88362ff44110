#!/usr/bin/env bash
# Fails when a package depends (directly or not) on a lwr package it may not
# use. The direction is cmd → research → {index, policy, web} → analyzer → config;
# index, policy and web never depend on each other.
set -euo pipefail
cd "$(dirname "$0")/.."
mod=$(go list -m)
declare -A allowed=(
  [config]=""
  [analyzer]="config"
  [index]="analyzer config"
  [policy]="analyzer config"
  [web]="analyzer config"
  [research]="index policy web analyzer config"
  [cmd/lwr]="research index policy web analyzer config"
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
# Every package says what it owns.
for d in config analyzer index policy web research; do
  grep -q "^// Package $d " "$d/doc.go" 2>/dev/null || { echo "$d/doc.go lacks a package comment" >&2; status=1; }
done
exit $status
