package research

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"lwr/index"
	"lwr/research/researchtest"
)

// realdevPart is the part of testdata/realdev the research is measured
// on: LWR_REALDEV_PART (tune, holdout, all, blind, blind2 or blind3;
// realrules, rulesblind, rulesblind3 or rulesblind4 for testdata/realrules),
// tune when unset.
func realdevPart() string {
	if p := os.Getenv("LWR_REALDEV_PART"); p != "" {
		return p
	}
	return "tune"
}

// realdevQuestion is one question of testdata/realdev with the lines of
// the documents that state its answer.
type realdevQuestion struct {
	id, text string
	everyday bool
	answers  map[string][][2]int // path → line ranges (1-based, inclusive)
}

// readTSV reads a tab-separated file without its header row.
func readTSV(t *testing.T, name string) [][]string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for i, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if i > 0 && l != "" {
			rows = append(rows, strings.Split(l, "\t"))
		}
	}
	return rows
}

var answerSpan = regexp.MustCompile(`L?(\d+)(?:\s*-\s*L?(\d+))?`)

// answerSpans reads answers.tsv's lines column: L120-L124, L120-124,L130,
// or 全体 / all for the whole document.
func answerSpans(s string) [][2]int {
	if strings.Contains(s, "全体") || strings.EqualFold(strings.TrimSpace(s), "all") {
		return [][2]int{{1, 1 << 30}}
	}
	var out [][2]int
	for _, part := range strings.Split(s, ",") {
		m := answerSpan.FindStringSubmatch(strings.TrimSpace(part))
		if m == nil {
			continue
		}
		a, _ := strconv.Atoi(m[1])
		b := a
		if m[2] != "" {
			b, _ = strconv.Atoi(m[2])
		}
		out = append(out, [2]int{a, b})
	}
	return out
}

// realdevQuestions reads the questions of one part of testdata/realdev:
// tune and holdout are split.tsv's parts of queries.tsv, all is every
// question of it, blind is blind-queries.tsv (its fourth column says
// everyday) with blind-answers.tsv, blind2 and blind3 the same of their
// own files; rulesblind is testdata/realrules' blind-*.tsv, rulesblind3
// and rulesblind4 its blind3-*.tsv and blind4-*.tsv.
func realdevQuestions(t *testing.T, dir, part string) []realdevQuestion {
	t.Helper()
	queries, answers := "queries.tsv", "answers.tsv"
	everyday := map[string]bool{}
	// The blind sets (and realrules) give each question's kind in their
	// fourth column.
	blind := strings.HasPrefix(part, "blind") || part == "realrules" || strings.HasPrefix(part, "rulesblind")
	switch part {
	case "blind", "blind2", "blind3":
		queries, answers = part+"-queries.tsv", part+"-answers.tsv"
	case "rulesblind", "rulesblind3", "rulesblind4":
		n := strings.TrimPrefix(part, "rulesblind")
		queries, answers = "blind"+n+"-queries.tsv", "blind"+n+"-answers.tsv"
	}
	if blind {
		if _, err := os.Stat(filepath.Join(dir, queries)); err != nil {
			t.Skipf("%s has no such set yet (%s)", dir, queries)
		}
	} else {
		for _, r := range readTSV(t, filepath.Join(dir, "query_kinds.tsv")) {
			everyday[r[0]] = len(r) > 1 && r[1] == "everyday"
		}
	}
	keep := map[string]bool{}
	switch part {
	case "tune", "holdout":
		for _, r := range readTSV(t, filepath.Join(dir, "split.tsv")) {
			if len(r) > 1 && r[1] == part {
				keep[r[0]] = true
			}
		}
	case "all", "blind", "blind2", "blind3", "realrules", "rulesblind", "rulesblind3", "rulesblind4":
	default:
		t.Fatalf("LWR_REALDEV_PART=%q: use tune, holdout, all, blind, blind2, blind3, realrules, rulesblind, rulesblind3 or rulesblind4", part)
	}
	var qs []realdevQuestion
	at := map[string]int{}
	for _, r := range readTSV(t, filepath.Join(dir, queries)) {
		if len(keep) > 0 && !keep[r[0]] || len(r) < 2 {
			continue
		}
		q := realdevQuestion{id: r[0], text: r[1], everyday: everyday[r[0]], answers: map[string][][2]int{}}
		if blind {
			q.everyday = len(r) > 3 && r[3] == "everyday"
		}
		at[r[0]] = len(qs)
		qs = append(qs, q)
	}
	for _, r := range readTSV(t, filepath.Join(dir, answers)) {
		if i, ok := at[r[0]]; ok && len(r) > 2 {
			p := strings.TrimPrefix(r[1], "./")
			qs[i].answers[p] = append(qs[i].answers[p], answerSpans(r[2])...)
		}
	}
	return qs
}

