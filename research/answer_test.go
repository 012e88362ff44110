package research

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"lwr/analyzer"
	"lwr/index"
	"lwr/research/researchtest"
)

// rulesRoot is the folder of company rules in two editions
// (testdata/rules), with its source preferences.
func rulesRoot(t *testing.T) string {
	t.Helper()
	return filepath.Join(researchtest.Repo(), "testdata", "rules")
}

// The conclusion leads with the answer: for questions over the sample
// and the rules folders, the first 要点 is the line that states the
// asked value, filler is left out, and conflicts are only between
// editions of one document, the asked quantity first.
func TestConclusionLeadsWithTheAnswer(t *testing.T) {
	sample := researchtest.Sample(t)
	rulesbRoot := filepath.Join(researchtest.Repo(), "testdata", "rulesb")
	for _, tc := range []struct {
		name, root, query string
		first, firstText  string // the first point's source and a text it holds
		absent            []string
		conflict          string // the first conflict's values, "" for none asked
	}{
		{"sample 随意契約", sample, "随意契約の上限額", "研修/2026/契約事務.md", "200万円以下", []string{"宿泊料", "テレワーク規程", "文書管理規程"}, "200万円"},
		{"rules ホテル代", rulesRoot(t), "出張のホテル代の上限はいくらですか", "規程/旅費規程.md", "14,000円", []string{"出席：", "ガソリン代", "介護休業", "通勤手当"}, ""},
		{"rules パスワード", rulesRoot(t), "パスワードは何文字以上にすればいいですか", "規程/情報セキュリティ規程_2026.md", "12文字以上", []string{"ドライブ文字"}, "12文字"},
		{"rules USBメモリ", rulesRoot(t), "USBメモリは使っていいですか", "規程/情報セキュリティ規程_2026.md", "原則として禁止", nil, ""},
		{"sample パスワード", sample, "パスワードは何文字以上", "研修/2025/情報セキュリティ研修.md", "12文字", nil, "12文字"},
		// The answer stands outside the snippet, above it in its article;
		// the next article's amount (出産祝金) and the next question of a
		// Q&A list (弔慰金) are other points.
		{"rulesb 結婚祝金", rulesbRoot, "結婚したらお祝い金はいくらもらえる?", "規程/慶弔見舞金規程.txt", "結婚祝金として30,000円", []string{"出産祝金", "弔慰金"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix := openIndex(t, tc.root)
			out, _, err := runIn(t, Options{Query: tc.query, SourceRoot: tc.root, Local: localOf(ix, tc.root), SkipWeb: true, Timestamp: testNow()})
			if err != nil {
				t.Fatal(err)
			}
			c := out.Report.Conclusion
			if len(c.Points) == 0 || c.Points[0].Where != tc.first || !strings.Contains(c.Points[0].Text, tc.firstText) {
				t.Fatalf("first point %+v, want %s holding %s", c.Points, tc.first, tc.firstText)
			}
			// Section 1 shows the lines each key point cites.
			for _, p := range c.Points {
				for _, h := range out.Report.Local.Hits {
					if h.Ref == p.Ref && (p.Line < h.Match.StartLine || max(p.Line, p.EndLine) > h.Match.EndLine) {
						t.Errorf("point %s L%d-L%d outside its excerpt L%d-L%d", p.Ref, p.Line, p.EndLine, h.Match.StartLine, h.Match.EndLine)
					}
				}
			}
			for _, p := range c.Points {
				for _, a := range tc.absent {
					if strings.Contains(p.Text, a) || strings.Contains(p.Where, a) {
						t.Errorf("filler point %+v (holds %s)", p, a)
					}
				}
			}
			md, err := os.ReadFile(out.Finalized.Report)
			if err != nil {
				t.Fatal(err)
			}
			researchtest.CheckReport(t, md, tc.root, true)
			// Every conflict between two documents is between editions of
			// one (related); none is about the dates of unrelated ones.
			for _, cf := range c.Conflicts {
				var locals []*Hit
				for _, sd := range cf.Sides {
					for i := range out.Report.Local.Hits {
						if h := &out.Report.Local.Hits[i]; h.Ref == sd.Ref {
							locals = append(locals, h)
						}
					}
				}
				if len(locals) == 2 && !related(source{hit: locals[0]}, source{hit: locals[1]}) {
					t.Errorf("conflict between unrelated documents: %+v", cf)
				}
				if cf.Kind == FactDate && len(locals) == 2 {
					t.Errorf("a date conflict for a question that asks no date: %+v", cf)
				}
			}
			if tc.conflict != "" {
				if len(c.Conflicts) == 0 || c.Conflicts[0].Sides[c.Conflicts[0].Winner].Value != tc.conflict {
					t.Errorf("first conflict %+v, want one won by %s", c.Conflicts, tc.conflict)
				}
			}
		})
	}
}

