package configtest

import (
	"math"
	"slices"
)

// RankMetrics computes the MRR@10 and nDCG@10 (gain 2^grade-1) of a
// ranked list of paths against graded judgments, as
// scripts/bench/eval.py does.
func RankMetrics(ranked []string, grades map[string]int) (rr, ndcg float64) {
	dcg := 0.0
	for i, p := range ranked[:min(10, len(ranked))] {
		g := grades[p]
		if g > 0 && rr == 0 {
			rr = 1 / float64(i+1)
		}
		dcg += (math.Pow(2, float64(g)) - 1) / math.Log2(float64(i+2))
	}
	var ideal []int
	for _, g := range grades {
		ideal = append(ideal, g)
	}
	slices.Sort(ideal)
	slices.Reverse(ideal)
	idcg := 0.0
	for i, g := range ideal[:min(10, len(ideal))] {
		idcg += (math.Pow(2, float64(g)) - 1) / math.Log2(float64(i+2))
	}
	if idcg > 0 {
		ndcg = dcg / idcg
	}
	return rr, ndcg
}