// states reports whether a key point cites a line that states the answer.
func (q realdevQuestion) states(p Point) bool {
	for _, r := range q.answers[p.Where] {
		if p.Line <= r[1] && max(p.Line, p.EndLine) >= r[0] {
			return true
		}
	}
	return false
}

// TestRealdevKeyPointsStateTheAnswer runs the questions of one part of
// testdata/realdev (real public documents of seven organisations; see its
// SOURCES.md) through research, web skipped, and counts the reports whose
// first key point cites a line of answers.tsv, overall and for the
// everyday questions. LWR_REALDEV_PART picks the part (tune when unset);
// -v logs each question's first point.
func TestRealdevKeyPointsStateTheAnswer(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("runs every question of the part through research (not in -short or under the race detector)")
	}
	dir := filepath.Join(researchtest.Repo(), "testdata", "realdev")
	part := realdevPart()
	if part == "realrules" || strings.HasPrefix(part, "rulesblind") {
		dir = filepath.Join(researchtest.Repo(), "testdata", "realrules")
	}
	qs := realdevQuestions(t, dir, part)
	root := filepath.Join(dir, "docs")
	ix := openIndexRules(t, root, index.Rules{})
	var first, some, everyday, everydayFirst int
	for _, q := range qs {
		out, _, err := runIn(t, Options{Query: q.text, SourceRoot: root, Local: localOf(ix, root), SkipWeb: true, Timestamp: testNow()})
		if err != nil {
			t.Fatalf("%s: %v", q.id, err)
		}
		ps := out.Report.Conclusion.Points
		got, ok := "(no key point)", false
		switch {
		case out.Report.Conclusion.NotStated != nil:
			// 資料に明記なし leads: the first point is a related line.
			got = "資料に明記なし (" + out.Report.Conclusion.NotStated.Asked + ")"
		case len(ps) > 0:
			got = fmt.Sprintf("%s L%d: %s", ps[0].Where, ps[0].Line, ps[0].Text)
			ok = q.states(ps[0])
		}
		if ok {
			first++
		}
		at := 0 // the first point that states the answer, from 1
		for i, p := range ps {
			if q.states(p) {
				some++
				at = i + 1
				break
			}
		}
		if q.everyday {
			everyday++
			if ok {
				everydayFirst++
			}
		}
		mark := "  "
		switch {
		case ok:
			mark = "✓ "
		case at > 0:
			got += fmt.Sprintf(" (point %d of %d states it)", at, len(ps))
		}
		t.Logf("%s%s %s → %s", mark, q.id, q.text, got)
	}
	t.Logf("realdev %s: the first key point cites an answer line in %d of %d reports (everyday %d of %d, %.0f%%), some point in %d",
		part, first, len(qs), everydayFirst, everyday, 100*float64(everydayFirst)/float64(max(everyday, 1)), some)
	if part == "tune" && everydayFirst < minRealdevEverydayFirst {
		t.Errorf("realdev tune: the first key point cites an answer line in %d of %d everyday reports, want ≥ %d", everydayFirst, everyday, minRealdevEverydayFirst)
	}
}

// minRealdevEverydayFirst is the floor of TestRealdevKeyPointsStateTheAnswer
// on the tune part's 36 everyday questions: 60% of them (25 when it was
// set).
const minRealdevEverydayFirst = 22

// openIndexRules builds (once per root) the index of a source root under
// the given rules (the configuration's defaults when zero).
func openIndexRules(t testing.TB, root string, rules index.Rules) *index.Index {
	t.Helper()
	indexMu.Lock()
	defer indexMu.Unlock()
	if ix, ok := indexes[root]; ok {
		return ix
	}
	ctx := context.Background()
	ix, err := index.Open(ctx, index.Options{Root: root, Dir: filepath.Join(testIndexDir, fmt.Sprint(len(indexes))), Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Build(ctx, index.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	indexes[root] = ix
	return ix
}
