package main

import (
	"encoding/json"
	"lwr/config/configtest"
	"lwr/research/report"
	"lwr/research/researchtest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// agentReport is a report as an agent writes it, citing lines s–e of a
// file of root and quoting quote after the citation (as a > blockquote).
func agentReport(root, rel string, s, e int, version, quote string) string {
	abs := filepath.ToSlash(filepath.Join(root, filepath.FromSlash(rel)))
	meta := `{"step_number":4,"step_number_legacy":"Step 4","schema_version":"1.0"}`
	if version == "1.1" {
		meta = `{"step_number":4,"step_number_legacy":"Step 4","schema_version":"1.1","model":"claude-sonnet-4-6"}`
	}
	src, _ := json.Marshal(map[string]any{"title": path.Base(abs), "source_type": "local", "path": abs, "lines": map[string]int{"start": s, "end": e}})
	return "# 調査結果: 就業規則\n\n## 1. ローカル情報\n\n" + report.Citation(path.Base(abs), abs, s, e) + "\n\n> " + quote + "\n\n" +
		"## 2. Web情報\n\nWeb検索: スキップ（ユーザー指示）\n\n## 3. 深堀りローカル情報\n\n深堀り再検索: スキップ（skip_web）\n\n" +
		"## 4. 結論\n\n申請は3営業日前まで [L1]\n\n## 5. 出典\n\n- [L1] " + path.Base(abs) + "\n\n" +
		`<!-- JSON: {"sections":[{"id":"local_info","title":"1. ローカル情報"},{"id":"web_info","title":"2. Web情報"},{"id":"deep_local_info","title":"3. 深堀りローカル情報"},{"id":"conclusion","title":"4. 結論"},{"id":"sources","title":"5. 出典"}],"sources":[` +
		string(src) + `],"metadata":` + meta + "} -->\n"
}

func TestValidateCommand(t *testing.T) {
	env := testEnv(t)
	root := researchtest.Sample(t)
	dir := configtest.TempDir(t)
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	const quote = "始業は午前9時、終業は午後5時45分とし…所定労働時間は1日7時間45分とする。"
	good := agentReport(root, "規程/就業規則.md", 11, 12, "1.0", quote)
	tests := []struct {
		name  string
		body  string
		args  []string
		code  int
		codes []string // problem codes on stderr
	}{
		{name: "agent report with a true quote", body: good},
		{name: "1.1 csv", body: agentReport(root, "メモ/問い合わせ一覧.csv", 1, 3, "1.1", "")},
		{name: "shift_jis text file, full-width quote", body: agentReport(root, "規程/旧規程_文書保存.txt", 21, 23, "1.0", "永年保存の文書は、背表紙に赤い帯を付けた永年保存箱に入れ")},
		{name: "a changed amount in the quote", body: strings.Replace(good, "7時間45分", "8時間", 1), code: 1, codes: []string{report.ProblemCitationQuote}},
		{name: "a range past the end", body: strings.ReplaceAll(strings.ReplaceAll(good, "L11-L12", "L11-L9999"), `"end":12`, `"end":9999`), code: 1, codes: []string{report.ProblemCitationOutOfRange}},
		{name: "a missing file", body: agentReport(root, "規程/存在しない規則.md", 11, 12, "1.0", quote), code: 1, codes: []string{report.ProblemCitationFileMissing}},
		{name: "a file outside the source root", body: agentReport("/etc", "hosts.md", 1, 1, "1.0", ""), code: 1, codes: []string{report.ProblemCitationFileMissing}},
		{name: "JSON sources differ from the text", body: strings.Replace(good, `"start":11`, `"start":10`, 1), code: 1, codes: []string{report.ProblemCitationJSON}},
		{name: "not checked with --no-verify-sources", body: strings.Replace(good, "7時間45分", "8時間", 1), args: []string{"--no-verify-sources"}},
		{name: "lines disagree", body: strings.Replace(good, "(L11-L12) [VS", "(L11-L13) [VS", 1), code: 1, codes: []string{report.ProblemCitationLines}},
		{name: "no JSON", body: strings.Split(good, "<!-- JSON")[0], code: 1, codes: []string{report.ProblemJSONMissing}},
		{name: "bad schema version", body: strings.Replace(good, `"schema_version":"1.0"`, `"schema_version":"0.9"`, 1), code: 1, codes: []string{report.ProblemSchema}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := write(strings.ReplaceAll(tc.name, " ", "_")+".md", tc.body)
			out, errOut, code := run(t, env, append(append([]string{"--source-root", root, "validate"}, tc.args...), p)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s%s", code, tc.code, out, errOut)
			}
			if tc.code == 0 {
				if (errOut != "") != (len(tc.args) > 0) || !strings.HasPrefix(out, "valid: ") {
					t.Errorf("stdout %q stderr %q", out, errOut)
				}
				return
			}
			var codes []string
			for _, line := range strings.Split(strings.TrimSpace(errOut), "\n") {
				var p report.Problem
				if err := json.Unmarshal([]byte(line), &p); err != nil || p.Code == "" || p.Message == "" {
					t.Fatalf("stderr line is not a problem: %q", line)
				}
				codes = append(codes, p.Code)
			}
			for _, c := range tc.codes {
				if !strings.Contains(strings.Join(codes, " "), c) {
					t.Errorf("codes %v lack %s", codes, c)
				}
			}
		})
	}
	if _, errOut, code := run(t, env, "validate", filepath.Join(dir, "missing.md")); code != 1 || !strings.Contains(errOut, `"code":"unreadable"`) {
		t.Errorf("missing file: exit %d %s", code, errOut)
	}
	if _, _, code := run(t, env, "validate"); code != exitUsage {
		t.Errorf("no file: exit %d", code)
	}
}

