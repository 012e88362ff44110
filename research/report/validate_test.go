package report_test

import (
	"encoding/json"
	"fmt"
	"lwr/research/report"
	"slices"
	"strings"
	"testing"
)

// fixture builds a report: section 1, the other sections, and the JSON
// comment with sources and metadata.
func fixture(section1 string, sources []map[string]any, metadata map[string]any) string {
	if metadata == nil {
		metadata = map[string]any{"step_number": 4, "step_number_legacy": "D", "schema_version": "1.0"}
	}
	c := map[string]any{
		"sections": []map[string]string{
			{"id": "local_info", "title": "1. ローカル情報"}, {"id": "web_info", "title": "2. Web情報"},
			{"id": "deep_local_info", "title": "3. 深堀りローカル情報"}, {"id": "conclusion", "title": "4. 結論"}, {"id": "sources", "title": "5. 出典"},
		},
		"sources":  sources,
		"metadata": metadata,
	}
	b, _ := json.Marshal(c)
	return "# 調査結果\n\n## 1. ローカル情報\n\n" + section1 + "\n\n## 2. Web情報\n\nWeb検索: スキップ（ユーザー指示）\n\n" +
		"## 3. 深堀りローカル情報\n\n深堀り再検索: スキップ（ユーザー指示によりWeb検索なし）\n\n## 4. 結論\n\n- 申請は3営業日前まで [L1]\n\n" +
		"## 5. 出典\n\n- [L1] 就業規則\n\n<!-- JSON: " + string(b) + " -->\n"
}

func localSource(path string, s, e int) map[string]any {
	return map[string]any{"title": path[strings.LastIndex(path, "/")+1:], "source_type": "local", "path": path, "lines": map[string]int{"start": s, "end": e}}
}

const rulesPath = "/home/u/skill-source/規程/就業規則.md"

// oldCitation is a citation as the PowerShell skill wrote it (VS Code
// URI with a double slash, the path percent-encoded).
func oldCitation(path string, s, e int) string {
	return fmt.Sprintf("[%s](%s#L%d-L%d) (L%d-L%d) [VS Codeで開く](vscode://file/%s:%d)\n\n> 年次有給休暇の申請は3営業日前まで",
		path[strings.LastIndex(path, "/")+1:], path, s, e, s, e, report.VSCodeURI(path, s)[len("vscode://file/"):strings.LastIndex(report.VSCodeURI(path, s), ":")], s)
}

