package report_test

import (
	"path/filepath"
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
