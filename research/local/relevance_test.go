package local

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"lwr/config/configtest"
	"lwr/index"
	"lwr/research/researchtest"
)

// TestRulesRelevance runs the everyday questions of
// testdata/rules-queries.tsv (written from the documents of
// testdata/rules before lwr ran on them) through a session, policies
// applied, and holds their MRR@10 and nDCG@10 to a floor. -v logs each
// question's rank and the top three.
func TestRulesRelevance(t *testing.T) {
	data, err := os.ReadFile("testdata/rules-queries.tsv")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(researchtest.Repo(), "testdata", "rules")
	s := NewSession(Options{Index: index.Options{Root: root, Dir: configtest.TempDir(t)}, AutoBuild: &AutoBuild{}})
	defer s.Close()
	var mrr, ndcg float64
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
		mrr += rr
		ndcg += n
		var top []string
		for _, p := range ranked[:min(3, len(ranked))] {
			top = append(top, fmt.Sprintf("%s*%d", p[strings.LastIndexByte(p, '/')+1:], grades[p]))
		}
		t.Logf("%s RR=%.2f nDCG=%.2f %s %v", f[0], rr, n, f[1], top)
	}
	mrr /= float64(len(lines))
	ndcg /= float64(len(lines))
	t.Logf("rules: relevance MRR@10=%.4f nDCG@10=%.4f over %d queries", mrr, ndcg, len(lines))
	if mrr < rulesMRR || ndcg < rulesNDCG {
		t.Errorf("MRR@10 %.4f (want ≥ %.2f), nDCG@10 %.4f (want ≥ %.2f)", mrr, rulesMRR, ndcg, rulesNDCG)
	}
}

// The floors of TestRulesRelevance.
const rulesMRR, rulesNDCG = 0.88, 0.88
