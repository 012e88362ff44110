package local

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"lwr/config/configtest"
	"lwr/index"
	"lwr/research/researchtest"
)

// TestRulesRelevance runs the questions of two folders of company rules
// through a session, policies applied, and holds their MRR@10 and nDCG@10
// to a floor: testdata/rules with the everyday questions of
// testdata/rules-queries.tsv, and testdata/rulesb with those of
// testdata/rulesb-queries.tsv (everyday and formal wording, kept apart in
// the log). Both sets were written from the documents before lwr ran on
// them. -v logs each question's rank and the top three.
func TestRulesRelevance(t *testing.T) {
	for _, set := range []struct {
		name, folder, queries string
		mrr, ndcg             float64
	}{
		{"rules", "rules", "testdata/rules-queries.tsv", 0.90, 0.90},
		{"rulesb", "rulesb", "testdata/rulesb-queries.tsv", rulesbMRR, rulesbNDCG},
		{"training", "training", "testdata/training-queries.tsv", 0.92, 0.89},
	} {
		t.Run(set.name, func(t *testing.T) {
			rulesRelevance(t, set.name, set.folder, set.queries, set.mrr, set.ndcg)
		})
	}
}

// The floors of the rulesb set.
const rulesbMRR, rulesbNDCG = 0.88, 0.84

func rulesRelevance(t *testing.T, name, folder, queries string, minMRR, minNDCG float64) {
	data, err := os.ReadFile(queries)
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(researchtest.Repo(), "testdata", folder)
	s := NewSession(Options{Index: index.Options{Root: root, Dir: configtest.TempDir(t)}, AutoBuild: &AutoBuild{}})
	defer s.Close()
	// Sums by the question's kind (the fourth column, if any), "" for all.
	mrr, ndcg, count := map[string]float64{}, map[string]float64{}, map[string]int{}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")[1:]
	for _, l := range lines {
		f := strings.Split(l, "\t")
		grades := map[string]int{}
		for _, item := range strings.Split(f[2], ",") {
			k := strings.LastIndexByte(item, ':')
			g, _ := strconv.Atoi(item[k+1:])
			grades[item[:k]] = g
		}
		q, err := index.ParseQuery(f[1])
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Search(context.Background(), Request{Query: q, Mode: index.Ranked, Limit: 10, MaxChars: 80})
		if err != nil {
			t.Fatal(err)
		}
		var ranked []string
		for _, m := range res.Matches {
			ranked = append(ranked, m.Path)
		}
		rr, n := configtest.RankMetrics(ranked, grades)
		kinds := []string{""}
		if len(f) > 3 && f[3] != "" {
			kinds = append(kinds, f[3])
		}
		for _, k := range kinds {
			mrr[k] += rr
			ndcg[k] += n
			count[k]++
		}
		var top []string
		for _, p := range ranked[:min(3, len(ranked))] {
			top = append(top, fmt.Sprintf("%s*%d", p[strings.LastIndexByte(p, '/')+1:], grades[p]))
		}
		t.Logf("%s RR=%.2f nDCG=%.2f %s %v", f[0], rr, n, f[1], top)
	}
	var kinds []string
	for k := range count {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		label := name
		if k != "" {
			label += " (" + k + ")"
		}
		t.Logf("%s: relevance MRR@10=%.4f nDCG@10=%.4f over %d queries", label, mrr[k]/float64(count[k]), ndcg[k]/float64(count[k]), count[k])
	}
	if m, n := mrr[""]/float64(count[""]), ndcg[""]/float64(count[""]); m < minMRR || n < minNDCG {
		t.Errorf("MRR@10 %.4f (want ≥ %.2f), nDCG@10 %.4f (want ≥ %.2f)", m, minMRR, n, minNDCG)
	}
}
