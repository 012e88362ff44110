package report_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lwr/config/configtest"
	"lwr/research/report"
	"lwr/research/researchtest"
)

// travelRule is a rule file the deep reports of these tests cite.
const travelRule = `# 旅費規程

第4条（日当）
日当は1日につき2,000円とする。課長以上は2,500円とする。
日帰り出張で片道100km未満のときは日当を支給しない。

第5条（宿泊料）
宿泊料は、1泊につき次の額を上限として実費を支給する。
一般従業員　11,000円
課長以上　14,000円
`

// deepSource writes the rule under a new source root.
func deepSource(t *testing.T) (root, abs string) {
	root = configtest.TempDir(t)
	researchtest.WriteFile(t, filepath.Join(root, "規程", "旅費規程.md"), travelRule)
	return root, filepath.ToSlash(filepath.Join(root, "規程", "旅費規程.md"))
}

// deepReport is a deep report without its JSON comment: two subtopics,
// two local sources and a web page.
func deepReport(abs string) string {
	lines := strings.Split(travelRule, "\n")
	return "---\nkind: deep\nstatus: draft\ntopic: \"出張旅費の規程\"\nslug: \"出張旅費の規程-20260601-abcd\"\n---\n\n" +
		"# 深掘り調査レポート: 出張旅費の規程\n\n- 調査開始: 2026-06-01T12:00:00Z\n\n" +
		"## 1. 日当\n\n- 日当は1日につき2,000円、課長以上は2,500円。 [L1]\n- 日当は非課税とされる。 [W1]\n\n" +
		"## 2. 宿泊料\n\n- 一般従業員の宿泊料の上限は1泊11,000円。 [L2]\n\n" +
		"## 3. 海外出張\n\n" + report.SentenceInsufficient + "\n\n" +
		"## 出典\n\n### [L1] 旅費規程.md\n\n" + report.Citation("旅費規程.md", abs, 4, 4) + "\n\n" + report.QuoteBlock(lines[3]) + "\n" +
		"### [L2] 旅費規程.md\n\n" + report.Citation("旅費規程.md", abs, 8, 9) + "\n\n" + report.QuoteBlock(strings.Join(lines[7:9], "\n")) + "\n" +
		"### [W1] 出張旅費の税務\n\n[出張旅費の税務](https://www.nta.go.jp/taxes/ryohi.htm)（参照日: 2026-06-01）\n\n> 日当は非課税とされる（通常必要な範囲）。\n"
}

func codesOf(ps []report.Problem) []string {
	var out []string
	for _, p := range ps {
		if !slices.Contains(out, p.Code) {
			out = append(out, p.Code)
		}
	}
	slices.Sort(out)
	return out
}

