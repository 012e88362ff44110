#!/usr/bin/env python3
"""Relevance evaluator for lwr (standard library only).

Usage:
  python3 scripts/bench/eval.py QUERIES_TSV RUN_TSV [--verbose] [--json]

QUERIES_TSV: UTF-8 TSV with header  qid<TAB>query<TAB>relevant
             relevant = path:grade,path:grade,...   (grade 2 = the document the
             user wants, 1 = useful/related; paths relative to the corpus root)
RUN_TSV:     qid<TAB>rank<TAB>path   (rank 1 = best; a header line starting with
             "qid" is allowed; lines are sorted by rank per qid; a path repeated
             within one query counts only at its best rank; a leading "./" is ignored)

Metrics (macro-averaged over ALL queries of QUERIES_TSV; a query missing from
the run scores 0):
  MRR@10   1/rank of the first relevant doc (grade >= 1) within the top 10
  nDCG@10  graded, gain 2^grade - 1, discount log2(rank+1), ideal = judged docs
  Recall@8 share of the judged relevant docs (grade >= 1) found in the top 8
  P@1      1 if the top result is relevant (grade >= 1)
--verbose prints one line per query (metrics, first relevant rank, top 3 of the run).
--json prints the averages as one JSON object instead of the table.
"""
import json
import math
import sys
from collections import defaultdict


def norm(p):
    p = p.strip()
    while p.startswith("./"):
        p = p[2:]
    return p


def load_queries(path):
    qs = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f):
            line = line.rstrip("\n")
            if not line.strip() or (n == 0 and line.startswith("qid\t")):
                continue
            qid, query, rel = line.split("\t")
            judg = {}
            for item in rel.split(","):
                p, g = item.rsplit(":", 1)
                judg[norm(p)] = int(g)
            qs.append((qid, query, judg))
    return qs


def load_run(path):
    rows = defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("qid\t"):
                continue
            qid, rank, p = line.split("\t")[:3]
            rows[qid].append((int(rank), norm(p)))
    run = {}
    for qid, lst in rows.items():
        seen, ranked = set(), []
        for _, p in sorted(lst, key=lambda x: x[0]):
            if p not in seen:
                seen.add(p)
                ranked.append(p)
        run[qid] = ranked
    return run


def score(ranked, judg):
    top10 = ranked[:10]
    rr, first = 0.0, None
    for i, p in enumerate(top10, 1):
        if judg.get(p, 0) > 0:
            rr, first = 1.0 / i, i
            break
    dcg = sum((2 ** judg.get(p, 0) - 1) / math.log2(i + 1) for i, p in enumerate(top10, 1))
    ideal = sorted(judg.values(), reverse=True)[:10]
    idcg = sum((2 ** g - 1) / math.log2(i + 1) for i, g in enumerate(ideal, 1))
    rel = {p for p, g in judg.items() if g > 0}
    recall = len(rel & set(ranked[:8])) / len(rel) if rel else 0.0
    p1 = 1.0 if ranked and judg.get(ranked[0], 0) > 0 else 0.0
    return {"MRR@10": rr, "nDCG@10": dcg / idcg if idcg else 0.0, "Recall@8": recall, "P@1": p1}, first


METRICS = ["MRR@10", "nDCG@10", "Recall@8", "P@1"]


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    verbose, as_json = "--verbose" in argv, "--json" in argv
    qs = load_queries(args[0])
    run = load_run(args[1])
    tot = dict.fromkeys(METRICS, 0.0)
    for qid, query, judg in qs:
        ranked = run.get(qid, [])
        m, first = score(ranked, judg)
        for k in METRICS:
            tot[k] += m[k]
        if verbose:
            top = " | ".join(f"{p}{'*' + str(judg[p]) if p in judg else ''}" for p in ranked[:3])
            print(f"{qid}\t{query}\tRR={m['MRR@10']:.2f} nDCG={m['nDCG@10']:.2f} R@8={m['Recall@8']:.2f} "
                  f"P@1={m['P@1']:.0f} first={first or '-'} n={len(ranked)}\t{top}")
    n = len(qs)
    avg = {k: tot[k] / n for k in METRICS}
    avg["queries"] = n
    avg["queries_in_run"] = sum(1 for qid, _, _ in qs if qid in run)
    if as_json:
        print(json.dumps(avg))
    else:
        print(f"queries={n} (in run: {avg['queries_in_run']})")
        for k in METRICS:
            print(f"{k:9s} {avg[k]:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
