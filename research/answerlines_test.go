package research

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"lwr/research/researchtest"
)

// TestKeyPointsStateTheAnswer runs the questions of
// testdata/answer-lines.tsv (everyday questions over testdata/training and
// testdata/rulesb, each with the lines of the documents that state its
// answer, written from the documents) through research, web skipped, and
// counts the reports whose first key point cites one of those lines and
// those where some key point does. -v logs each question's first point.
func TestKeyPointsStateTheAnswer(t *testing.T) {
	data, err := os.ReadFile("testdata/answer-lines.tsv")
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(data)), "\n")[1:]
	first, anywhere := 0, 0
	for _, row := range rows {
		f := strings.Split(row, "\t")
		root := filepath.Join(researchtest.Repo(), "testdata", f[0])
		// path → the line ranges that state the answer
		want := map[string][][2]int{}
		for _, doc := range strings.Split(f[2], ";") {
			k := strings.LastIndexByte(doc, ':')
			for _, r := range strings.Split(doc[k+1:], ",") {
				a, b, _ := strings.Cut(r, "-")
				lo, _ := strconv.Atoi(a)
				hi, _ := strconv.Atoi(b)
				want[doc[:k]] = append(want[doc[:k]], [2]int{lo, hi})
			}
		}
		ix := openIndex(t, root)
		out, _, err := runIn(t, Options{Query: f[1], SourceRoot: root, Local: localOf(ix, root), SkipWeb: true, Timestamp: testNow()})
		if err != nil {
			t.Fatalf("%s: %v", f[1], err)
		}
		hit := func(p Point) bool {
			for _, r := range want[p.Where] {
				if p.Line <= r[1] && max(p.Line, p.EndLine) >= r[0] {
					return true
				}
			}
			return false
		}
		ps := out.Report.Conclusion.Points
		got := ""
		if len(ps) > 0 {
			got = ps[0].Where + " L" + strconv.Itoa(ps[0].Line) + ": " + ps[0].Text
			if hit(ps[0]) {
				first++
			}
		}
		for _, p := range ps {
			if hit(p) {
				anywhere++
				break
			}
		}
		t.Logf("%s → %s", f[1], got)
	}
	t.Logf("key points: the first states the answer in %d of %d reports, some point in %d", first, len(rows), anywhere)
	if first < minFirstAnswers || anywhere < minAnyAnswers {
		t.Errorf("the first key point states the answer in %d of %d reports (want ≥ %d), some point in %d (want ≥ %d)", first, len(rows), minFirstAnswers, anywhere, minAnyAnswers)
	}
}

// The floors of TestKeyPointsStateTheAnswer, of its 60 questions.
const minFirstAnswers, minAnyAnswers = 36, 42