func TestDeepReport(t *testing.T) {
	root, abs := deepSource(t)
	src := report.Sources{Root: root}
	md := deepReport(abs)
	if report.KindOf([]byte(md)) != report.KindDeep {
		t.Fatal("not read as a deep report")
	}
	full, added := report.Complete([]byte(md))
	if !added {
		t.Fatal("Complete added no comment")
	}
	if ps := report.Validate(full); ps != nil {
		t.Fatalf("Validate: %v\n%s", ps, full)
	}
	if ps := report.VerifySources(full, src); ps != nil {
		t.Fatalf("VerifySources: %v", ps)
	}
	raw, p := report.ExtractComment(full)
	if p != nil {
		t.Fatal(p)
	}
	if err := researchtest.ValidateJSON(t, report.DeepOutputSchema(), raw); err != nil {
		t.Fatalf("the computed comment does not validate against deep-output-schema.json: %v\n%s", err, raw)
	}
	var c report.DeepComment
	json.Unmarshal(raw, &c)
	if len(c.Sections) != 4 || c.Sections[3].ID != "sources" || c.Sections[1].Title != "2. 宿泊料" || len(c.Sources) != 3 ||
		c.Sources[0].Ref != "L1" || c.Sources[2].Ref != "W1" || c.Metadata.Slug != "出張旅費の規程-20260601-abcd" {
		t.Errorf("computed comment %s", raw)
	}
	if again, added := report.Complete(full); added || string(again) != string(full) {
		t.Error("Complete changed a report that has its comment")
	}
	d, _ := report.ParseDeep(full)
	if len(d.Sections) != 3 || !d.Sections[2].Insufficient || len(d.Sections[0].Claims) != 2 || d.Sections[0].Claims[1].Refs[0] != "W1" ||
		d.Sources[1].Local == nil || d.Sources[1].Local.Start != 8 || d.Sources[2].Web == nil || len(d.Sources[2].Web.Quote) != 1 {
		t.Errorf("ParseDeep: %+v", d)
	}

	tests := []struct {
		name   string
		edit   func(string) string
		format []string // codes of Validate
		verify []string // codes of VerifySources
	}{
		{name: "a changed quote", edit: func(s string) string {
			return strings.Replace(s, "```text\n日当は1日につき2,000円", "```text\n日当は1日につき3,000円", 1)
		},
			verify: []string{report.ProblemCitationQuote}},
		{name: "a number no cited line states", edit: func(s string) string { return strings.Replace(s, "2,500円。 [L1]", "3,500円。 [L1]", 1) },
			verify: []string{report.ProblemClaimNumber}},
		{name: "a number of another line of the file", edit: func(s string) string {
			return strings.Replace(s, "2,500円。 [L1]", "2,500円、片道100km未満は支給しない。 [L1]", 1)
		},
			verify: []string{report.ProblemClaimNumber}},
		{name: "a number the web snippet does not state", edit: func(s string) string {
			return strings.Replace(s, "非課税とされる。 [W1]", "5万円まで非課税とされる。 [W1]", 1)
		},
			verify: []string{report.ProblemClaimNumber}},
		{name: "kanji numerals no cited line states", edit: func(s string) string {
			return strings.Replace(s, "2,000円、課長以上は2,500円。 [L1]", "三千円、課長以上は五千円。 [L1]", 1)
		},
			verify: []string{report.ProblemClaimNumber}},
		{name: "kanji numerals are the cited line's numbers", edit: func(s string) string {
			return strings.Replace(s, "2,000円、課長以上は2,500円。 [L1]", "二千円、課長以上は二千五百円。 [L1]", 1)
		}},
		{name: "full-width digits are the same number", edit: func(s string) string { return strings.Replace(s, "1泊11,000円", "1泊１１，０００円", 1) }},
		{name: "a claim without its source", edit: func(s string) string { return strings.Replace(s, "2,500円。 [L1]", "2,500円。", 1) },
			format: []string{report.ProblemClaimUncited}},
		{name: "a label no block defines", edit: func(s string) string { return strings.Replace(s, "11,000円。 [L2]", "11,000円。 [L3]", 1) },
			format: []string{report.ProblemClaimRef}},
		{name: "no status", edit: func(s string) string { return strings.Replace(s, "status: draft\n", "", 1) },
			format: []string{report.ProblemFrontMatter}},
		{name: "front matter not closed", edit: func(s string) string {
			return strings.Replace(s, "\"出張旅費の規程-20260601-abcd\"\n---\n", "\"出張旅費の規程-20260601-abcd\"\n", 1)
		},
			format: []string{report.ProblemFrontMatter}},
		{name: "a local block without its citation", edit: func(s string) string {
			return strings.Replace(s, report.Citation("旅費規程.md", abs, 8, 9), "規程/旅費規程.md L8-L9", 1)
		},
			format: []string{report.ProblemSourceFormat}},
		{name: "sections out of order", edit: func(s string) string { return strings.Replace(s, "## 2. 宿泊料", "## 4. 宿泊料", 1) },
			format: []string{report.ProblemSectionOrder}},
		{name: "no subtopic section", edit: func(s string) string {
			head, rest, _ := strings.Cut(s, "## 1. 日当")
			_, tail, _ := strings.Cut(rest, "## 出典")
			return head + "## 出典" + tail
		}, format: []string{report.ProblemSchema, report.ProblemSectionMissing}},
		{name: "no source at all", edit: func(s string) string {
			head, _, _ := strings.Cut(s, "## 1. 日当")
			return head + "## 1. 日当\n\n" + report.SentenceInsufficient + "\n\n## 2. 宿泊料\n\n" + report.SentenceInsufficient + "\n\n## 出典\n\n出典なし\n"
		}, format: []string{report.ProblemNoEvidence}},
		{name: "a citation past the end of the file", edit: func(s string) string {
			return strings.ReplaceAll(strings.ReplaceAll(s, "#L8-L9", "#L8-L90"), "(L8-L9)", "(L8-L90)")
		}, verify: []string{report.ProblemCitationOutOfRange}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			edited, _ := report.Complete([]byte(tc.edit(md)))
			got := report.Validate(edited)
			if !slices.Equal(codesOf(got), tc.format) {
				t.Fatalf("Validate: %v, want %v", got, tc.format)
			}
			if len(got) > 0 {
				return
			}
			got = report.VerifySources(edited, src)
			if !slices.Equal(codesOf(got), tc.verify) {
				t.Fatalf("VerifySources: %v, want %v", got, tc.verify)
			}
		})
	}

	// A comment that disagrees with the text.
	bad := strings.Replace(string(full), `"title":"2. 宿泊料"`, `"title":"2. 宿泊費"`, 1)
	if got := codesOf(report.Validate([]byte(bad))); !slices.Equal(got, []string{report.ProblemSchema}) {
		t.Errorf("a section title unlike the heading: %v", got)
	}
	bad = strings.Replace(string(full), `"url":"https://www.nta.go.jp/taxes/ryohi.htm"`, `"url":"https://www.nta.go.jp/other"`, 1)
	if got := codesOf(report.Validate([]byte(bad))); !slices.Equal(got, []string{report.ProblemCitationJSON}) {
		t.Errorf("a web source unlike the text's: %v", got)
	}
}