func TestValidate(t *testing.T) {
	src := []map[string]any{localSource(rulesPath, 20, 24)}
	web := []map[string]any{{"title": "厚生労働省", "source_type": "web", "url": "https://www.mhlw.go.jp/"}}
	v11 := map[string]any{"step_number": 4, "step_number_legacy": "Step 4", "schema_version": "1.1", "model": "claude-opus-4-6"}
	tests := []struct {
		name string
		md   string
		want []string // problem codes, in any order; nil = valid
	}{
		{name: "generated citation", md: fixture(report.Citation("就業規則.md", rulesPath, 20, 24), src, nil)},
		{name: "old 1.0 agent report", md: fixture(oldCitation(rulesPath, 20, 24), src, nil)},
		{name: "old 1.0 with a double-slash VS Code URI", md: fixture(strings.Replace(oldCitation(rulesPath, 20, 24), "vscode://file/", "vscode://file//", 1), src, nil)},
		{name: "1.1 with a model", md: fixture(oldCitation(rulesPath, 20, 24), src, v11)},
		{name: "1.1 without a model", md: fixture(oldCitation(rulesPath, 20, 24), src, map[string]any{"step_number": 4, "step_number_legacy": "4", "schema_version": "1.1"}), want: []string{report.ProblemSchema}},
		{name: "1.0 with a model", md: fixture(oldCitation(rulesPath, 20, 24), src, map[string]any{"step_number": 4, "step_number_legacy": "4", "schema_version": "1.0", "model": "claude-opus-4-6"}), want: []string{report.ProblemSchema}},
		{name: "unknown schema version", md: fixture(oldCitation(rulesPath, 20, 24), src, map[string]any{"step_number": 4, "step_number_legacy": "4", "schema_version": "2.0"}), want: []string{report.ProblemSchema}},
		{name: "text file", md: fixture(report.Citation("旧規程_文書保存.txt", "/r/規程/旧規程_文書保存.txt", 25, 27), []map[string]any{localSource("/r/規程/旧規程_文書保存.txt", 25, 27)}, nil)},
		{name: "csv, json, yaml and no extension", md: fixture(strings.Join([]string{
			report.Citation("問い合わせ一覧.csv", "/r/メモ/問い合わせ一覧.csv", 1, 16),
			report.Citation("監視対象一覧.json", "/r/メモ/監視対象一覧.json", 2, 5),
			report.Citation("設定例.yaml", "/r/メモ/設定例.yaml", 3, 9),
			report.Citation("README", "/r/README", 1, 1),
		}, "\n\n"), []map[string]any{localSource("/r/メモ/問い合わせ一覧.csv", 1, 16)}, nil)},
		{name: "windows path", md: fixture(report.Citation("a.md", "C:/Users/u/skill-source/a.md", 3, 4), []map[string]any{localSource("C:/Users/u/skill-source/a.md", 3, 4)}, nil)},
		{name: "path with spaces and parentheses", md: fixture(report.Citation("a (1).md", "/r/my docs/a (1).md", 3, 4), []map[string]any{localSource("/r/my docs/a (1).md", 3, 4)}, nil)},
		{name: "file name with brackets", md: fixture(report.Citation("[draft] a.md", "/r/[draft] a.md", 3, 4), []map[string]any{localSource("/r/[draft] a.md", 3, 4)}, nil)},
		{name: "anchor and L-notation differ", md: fixture(strings.Replace(oldCitation(rulesPath, 20, 24), "(L20-L24)", "(L21-L24)", 1), src, nil), want: []string{report.ProblemCitationLines, report.ProblemVSCodeLink}},
		{name: "start after end", md: fixture(report.Citation("就業規則.md", rulesPath, 24, 20), src, nil), want: []string{report.ProblemCitationLines}},
		{name: "VS Code link opens another line", md: fixture(strings.Replace(report.Citation("就業規則.md", rulesPath, 20, 24), ".md:20)", ".md:21)", 1), src, nil), want: []string{report.ProblemVSCodeLink}},
		{name: "VS Code link opens another file", md: fixture(strings.Replace(report.Citation("就業規則.md", rulesPath, 20, 24), "skill-source", "other", 1), src, nil), want: []string{report.ProblemVSCodeLink}},
		{name: "VS Code path not encoded", md: fixture("[就業規則.md]("+rulesPath+"#L20-L24) (L20-L24) [VS Codeで開く](vscode://file"+rulesPath+":20)", src, nil), want: []string{report.ProblemVSCodeLink}},
		{name: "relative path", md: fixture(report.Citation("就業規則.md", "規程/就業規則.md", 20, 24), src, nil), want: []string{report.ProblemCitationPath}},
		{name: "link text is not the file name", md: fixture(report.Citation("規程", rulesPath, 20, 24), src, nil), want: []string{report.ProblemCitationFormat}},
		{name: "citation without its VS Code link", md: fixture("[就業規則.md]("+rulesPath+"#L20-L24) (L20-L24)", src, nil), want: []string{report.ProblemCitationFormat}},
		{name: "stray VS Code link", md: fixture(report.Citation("就業規則.md", rulesPath, 20, 24)+"\n\n[開く](vscode://file/x.md:1)", src, nil), want: []string{report.ProblemVSCodeLink}},
		{name: "no citation although local sources", md: fixture("就業規則によれば3営業日前まで。", src, nil), want: []string{report.ProblemCitationMissing}},
		{name: "no local information", md: fixture(report.SentenceLocalEmpty, src, nil)},
		{name: "no local source", md: fixture("（Webのみ）", web, nil)},
		{name: "broken citation inside a code block is quoted text", md: fixture(report.Citation("就業規則.md", rulesPath, 20, 24)+"\n\n```text\n[x](/a#L1-L2) (L9-L9)\n```", src, nil)},
		{name: "the no-information sentence inside quoted text does not count", md: fixture("```text\n"+report.SentenceLocalEmpty+"\n```", src, nil), want: []string{report.ProblemCitationMissing}},
		{name: "no sources", md: fixture(report.SentenceLocalEmpty, []map[string]any{}, nil), want: []string{report.ProblemSchema}},
		{name: "http web source", md: fixture(report.SentenceLocalEmpty, []map[string]any{{"title": "x", "source_type": "web", "url": "http://example.com/"}}, nil), want: []string{report.ProblemSchema}},
		{name: "local source without lines", md: fixture(report.SentenceLocalEmpty, []map[string]any{{"title": "x", "source_type": "local", "path": "/a"}}, nil), want: []string{report.ProblemSchema}},
		{name: "no JSON comment", md: strings.Split(fixture(report.SentenceLocalEmpty, web, nil), "<!-- JSON")[0], want: []string{report.ProblemJSONMissing}},
		{name: "JSON comment not at the end", md: fixture(report.SentenceLocalEmpty, web, nil) + "\n追記\n", want: []string{report.ProblemJSONNotAtEnd}},
		{name: "JSON comment not JSON", md: strings.Split(fixture(report.SentenceLocalEmpty, web, nil), "<!-- JSON")[0] + "<!-- JSON: {\"sections\": [} -->\n", want: []string{report.ProblemJSONInvalid}},
		{name: "a section missing", md: strings.Replace(fixture(report.SentenceLocalEmpty, web, nil), "## 3. 深堀りローカル情報", "## 3. 追加調査", 1), want: []string{report.ProblemSectionMissing}},
		{name: "sections out of order", md: strings.Replace(strings.Replace(fixture(report.SentenceLocalEmpty, web, nil), "## 2. Web情報", "## X", 1), "## 4. 結論", "## 4. 結論\n\n## 2. Web情報", 1), want: []string{report.ProblemSectionOrder}},
		{name: "not UTF-8", md: "\xff\xfe" + fixture(report.SentenceLocalEmpty, web, nil), want: []string{report.ProblemEncoding}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps := report.Validate([]byte(tc.md))
			var got []string
			for _, p := range ps {
				if !slices.Contains(got, p.Code) {
					got = append(got, p.Code)
				}
			}
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("problems = %v, want codes %v\n%s", ps, tc.want, tc.md)
			}
		})
	}
}

