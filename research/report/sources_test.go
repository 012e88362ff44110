package report_test

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"lwr/research/report"
	"lwr/research/researchtest"
)

func TestVerifySources(t *testing.T) {
	root := researchtest.WriteTree(t, map[string]string{"規程/旅費.md": "# 旅費規程\n\n第2条 宿泊料\n宿泊料の上限は一泊１２,０００円とする。\nただし東京23区は14,000円。\n"})
	abs := filepath.ToSlash(filepath.Join(root, "規程", "旅費.md"))
	src := []map[string]any{localSource(abs, 3, 5)}
	cite := report.Citation("旅費.md", abs, 3, 5)
	fenced := "```text\n第2条 宿泊料\n宿泊料の上限は一泊１２,０００円とする。\nただし東京23区は14,000円。\n```"
	tests := []struct {
		name  string
		body  string
		codes []string
	}{
		{name: "fenced, exactly the lines", body: cite + "\n\n" + fenced},
		{name: "fenced, half-width digits for full-width ones", body: cite + "\n\n" + strings.Replace(fenced, "１２,０００", "12,000", 1)},
		{name: "fenced, one line left out", body: cite + "\n\n" + strings.Replace(fenced, "第2条 宿泊料\n", "", 1), codes: []string{report.ProblemCitationQuote}},
		{name: "blockquote of one line", body: cite + "\n\n> 宿泊料の上限は一泊12,000円とする。"},
		{name: "blockquote with an ellipsis", body: cite + "\n\n> 宿泊料の上限は…12,000円とする。\n> ただし東京23区は14,000円。"},
		{name: "blockquote with a changed amount", body: cite + "\n\n> 宿泊料の上限は一泊15,000円とする。", codes: []string{report.ProblemCitationQuote}},
		{name: "blockquote of only an ellipsis says nothing", body: cite + "\n\n> …\n> …", codes: []string{report.ProblemCitationQuote}},
		{name: "blockquote of only dots says nothing", body: cite + "\n\n> ...", codes: []string{report.ProblemCitationQuote}},
		{name: "the quote is the last citation's of its line", body: report.Citation("旅費.md", abs, 3, 3) + " " + cite + "\n\n> 宿泊料の上限は一泊12,000円とする。",
			codes: []string{report.ProblemCitationJSON}},
		{name: "no quote: the range is checked", body: report.Citation("旅費.md", abs, 3, 9), codes: []string{report.ProblemCitationOutOfRange, report.ProblemCitationJSON, report.ProblemCitationJSON}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			md := fixture(tt.body, src, nil)
			if ps := report.Validate([]byte(md)); len(ps) > 0 {
				t.Fatalf("format: %v", ps)
			}
			ps := report.VerifySources([]byte(md), report.Sources{Root: root})
			var got []string
			for _, p := range ps {
				got = append(got, p.Code)
			}
			if strings.Join(got, " ") != strings.Join(tt.codes, " ") {
				t.Errorf("problems %v, want %v", ps, tt.codes)
			}
		})
	}
}

// TestLongReportsAreCheckedOnce: K citations on one line before an M-line
// blockquote are not K×M work — what a check allocates grows as the
// report does (twice the report, about twice the bytes), not as the
// product (four times; a 1.6 MB report of this shape took minutes and more
// than 10 GB).
func TestLongReportsAreCheckedOnce(t *testing.T) {
	root := researchtest.WriteTree(t, map[string]string{"規程.md": "# 規程\n有給休暇の申請は三日前まで。\n"})
	abs := filepath.ToSlash(filepath.Join(root, "規程.md"))
	cite := report.Citation("規程.md", abs, 2, 2)
	var allocs []uint64
	for _, size := range []struct{ k, m int }{{300, 8000}, {600, 16000}} {
		body := strings.Repeat(cite+" ", size.k) + "\n\n" + strings.Repeat("> 有給休暇…\n", size.m)
		md := []byte(fixture(body, []map[string]any{localSource(abs, 2, 2)}, nil))
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		ps := append(report.Validate(md), report.VerifySources(md, report.Sources{Root: root})...)
		runtime.ReadMemStats(&after)
		if len(ps) != 0 {
			t.Errorf("%d citations before %d quoted lines: problems %v; want none", size.k, size.m, ps)
		}
		allocs = append(allocs, after.TotalAlloc-before.TotalAlloc)
	}
	if growth := float64(allocs[1]) / float64(allocs[0]); growth > 3 {
		t.Errorf("twice the citations and twice the quote allocate %.1f times the bytes (%d, then %d); want about twice", growth, allocs[0], allocs[1])
	}
}
