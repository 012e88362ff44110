package report_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lwr/research/report"
	"lwr/research/researchtest"
)

// travelRuleB is a rule whose edition stands in its header, away from
// the lines a conclusion cites.
const travelRuleB = `# 旅費規程

改定　2025年7月1日施行

第4条（日当）
日当は1日につき2,000円とする。課長以上は2,500円とする。
日帰り出張で片道100km未満のときは日当を支給しない。
`

// A research report's conclusion contradicts no citation: its labels are
// sources of the report, and its numbers stand in the lines they cite.
func TestConclusion(t *testing.T) {
	root := researchtest.WriteTree(t, map[string]string{"規程/旅費規程.md": travelRuleB})
	abs := filepath.ToSlash(filepath.Join(root, "規程", "旅費規程.md"))
	src := report.Sources{Root: root}
	// An agent's report: citations in section 1, labels in 5. 出典.
	agent := func(conclusion, sources string) string {
		return "# 調査結果: 出張の日当\n\n## 1. ローカル情報\n\n" + report.Citation("旅費規程.md", abs, 5, 7) +
			"\n\n> 第4条（日当）\n> 日当は1日につき2,000円とする。課長以上は2,500円とする。\n\n" +
			"## 2. Web情報\n\n### [W1] 旅費の税務\n\n[旅費の税務](https://www.nta.go.jp/ryohi)（参照日: 2026-06-01）\n\n> 日当は通常必要な範囲で非課税（1日5,000円程度まで）。\n\n" +
			"## 3. 深堀りローカル情報\n\n深堀り再検索: スキップ（skip_web）\n\n## 4. 結論\n\n" + conclusion + "\n\n## 5. 出典\n\n" + sources + "\n"
	}
	plain := "- [L1] 規程/旅費規程.md L5-L7\n- [W1] [旅費の税務](https://www.nta.go.jp/ryohi)"
	// lwr's own form: the label defined by its heading in section 1.
	lwr := func(conclusion string) string {
		return "# 調査レポート: 出張の日当\n\n## 1. ローカル情報\n\n### [L1] 旅費規程.md\n\n" + report.Citation("旅費規程.md", abs, 5, 7) +
			"\n\n```text\n第4条（日当）\n日当は1日につき2,000円とする。課長以上は2,500円とする。\n日帰り出張で片道100km未満のときは日当を支給しない。\n```\n\n" +
			"## 2. Web情報\n\nWeb検索: スキップ（ユーザー指示）\n\n## 3. 深堀りローカル情報\n\n深堀り再検索: スキップ（skip_web）\n\n## 4. 結論\n\n### 要点\n\n" + conclusion +
			"\n\n## 5. 出典\n\n- [L1] " + report.Citation("旅費規程.md", abs, 5, 7) + " — 規程/旅費規程.md\n"
	}
	tests := []struct {
		name  string
		md    string
		codes []string
	}{
		{name: "the cited numbers", md: agent("- 日当は1日2,000円（課長以上は2,500円） [L1]", plain)},
		{name: "numbers the cited lines do not state", md: agent("- 日当は1日3,000円（課長以上は3,500円） [L1]", plain), codes: []string{report.ProblemClaimNumber}},
		{name: "kanji numerals the cited lines do not state", md: agent("- 日当は1日三千円、課長以上は五千円 [L1]", plain), codes: []string{report.ProblemClaimNumber}},
		{name: "kanji numerals of the cited numbers", md: agent("- 日当は1日二千円、課長以上は二千五百円 [L1]", plain)},
		{name: "a label with no source", md: agent("- 日当は1日2,000円 [L3]", plain), codes: []string{report.ProblemClaimRef}},
		{name: "a number of another line of the file", md: agent("- 片道100km未満は支給しない [L1]", "- [L1] 規程/旅費規程.md L5-L6"), codes: []string{report.ProblemClaimNumber}},
		{name: "the document's edition date", md: agent("- 2025年7月1日施行の規程で、日当は1日2,000円 [L1]", plain)},
		{name: "a date the document does not state", md: agent("- 2024年4月1日施行の規程で、日当は1日2,000円 [L1]", plain), codes: []string{report.ProblemClaimNumber}},
		{name: "a count of sources", md: agent("- 3件の資料のうち、日当は1日2,000円 [L1]", plain)},
		{name: "a web page's numbers", md: agent("- 日当は1日5,000円程度まで非課税 [W1]", plain)},
		{name: "a number the web page does not state", md: agent("- 日当は1日8,000円まで非課税 [W1]", plain), codes: []string{report.ProblemClaimNumber}},
		{name: "two labels", md: agent("- 日当は2,000円、非課税は5,000円程度まで [L1, W1]", plain)},
		{name: "a plain reference to a file that is not there", md: agent("- 日当は1日2,000円 [L1]", "- [L1] 規程/旅費規定.md L5-L7"), codes: []string{report.ProblemCitationFileMissing}},
		{name: "a plain reference past the end", md: agent("- 日当は1日2,000円 [L1]", "- [L1] 規程/旅費規程.md L5-L70"), codes: []string{report.ProblemCitationOutOfRange}},
		{name: "a label naming no lines is not checked", md: agent("- 日当は1日3,000円 [L1]", "- [L1] 旅費規程")},
		{name: "lwr's key point: path, line, edition label", md: lwr("- [L1] 規程/旅費規程.md L6【版: 施行2025-07-01】: 日当は1日につき2,000円とする。課長以上は2,500円とする。")},
		{name: "lwr's key point with a changed amount", md: lwr("- [L1] 規程/旅費規程.md L6【版: 施行2025-07-01】: 日当は1日につき3,000円とする。"), codes: []string{report.ProblemClaimNumber}},
		{name: "lwr's key point cut inside a number", md: lwr("- [L1] 規程/旅費規程.md L6: 日当は1日につき2,000円とする。課長以上は2,5…")},
		{name: "a record restated", md: lwr("- [L1] 規程/旅費規程.md L6: 日当は1日につき2,000円とする。\n\n### 現行性確認\n\n- [L1] 規程/旅費規程.md: 現行性[ryohi]: 現行性未確認 確認済みの値「3,000円」; 施行 2026-04-01")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps := report.Check([]byte(tc.md), &src)
			var got []string
			for _, p := range ps {
				if p.Code != report.ProblemJSONMissing && !slices.Contains(got, p.Code) {
					got = append(got, p.Code)
				}
			}
			if !slices.Equal(got, tc.codes) {
				t.Errorf("problems %v, want %v", ps, tc.codes)
			}
			for _, p := range ps {
				if p.Code == report.ProblemClaimNumber || p.Code == report.ProblemClaimRef {
					report.CheckSentence(t, p)
					if p.Line < 1 || !strings.Contains(strings.Split(tc.md, "\n")[p.Line-1], "[") {
						t.Errorf("%s names line %d", p.Code, p.Line)
					}
				}
			}
		})
	}
}