// draftReport is an agent's report without its JSON comment whose
// section 1 holds the given citations, each with its quote.
func draftReport(conclusion string, cites ...string) string {
	return "# 調査結果: 勤務時間\n\n## 1. ローカル情報\n\n" + strings.Join(cites, "\n\n") + "\n\n" +
		"## 2. Web情報\n\nWeb検索: スキップ（ユーザー指示）\n\n## 3. 深堀りローカル情報\n\n深堀り再検索: スキップ（skip_web）\n\n" +
		"## 4. 結論\n\n" + conclusion + "\n\n## 5. 出典\n\n- [L1] 規程/就業規則.md L12-L12\n"
}

// A report without its JSON comment is checked as finalize would check
// it: every problem against the files is listed beside
// json_comment_missing, and a cited file that does not exist is said to
// be missing at once, with the name nearest it.
func TestValidateListsEveryProblem(t *testing.T) {
	env := testEnv(t)
	root := researchtest.Sample(t)
	abs := func(rel string) string { return filepath.ToSlash(filepath.Join(root, filepath.FromSlash(rel))) }
	rule := abs("規程/就業規則.md")
	misspelled := strings.Replace(report.Citation("就業規則.md", rule, 11, 11), "%E5%89%87.md:11", "%E5%AE%9A.md:11", 1)
	misspelled = strings.Replace(misspelled, "就業規則.md#L11", "就業規定.md#L11", 1)
	md := draftReport("- 所定労働時間は1日7時間45分 [L1]",
		// A quote of other lines.
		report.Citation("就業規則.md", rule, 11, 11)+"\n\n> 休憩時間は正午から午後1時までの60分とする。",
		// A changed quote.
		report.Citation("就業規則.md", rule, 15, 15)+"\n\n> 休憩時間は正午から午後2時までの120分とする。",
		// Lines past the end.
		report.Citation("就業規則.md", rule, 11, 9999),
		// A file that does not exist (its name misspelled).
		misspelled+"\n\n> 始業は午前9時")
	p := filepath.Join(configtest.TempDir(t), "draft.md")
	os.WriteFile(p, []byte(md), 0o644)
	_, errOut, code := run(t, env, "--source-root", root, "validate", p)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var codes []string
	var missing report.Problem
	for _, line := range strings.Split(strings.TrimSpace(errOut), "\n") {
		var pr report.Problem
		if err := json.Unmarshal([]byte(line), &pr); err != nil {
			t.Fatalf("stderr line %q", line)
		}
		codes = append(codes, pr.Code)
		if pr.Code == report.ProblemCitationFileMissing {
			missing = pr
		}
	}
	want := []string{report.ProblemJSONMissing, report.ProblemCitationQuote, report.ProblemCitationQuote, report.ProblemCitationOutOfRange, report.ProblemCitationFileMissing}
	if strings.Join(codes, " ") != strings.Join(want, " ") {
		t.Errorf("codes %v, want %v\n%s", codes, want, errOut)
	}
	if !strings.Contains(missing.Message, "no such file") || !strings.Contains(missing.Message, rule) {
		t.Errorf("the missing file's message does not name the file nearest it: %q", missing.Message)
	}

	// finalize refuses it with the same problems, each said once.
	ws := configtest.TempDir(t)
	_, errOut, code = run(t, env, "--source-root", root, "finalize", "--markdown", p, "--query", "勤務時間", "--workspace", ws)
	if code != 1 || strings.Count(errOut, report.ProblemCitationQuote) != 2 || strings.Count(errOut, report.ProblemCitationOutOfRange) != 1 ||
		strings.Contains(errOut, report.ProblemJSONMissing) {
		t.Errorf("finalize: exit %d\n%s", code, errOut)
	}
}