// A citation whose link is relative and whose VS Code link is absolute:
// both are told to be the absolute path, never the relative one.
func TestVSCodeLinkOfARelativeCitation(t *testing.T) {
	cite := strings.Replace(report.Citation("就業規則.md", rulesPath, 20, 24), "("+rulesPath+"#", "(規程/就業規則.md#", 1)
	ps := report.Validate([]byte(fixture(cite, []map[string]any{localSource("規程/就業規則.md", 20, 24)}, nil)))
	found := false
	for _, p := range ps {
		if p.Code == report.ProblemVSCodeLink {
			found = true
			if !strings.Contains(p.Message, "absolute path") || strings.Contains(p.Message, `"規程/就業規則.md"`) {
				t.Errorf("the VS Code link's message: %q", p.Message)
			}
		}
	}
	if !found {
		t.Errorf("no %s among %v", report.ProblemVSCodeLink, ps)
	}
}

func TestCitationForm(t *testing.T) {
	got := report.Citation("契約事務.md", "/home/u/skill-source/研修/2026/契約事務.md", 26, 36)
	want := "[契約事務.md](/home/u/skill-source/研修/2026/契約事務.md#L26-L36) (L26-L36) [VS Codeで開く](vscode://file/home/u/skill-source/%E7%A0%94%E4%BF%AE/2026/%E5%A5%91%E7%B4%84%E4%BA%8B%E5%8B%99.md:26)"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := report.VSCodeURI("C:/Users/u/a b.md", 3); got != "vscode://file/C:/Users/u/a%20b.md:3" {
		t.Errorf("windows URI %s", got)
	}
}

