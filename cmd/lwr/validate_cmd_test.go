package main

import (
	"encoding/json"
	"lwr/config/configtest"
	"lwr/research/report"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// agentReport is a report as an agent writes it, citing a file of root.
func agentReport(root, rel string, s, e int, version string) string {
	abs := filepath.Join(root, filepath.FromSlash(rel))
	meta := `{"step_number":4,"step_number_legacy":"Step 4","schema_version":"1.0"}`
	if version == "1.1" {
		meta = `{"step_number":4,"step_number_legacy":"Step 4","schema_version":"1.1","model":"claude-sonnet-4-6"}`
	}
	src, _ := json.Marshal(map[string]any{"title": filepath.Base(abs), "source_type": "local", "path": abs, "lines": map[string]int{"start": s, "end": e}})
	return "# 調査結果: 有給休暇\n\n## 1. ローカル情報\n\n" + report.Citation(filepath.Base(abs), abs, s, e) + "\n\n> 有給休暇の申請\n\n" +
		"## 2. Web情報\n\nWeb検索: スキップ（ユーザー指示）\n\n## 3. 深堀りローカル情報\n\n深堀り再検索: スキップ（skip_web）\n\n" +
		"## 4. 結論\n\n申請は3営業日前まで [L1]\n\n## 5. 出典\n\n- [L1] " + filepath.Base(abs) + "\n\n" +
		`<!-- JSON: {"sections":[{"id":"local_info","title":"1. ローカル情報"},{"id":"web_info","title":"2. Web情報"},{"id":"deep_local_info","title":"3. 深堀りローカル情報"},{"id":"conclusion","title":"4. 結論"},{"id":"sources","title":"5. 出典"}],"sources":[` +
		string(src) + `],"metadata":` + meta + "} -->\n"
}

func TestValidateCommand(t *testing.T) {
	env := testEnv(t)
	dir := configtest.TempDir(t)
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	good := agentReport("/home/u/skill-source", "規程/就業規則.md", 20, 24, "1.0")
	tests := []struct {
		name  string
		body  string
		code  int
		codes []string // problem codes on stderr
	}{
		{name: "1.0", body: good},
		{name: "1.1", body: agentReport("/home/u/skill-source", "メモ/問い合わせ一覧.csv", 3, 15, "1.1")},
		{name: "shift_jis text file", body: agentReport("/home/u/skill-source", "規程/旧規程_文書保存.txt", 25, 27, "1.0")},
		{name: "lines disagree", body: strings.Replace(good, "(L20-L24) [VS", "(L20-L23) [VS", 1), code: 1, codes: []string{report.ProblemCitationLines}},
		{name: "no JSON", body: strings.Split(good, "<!-- JSON")[0], code: 1, codes: []string{report.ProblemJSONMissing}},
		{name: "bad schema version", body: strings.Replace(good, `"schema_version":"1.0"`, `"schema_version":"0.9"`, 1), code: 1, codes: []string{report.ProblemSchema}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := write(strings.ReplaceAll(tc.name, " ", "_")+".md", tc.body)
			out, errOut, code := run(t, env, "validate", p)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s%s", code, tc.code, out, errOut)
			}
			if tc.code == 0 {
				if errOut != "" || !strings.HasPrefix(out, "valid: ") {
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
