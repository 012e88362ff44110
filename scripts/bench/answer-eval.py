#!/usr/bin/env python3
"""Answer-passage evaluator for lwr (standard library only): does a hit's snippet hold the lines that state the answer?

Usage:
  python3 scripts/bench/answer-eval.py ANSWERS_TSV RUN_TSV [--verbose] [--json]

ANSWERS_TSV: header  qid<TAB>path<TAB>lines<TAB>answer   — one row per document that states the answer; lines are
             the line ranges that state it, counted from 1 as `sed -n` counts them: `L120-L124`, `L120-124,L130`, or
             `全体` / `all` when the whole (short) document is the answer.
RUN_TSV:     qid<TAB>rank<TAB>path<TAB>start<TAB>end   (run-lwr.sh writes it: the snippet's first and last line)

Metrics (macro-averaged over every qid of ANSWERS_TSV; a query missing from the run scores 0):
  answer MRR@10   1/rank of the first hit whose file states the answer AND whose snippet lines overlap the answer lines
  answer@1        1 if that first hit is such a hit
  file MRR@10     1/rank of the first hit whose file states the answer (whatever lines the snippet shows)
The gap between file MRR and answer MRR is how often the right file is found but its wrong passage is shown.
"""
import json, re, sys
from collections import defaultdict


def spans(text):
    if text.strip().lower() in ("全体", "all") or "全体" in text:
        return [(1, 10 ** 9)]
    out = []
    for part in text.split(","):
        m = re.match(r"\s*L?(\d+)(?:\s*-\s*L?(\d+))?", part)
        if m:
            out.append((int(m.group(1)), int(m.group(2) or m.group(1))))
    return out


def load_answers(path):
    ans = defaultdict(dict)
    for n, line in enumerate(open(path, encoding="utf-8")):
        f = line.rstrip("\n").split("\t")
        if n == 0 and f[0] == "qid" or len(f) < 3:
            continue
        ans[f[0]].setdefault(f[1].lstrip("./"), []).extend(spans(f[2]))
    return ans


def load_run(path):
    run = defaultdict(list)
    for line in open(path, encoding="utf-8"):
        f = line.rstrip("\n").split("\t")
        if len(f) < 3 or f[0] == "qid":
            continue
        a = int(f[3]) if len(f) > 3 and f[3].isdigit() else 0
        b = int(f[4]) if len(f) > 4 and f[4].isdigit() else 0
        run[f[0]].append((int(f[1]), f[2].lstrip("./"), a, b))
    return {q: sorted(v) for q, v in run.items()}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    ans, run = load_answers(args[0]), load_run(args[1])
    rows = []
    for qid in sorted(ans):
        frr = arr = 0.0
        for rank, p, a, b in run.get(qid, [])[:10]:
            sp = ans[qid].get(p)
            if sp is None:
                continue
            frr = frr or 1.0 / rank
            if any(a <= y and b >= x for x, y in sp):
                arr = 1.0 / rank
                break
        rows.append((qid, frr, arr))
    n = max(len(rows), 1)
    res = {"answer MRR@10": sum(r[2] for r in rows) / n, "answer@1": sum(r[2] == 1.0 for r in rows) / n,
           "file MRR@10": sum(r[1] for r in rows) / n, "queries": len(rows)}
    if "--verbose" in sys.argv:
        for qid, frr, arr in rows:
            print(f"{qid}\tfileRR={frr:.3f}\tanswerRR={arr:.3f}")
    if "--json" in sys.argv:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k:14s}{v:.4f}" if k != "queries" else f"{k:14s}{v}")


if __name__ == "__main__":
    main()
