package index

import (
	"fmt"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2/search"

	"lwr/config/configtest"
)

// A tie across the cut is left out: which of equal passages the index
// returns there depends on how its segments were written.
func TestAboveCut(t *testing.T) {
	hits := func(scores ...float64) search.DocumentMatchCollection {
		var out search.DocumentMatchCollection
		for i, s := range scores {
			out = append(out, &search.DocumentMatch{ID: fmt.Sprint(i), Score: s})
		}
		return out
	}
	for _, tc := range []struct {
		scores []float64
		size   int
		want   int
	}{
		{[]float64{5, 4, 3}, 3, 3},       // no hit past the cut
		{[]float64{5, 4, 3, 2}, 3, 3},    // none ties across it
		{[]float64{5, 3, 3, 3}, 3, 1},    // the two 3s before the cut go with the one past it
		{[]float64{5, 4, 3, 3, 2}, 3, 2}, // a tie just across the cut
		{[]float64{3, 3, 3, 3}, 3, 0},    // all tie: ask for more
	} {
		if got := len(aboveCut(hits(tc.scores...), tc.size)); got != tc.want {
			t.Errorf("aboveCut(%v, %d) keeps %d hits, want %d", tc.scores, tc.size, got, tc.want)
		}
	}
}

// Copies of a file score alike: the results are the same however the
// index was written, copies in path order, even when more copies match
// than the passages a search asks the index for.
func TestCopiesComeInPathOrder(t *testing.T) {
	rule := "# 旅費規程\n\n## 第5条（日当）\n出張の日当は、1日につき2,000円とする。\n"
	files := map[string]string{}
	var want []string
	for i := range 20 {
		p := fmt.Sprintf("写し%02d/旅費規程.md", i)
		files[p] = rule
		want = append(want, p)
	}
	root := tree(t, files)
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	res := find(t, ix, "出張の日当はいくら", SearchOptions{Limit: 3})
	if got := paths(res); !slices.Equal(got, want[:3]) {
		t.Errorf("matches %v, want %v", got, want[:3])
	}
}