func TestNumbers(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"日当は1日につき2,000円", []string{"1", "2000"}},
		{"１１，０００円と11000円", []string{"11000"}},
		{"2025-04-01に改定、v1.20", []string{"2025", "4", "1", "1.2"}},
		{"0.5日、00時", []string{"0.5", "0"}},
		// Kanji numerals, and digits with kanji units.
		{"三日前まで", []string{"3"}},
		{"日当は1日三千円、課長以上は五千円", []string{"1", "3000", "5000"}},
		{"一万二千円、十五日、二十四時間、二〇二五年", []string{"12000", "15", "24", "2025"}},
		{"1万2千円、200万円、1.5万円", []string{"12000", "1", "2", "2000000", "200", "15000", "1.5"}},
		{"第三条、千円", []string{"3", "1000"}},
		// Values of a CSV line are not thousands.
		{"Q-2026-0104,2026-04-07,1,2026", []string{"2026", "104", "4", "7", "1"}},
		// Words, not numbers.
		{"一般従業員は十分に注意し、統一した様式で、万一の場合に一部を一律に", nil},
		{"一二の様式", nil},
	} {
		if got := report.Numbers(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Numbers(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// Every problem code's message is one sentence naming the field and
// what to write there, never a library's words.
func TestEveryProblemIsASentence(t *testing.T) {
	root, abs := deepSource(t)
	src := report.Sources{Root: root}
	lsrc := []map[string]any{localSource(rulesPath, 20, 24)}
	research := func(s string) string {
		return fixture(report.Citation("就業規則.md", rulesPath, 20, 24), lsrc, nil) + s
	}
	good := fixture(report.Citation("就業規則.md", rulesPath, 20, 24), lsrc, nil)
	deep := func(edit func(string) string) string {
		full, _ := report.Complete([]byte(edit(deepReport(abs))))
		return string(full)
	}
	same := func(s string) string { return s }
	wantOf := map[string]string{
		report.ProblemEncoding:            "\xff" + good,
		report.ProblemJSONMissing:         strings.Split(good, "<!-- JSON")[0],
		report.ProblemJSONNotAtEnd:        research("\nmore\n"),
		report.ProblemJSONInvalid:         strings.Split(good, "<!-- JSON")[0] + "<!-- JSON: {\"sections\": [} -->\n",
		report.ProblemSchema:              strings.Replace(good, `"step_number":4`, `"step_number":"4"`, 1),
		report.ProblemSectionMissing:      strings.Replace(good, "## 3. 深堀りローカル情報", "## 3. 追加", 1),
		report.ProblemSectionOrder:        strings.Replace(strings.Replace(good, "## 2. Web情報", "## X", 1), "## 4. 結論", "## 4. 結論\n\n## 2. Web情報", 1),
		report.ProblemCitationMissing:     fixture("就業規則によれば3営業日前まで。", lsrc, nil),
		report.ProblemCitationFormat:      fixture(report.Citation("規程", rulesPath, 20, 24), lsrc, nil),
		report.ProblemCitationLines:       fixture(report.Citation("就業規則.md", rulesPath, 24, 20), lsrc, nil),
		report.ProblemCitationPath:        fixture(report.Citation("就業規則.md", "規程/就業規則.md", 20, 24), lsrc, nil),
		report.ProblemVSCodeLink:          fixture(strings.Replace(report.Citation("就業規則.md", rulesPath, 20, 24), ".md:20)", ".md:21)", 1), lsrc, nil),
		report.ProblemCitationFileMissing: good,
		report.ProblemCitationOutOfRange: deep(func(s string) string {
			return strings.ReplaceAll(strings.ReplaceAll(s, "#L8-L9", "#L8-L90"), "(L8-L9)", "(L8-L90)")
		}),
		report.ProblemCitationQuote: deep(func(s string) string {
			return strings.Replace(s, "```text\n日当は1日につき2,000円", "```text\n日当は1日につき3,000円", 1)
		}),
		report.ProblemCitationJSON: strings.Replace(deep(same), `"start":8`, `"start":7`, 1),
		report.ProblemFrontMatter:  deep(func(s string) string { return strings.Replace(s, "status: draft", "status: done", 1) }),
		report.ProblemClaimUncited: deep(func(s string) string { return strings.Replace(s, "2,500円。 [L1]", "2,500円。", 1) }),
		report.ProblemClaimRef:     deep(func(s string) string { return strings.Replace(s, "11,000円。 [L2]", "11,000円。 [L7]", 1) }),
		report.ProblemClaimNumber:  deep(func(s string) string { return strings.Replace(s, "2,500円。 [L1]", "3,500円。 [L1]", 1) }),
		report.ProblemNoEvidence:   "---\nkind: deep\nstatus: draft\ntopic: x\nslug: x-20260601-abcd\n---\n\n## 1. 日当\n\n" + report.SentenceInsufficient + "\n\n## 出典\n\n出典なし\n",
		report.ProblemSourceFormat: deep(func(s string) string {
			return strings.Replace(s, "### [W1] 出張旅費の税務\n\n[出張旅費の税務]", "### [W1] 出張旅費の税務\n\n出張旅費の税務", 1)
		}),
	}
	for _, code := range report.Codes() {
		t.Run(code, func(t *testing.T) {
			var ps []report.Problem
			if code == report.ProblemWebCitation {
				ps = []report.Problem{report.WebMismatch("W1", 40, "https://example.com/x is not among the pages lwr fetched")}
			} else {
				md, ok := wantOf[code]
				if !ok {
					t.Fatalf("no report makes %s", code)
				}
				ps = report.Validate([]byte(md))
				if len(ps) == 0 {
					ps = report.VerifySources([]byte(md), src)
				}
			}
			found := false
			for _, p := range ps {
				if p.Code == code {
					found = true
					report.CheckSentence(t, p)
				}
			}
			if !found {
				t.Fatalf("no %s among %v", code, ps)
			}
		})
	}
}

// FuzzDeepReport feeds the deep report's parser, checks and comment
// what an agent might write: nothing panics, every problem has a known
// code and a line inside the report, and a completed report keeps its
// comment when completed again.
func FuzzDeepReport(f *testing.F) {
	root := configtest.TempDir(f)
	researchtest.WriteFile(f, filepath.Join(root, "規程", "旅費規程.md"), travelRule)
	abs := filepath.ToSlash(filepath.Join(root, "規程", "旅費規程.md"))
	f.Add(deepReport(abs))
	f.Add("---\nkind: deep\n---\n## 1. a\n- 1 [L1, W2]\n## 出典\n### [L1] x\n### [W2] y\n[y](https://e.x/)\n> 1\n")
	f.Add("---\nkind: deep\nstatus: [\n---\n")
	known := map[string]bool{}
	for _, c := range report.Codes() {
		known[c] = true
	}
	f.Fuzz(func(t *testing.T, md string) {
		lines := strings.Count(md, "\n") + 3
		full, _ := report.Complete([]byte(md))
		if again, added := report.Complete(full); added || string(again) != string(full) {
			t.Fatalf("Complete is not idempotent")
		}
		ps := report.Validate(full)
		ps = append(ps, report.VerifySources(full, report.Sources{Root: root})...)
		for _, p := range ps {
			if !known[p.Code] || p.Message == "" || p.Line < 0 || p.Line > lines {
				t.Fatalf("problem %+v (report of %d lines)", p, lines)
			}
		}
	})
}
