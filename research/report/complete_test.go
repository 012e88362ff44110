package report_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"lwr/config/configtest"
	"lwr/research/report"
	"lwr/research/researchtest"
)

// A report an agent wrote without the <!-- JSON: … --> comment is
// finalized with the comment its text implies; one with a comment is
// finalized as it is.
func TestFinalizeComputesTheComment(t *testing.T) {
	root, abs := deepSource(t)
	lines := strings.Split(travelRule, "\n")
	research := "# 調査結果: 日当\n\n## 1. ローカル情報\n\n" + report.Citation("旅費規程.md", abs, 4, 4) + "\n\n> " + lines[3] + "\n\n" +
		"## 2. Web情報\n\n[出張旅費の税務](https://www.nta.go.jp/taxes/ryohi.htm)（参照日: 2026-06-01）\n\n" +
		"## 3. 深堀りローカル情報\n\n深堀り再検索: スキップ（ユーザー指示によりWeb検索なし）\n\n## 4. 結論\n\n- 日当は1日2,000円 [L1]\n\n## 5. 出典\n\n- [L1] " +
		report.Citation("旅費規程.md", abs, 4, 4) + "\n- [W1] [出張旅費の税務](https://www.nta.go.jp/taxes/ryohi.htm)\n"
	for _, tc := range []struct {
		name, md string
		sources  int
	}{
		{"research", research, 2},
		{"deep", deepReport(abs), 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if ps := report.Validate([]byte(tc.md)); len(ps) != 1 || ps[0].Code != report.ProblemJSONMissing {
				t.Fatalf("validate without the comment: %v, want json_comment_missing alone", ps)
			}
			ws := configtest.TempDir(t)
			f, err := report.Finalize(context.Background(), report.FinalizeOptions{Workspace: ws, Markdown: []byte(tc.md), Timestamp: testNow(), Now: testNow,
				Sources: &report.Sources{Root: root}, Context: report.ContextInput{Query: "日当", SourceRoot: root}})
			if err != nil {
				t.Fatal(err)
			}
			if !f.CommentComputed || f.SchemaVersion != "1.0" {
				t.Errorf("finalized %+v", f)
			}
			saved, _ := os.ReadFile(f.Report)
			if !strings.HasPrefix(string(saved), strings.TrimRight(tc.md, "\n")) {
				t.Error("the saved report does not start with the report as written")
			}
			if ps := report.Validate(saved); ps != nil {
				t.Fatalf("the saved report: %v", ps)
			}
			if ps := report.VerifySources(saved, report.Sources{Root: root}); ps != nil {
				t.Fatalf("the saved report's sources: %v", ps)
			}
			c := researchtest.Comment(t, saved)
			if len(c.Sources) != tc.sources {
				t.Errorf("computed sources %+v", c.Sources)
			}
			if tc.name == "research" {
				if err := researchtest.ValidateJSON(t, report.OutputSchema(), commentOf(t, saved)); err != nil {
					t.Errorf("the computed comment against output-schema.json: %v", err)
				}
			}
		})
	}
}

func commentOf(t *testing.T, md []byte) []byte {
	t.Helper()
	raw, p := report.ExtractComment(md)
	if p != nil {
		t.Fatal(p)
	}
	return raw
}
