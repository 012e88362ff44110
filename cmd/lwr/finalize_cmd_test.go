package main

import (
	"encoding/json"
	"lwr/config/configtest"
	"lwr/research/report"
	"lwr/research/researchtest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestFinalizeCommand(t *testing.T) {
	root := researchtest.Sample(t)
	env := testEnv(t)
	ws := configtest.TempDir(t)
	dir := configtest.TempDir(t)
	md := agentReport(root, "規程/就業規則.md", 3, 4, "1.0", "株式会社みなと商事")
	p := filepath.Join(dir, "report.md")
	os.WriteFile(p, []byte(md), 0o644)
	args := []string{"--source-root", root, "finalize", "--markdown", p, "--query", "有給休暇の申請期限", "--workspace", ws, "--timestamp", ts, "--local-status", "ok", "--web-status", "skipped", "--deep-status", "skipped", "--skip-web"}
	out, errOut, code := run(t, env, args...)
	name := "research_" + ts + ".md"
	if code != 0 || out != savedLine(ws, name) {
		t.Fatalf("exit %d: %q %s", code, out, errOut)
	}
	checkFinalizedReport(t, env, root, ws, name, false)
	data, _ := os.ReadFile(filepath.Join(ws, "result", "research", "research_"+ts+".context.json"))
	var c report.Context
	json.Unmarshal(data, &c)
	if c.Producer != "lwr finalize" || c.OriginalQuery != "有給休暇の申請期限" || c.Statuses.Local != "ok" || c.Policies.Records != 2 || !c.SkipWeb {
		t.Errorf("context %s", data)
	}
	// Again: skipped, the same line.
	if again, _, code := run(t, env, args...); code != 0 || again != out {
		t.Errorf("again: %d %q", code, again)
	}
	// Another report in the same second: -2.
	os.WriteFile(p, []byte(strings.Replace(md, "申請は3営業日前まで", "申請は3営業日前までに行う", 1)), 0o644)
	out2, errOut, code := run(t, env, args...)
	if code != 0 || out2 != savedLine(ws, "research_"+ts+"-2.md") {
		t.Fatalf("second report: %d %q %s", code, out2, errOut)
	}
	checkFinalizedReport(t, env, root, ws, "research_"+ts+"-2.md", false)

	// An invalid report: exit 1, the problems on stderr, nothing saved.
	ws2 := configtest.TempDir(t)
	os.WriteFile(p, []byte(strings.Replace(md, "## 1. ローカル情報", "## 1. 資料", 1)), 0o644)
	bad := slices.Clone(args)
	bad[slices.Index(bad, "--workspace")+1] = ws2
	out, errOut, code = run(t, env, bad...)
	if code != exitError || out != "" || !strings.Contains(errOut, "section_missing") {
		t.Fatalf("invalid report: exit %d %q %s", code, out, errOut)
	}
	files := researchtest.Files(t, ws2)
	if len(files) != 2 || !strings.HasSuffix(files[1], "failure-summary.json") {
		t.Errorf("files after a failure: %v", files)
	}
	b, _ := os.ReadFile(filepath.Join(ws2, files[1]))
	if strings.Contains(string(b), "有給休暇") || !strings.Contains(string(b), string(report.ReasonValidationFailed)) {
		t.Errorf("failure summary %s", b)
	}

	// Usage errors.
	for _, a := range [][]string{
		{"finalize", "--query", "q"},
		{"finalize", "--markdown", p},
		{"finalize", "--markdown", p, "--query", "q", "--web-status", "fine"},
	} {
		if _, _, code := run(t, env, a...); code != exitUsage {
			t.Errorf("%v: exit %d", a, code)
		}
	}
}

// A research report whose conclusion contradicts its own citation, or
// cites a label that names no source, is not saved.
func TestFinalizeChecksTheConclusion(t *testing.T) {
	root := researchtest.Sample(t)
	env := testEnv(t)
	rule := filepath.ToSlash(filepath.Join(root, "規程", "就業規則.md"))
	cite := report.Citation("就業規則.md", rule, 12, 12) + "\n\n> 始業は午前9時、終業は午後5時45分とし、休憩時間を除いた所定労働時間は1日7時間45分とする。"
	for _, tc := range []struct {
		conclusion string
		code       int
		problem    string
	}{
		{conclusion: "- 所定労働時間は1日7時間45分 [L1]"},
		{conclusion: "- 所定労働時間は1日8時間 [L1]", code: 1, problem: report.ProblemClaimNumber},
		{conclusion: "- 所定労働時間は1日七時間四十五分 [L1]"},
		{conclusion: "- 所定労働時間は1日7時間45分 [L3]", code: 1, problem: report.ProblemClaimRef},
	} {
		t.Run(tc.conclusion, func(t *testing.T) {
			p := filepath.Join(configtest.TempDir(t), "draft.md")
			os.WriteFile(p, []byte(draftReport(tc.conclusion, cite)), 0o644)
			ws := configtest.TempDir(t)
			out, errOut, code := run(t, env, "--source-root", root, "finalize", "--markdown", p, "--query", "勤務時間", "--workspace", ws)
			if code != tc.code || tc.code == 0 && !strings.HasPrefix(out, "保存しました") || tc.code != 0 && !strings.Contains(errOut, tc.problem) {
				t.Errorf("exit %d: %s%s", code, out, errOut)
			}
		})
	}
}

// A deep report says its topic in its front matter: finalize takes it
// for the question when --query is not given.
func TestFinalizeDeepReportWithoutQuery(t *testing.T) {
	root := researchtest.Sample(t)
	env := testEnv(t)
	rule := filepath.ToSlash(filepath.Join(root, "規程", "就業規則.md"))
	md := "---\nkind: deep\nstatus: draft\ntopic: 勤務時間のまとめ\nslug: 勤務時間のまとめ-20260601-abcd\n---\n\n# 勤務時間のまとめ\n\n" +
		"## 1. 所定労働時間\n\n- 所定労働時間は1日7時間45分。 [L1]\n\n## 出典\n\n### [L1] 就業規則.md\n\n" + report.Citation("就業規則.md", rule, 12, 12) +
		"\n\n> 始業は午前9時、終業は午後5時45分とし、休憩時間を除いた所定労働時間は1日7時間45分とする。\n"
	p := filepath.Join(configtest.TempDir(t), "deep.md")
	os.WriteFile(p, []byte(md), 0o644)
	ws := configtest.TempDir(t)
	out, errOut, code := run(t, env, "--source-root", root, "finalize", "--markdown", p, "--workspace", ws, "--timestamp", ts)
	if code != 0 || out != savedLine(ws, "research_"+ts+".md") {
		t.Fatalf("exit %d: %q %s", code, out, errOut)
	}
	data, _ := os.ReadFile(filepath.Join(ws, "result", "research", "research_"+ts+".context.json"))
	var c report.Context
	json.Unmarshal(data, &c)
	if c.OriginalQuery != "勤務時間のまとめ" {
		t.Errorf("context %s", data)
	}
}