func TestAskedOf(t *testing.T) {
	for q, want := range map[string]string{
		"パスワードは何文字以上":       "quantity:文字",
		"パスワード 文字数":         "quantity:文字",
		"出張のホテル代の上限はいくらですか": "amount",
		"随意契約の上限額":          "amount",
		"有休は何日もらえる":         "quantity:日",
		"申請の期限はいつ":          "date quantity",
		"残業の上限":             "amount quantity",
		"USBメモリは使っていいですか":   "",
		"工場で靴は何を履けばいい":      "", // 何を asks for a thing
		"10年勤めたら何かもらえる":     "",
		"最大何人まで":            "quantity:人",
		"最大で何？":             "amount quantity",
	} {
		a := askedOf(q)
		var got []string
		for _, k := range []string{FactAmount, FactDate, FactQuantity} {
			if a.kinds[k] {
				got = append(got, k)
			}
		}
		s := strings.Join(got, " ")
		if a.unit != "" {
			s += ":" + a.unit
		}
		if s != want {
			t.Errorf("askedOf(%q) = %q, want %q", q, s, want)
		}
	}
}

func TestQuantities(t *testing.T) {
	vals, _, _ := quantities("2026年4月1日施行。パスワードは12文字以上、3営業日前まで、1か月45時間、令和6年度、通算93日、第3条、定員1,000人、3ケ月、3分の1、平成 27年")
	if got := strings.Join(vals, " "); got != "12文字 3営業日 1か月 45時間 93日 1000人 3か月" {
		t.Errorf("quantities: %s", got)
	}
}

// The conclusion reads the question's words from the search (the daemon
// analyzed them): a research answered by a daemon never loads the
// analyzer's dictionary in its own process (half a second). The check
// runs in a process of its own, where nothing else loaded it.
func TestConclusionDoesNotLoadTheAnalyzer(t *testing.T) {
	if os.Getenv("LWR_TEST_CONCLUSION_CHILD") == "1" {
		r := &Report{Query: "出張のホテル代の上限はいくらですか", Local: LocalPhase{Content: []string{"出張", "ホテル", "上限"}, Synonyms: []string{"宿泊料"}}}
		r.Local.Hits = []Hit{{Ref: "L1", Path: "規程/旅費規程.md", Match: index.Match{Path: "規程/旅費規程.md", StartLine: 24, EndLine: 27,
			Snippet: "第5条（宿泊料）\n宿泊料は、1泊につき次の額を上限として実費を支給する。\n一般従業員　11,000円\n課長以上　14,000円", Highlights: [][2]int{{3, 12}}}}}
		c := BuildConclusion(r)
		if len(c.Points) != 1 || !strings.Contains(c.Points[0].Text, "14,000円") {
			t.Fatalf("points %+v", c.Points)
		}
		if analyzer.Default().Loaded() {
			t.Fatal("the conclusion loaded the analyzer's dictionary")
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestConclusionDoesNotLoadTheAnalyzer$", "-test.count=1")
	cmd.Env = append(os.Environ(), "LWR_TEST_CONCLUSION_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// When no passage is about the question (no document says ジム; the
// benefit is スポーツクラブ), the conclusion shows a few of them, not one
// line of every hit.
func TestConclusionWithoutAboutIsShort(t *testing.T) {
	root := filepath.Join(researchtest.Repo(), "testdata", "training")
	ix := openIndex(t, root)
	out, _, err := runIn(t, Options{Query: "ジムを安く使える制度ってある？", SourceRoot: root, Local: localOf(ix, root), SkipWeb: true, Timestamp: testNow()})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(out.Report.Local.Hits); n <= maxFillerPoints {
		t.Fatalf("only %d hits: the test needs more than %d", n, maxFillerPoints)
	}
	if c := out.Report.Conclusion; len(c.Points) != maxFillerPoints {
		t.Errorf("%d key points, want %d: %+v", len(c.Points), maxFillerPoints, c.Points)
	}
}

// A question typed on several lines makes a title of one line.
func TestTitleOfAQuestionOnSeveralLines(t *testing.T) {
	sample := researchtest.Sample(t)
	ix := openIndex(t, sample)
	out, _, err := runIn(t, Options{Query: "随意契約の\n上限額", SourceRoot: sample, Local: localOf(ix, sample), SkipWeb: true, Timestamp: testNow()})
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(out.Finalized.Report)
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(md), "\n"); first != "# 調査レポート: 随意契約の 上限額" {
		t.Errorf("title %q", first)
	}
}