// FuzzValidate feeds Validate what an agent might write: it never panics,
// and every problem it reports has a known code, a message and a line
// inside the report.
func FuzzValidate(f *testing.F) {
	src := []map[string]any{localSource(rulesPath, 20, 24)}
	f.Add(fixture(report.Citation("就業規則.md", rulesPath, 20, 24), src, nil))
	f.Add(fixture(oldCitation(rulesPath, 20, 24), src, nil))
	f.Add(fixture(report.SentenceLocalEmpty, []map[string]any{}, nil))
	f.Add("## 1. ローカル情報\n```\n[x](/a#L1-L2) (L1-L2) [VS Codeで開く](vscode://file/a:1)\n<!-- JSON: {} -->")
	f.Add("<!-- JSON: {\"sections\":[{\"id\":1}]} -->")
	f.Add("---\nkind: deep\nstatus: draft\ntopic: x\nslug: x\n---\n## 1. a\n- b 2 [L1]\n## 出典\n### [L1] a.md\n[a.md](/a.md#L1-L1) (L1-L1) [VS Codeで開く](vscode://file/a.md:1)\n")
	known := map[string]bool{}
	for _, c := range report.Codes() {
		known[c] = true
	}
	f.Fuzz(func(t *testing.T, md string) {
		lines := strings.Count(md, "\n") + 1
		for _, p := range report.Validate([]byte(md)) {
			if !known[p.Code] || p.Message == "" || p.Line < 0 || p.Line > lines {
				t.Fatalf("problem %+v (report of %d lines)", p, lines)
			}
		}
	})
}

// Windows paths: forward slashes in the link, the drive's colon kept in
// the VS Code link, UNC shares with two leading slashes; the validator
// accepts all of them.
func TestCitationFormsOnWindows(t *testing.T) {
	tests := []struct {
		abs, link, vscode string
	}{
		{`C:\Users\u\skill-source\研修\契約.md`, "C:/Users/u/skill-source/研修/契約.md#L3-L9", "vscode://file/C:/Users/u/skill-source/%E7%A0%94%E4%BF%AE/%E5%A5%91%E7%B4%84.md:3"},
		{`G:\マイドライブ\規程 (最新).md`, "<G:/マイドライブ/規程 (最新).md#L3-L9>", "vscode://file/G:/%E3%83%9E%E3%82%A4%E3%83%89%E3%83%A9%E3%82%A4%E3%83%96/%E8%A6%8F%E7%A8%8B%20%28%E6%9C%80%E6%96%B0%29.md:3"},
		{`\\fileserver\share\規程.md`, "//fileserver/share/規程.md#L3-L9", "vscode://file//fileserver/share/%E8%A6%8F%E7%A8%8B.md:3"},
		{"/home/u/a:b.md", "/home/u/a:b.md#L3-L9", "vscode://file/home/u/a%3Ab.md:3"},
	}
	for _, tt := range tests {
		c := report.Citation("x", tt.abs, 3, 9)
		if !strings.Contains(c, "]("+tt.link+")") || !strings.Contains(c, "("+tt.vscode+")") {
			t.Errorf("Citation(%q) = %s\nwant link %s and %s", tt.abs, c, tt.link, tt.vscode)
		}
		name := tt.abs[strings.LastIndexAny(tt.abs, `\/`)+1:]
		path := strings.ReplaceAll(tt.abs, `\`, "/")
		md := fixture(report.Citation(name, tt.abs, 3, 9), []map[string]any{{"title": name, "source_type": "local", "path": path, "lines": map[string]int{"start": 3, "end": 9}}}, nil)
		if ps := report.Validate([]byte(md)); len(ps) > 0 {
			t.Errorf("%s: %v", tt.abs, ps)
		}
	}
}

// TestHugeLineNumbers: a line number past any document is refused as one,
// never read as the largest integer.
func TestHugeLineNumbers(t *testing.T) {
	src := []map[string]any{localSource(rulesPath, 20, 24)}
	big := "99999999999999999999"
	cite := strings.ReplaceAll(report.Citation("就業規則.md", rulesPath, 20, 24), "24", big)
	ps := report.Validate([]byte(fixture(cite, src, nil)))
	found := false
	for _, p := range ps {
		if strings.Contains(p.Message, "9223372036854775807") {
			t.Errorf("the number overflowed: %v", p)
		}
		found = found || p.Code == report.ProblemCitationLines && strings.Contains(p.Message, "lines count from 1")
	}
	if !found {
		t.Errorf("problems %v; want a citation_lines problem for %s", ps, big)
	}
}
