package research

import (
	"strings"
	"testing"
	"time"

	"lwr/analyzer"
	"lwr/analyzer/edition"
	"lwr/index"
	"lwr/policy"
	"lwr/research/report"
	"lwr/web"
)

// docHit is a local hit on a document: its title is the first line, its
// editions are read from the whole text, the snippet is lines s..e.
func docHit(ref, path, text string, s, e int) Hit {
	lines := strings.Split(text, "\n")
	title := strings.TrimPrefix(lines[0], "# ")
	return Hit{Ref: ref, Path: path, Abs: "/root/" + path, Match: index.Match{
		Path: path, Title: title, Snippet: strings.Join(lines[s-1:e], "\n"), StartLine: s, EndLine: e,
		Editions: edition.Find(text), ModTime: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC),
	}}
}

func webHit(ref, title, url, snippet string, trust int, reasons ...string) WebHit {
	return WebHit{Ref: ref, Entry: web.Entry{Title: title, URL: url, Snippet: snippet, Trust: trust, TrustReasons: reasons}}
}

const (
	travel2024 = "# 旅費規程（2024年度版）\n\n改訂：2024年4月1日\n\n## 宿泊料\n\n東京23区の宿泊料の上限は1泊10,000円とする。\n"
	travel2025 = "# 旅費規程（2025年度版）\n\n改訂：2025年7月1日\n\n## 宿泊料\n\n東京23区の宿泊料の上限は1泊12,000円とする。\n"
	noDate1    = "# 出張メモ\n\n東京23区の宿泊料の上限は1泊10,000円とする。\n"
	noDate2    = "# 出張メモ（写し）\n\n東京23区の宿泊料の上限は1泊12,000円とする。\n"
	ruleA      = "# 会議費規程\n\n施行 2025年4月1日\n"
	ruleB      = "# 交際費規程\n\n施行 2024年10月1日\n"
)

func TestConflicts(t *testing.T) {
	superseded := func(h Hit, by string) Hit {
		h.Ext.Relations = []policy.Relation{{Kind: policy.SupersededBy, Path: by}}
		return h
	}
	preferred := func(h Hit, over string) Hit {
		h.Ext.Preferred = &policy.ExtPreferred{Label: "2025年度版", Supersedes: []string{over}}
		h.Ext.Relations = []policy.Relation{{Kind: policy.Supersedes, Path: over}}
		return h
	}
	tests := []struct {
		name    string
		local   []Hit
		web     []WebHit
		kinds   []string // conflict kinds found, in order
		winner  string   // ref of the winning side of the last conflict; "" = unresolved
		rule    string
		force   string // FORCE_REVIEW reason; "" = none
		noLabel bool
	}{
		{name: "editions by their text, not by mtime", local: []Hit{docHit("L1", "a/旅費規程.md", travel2024, 7, 7), docHit("L2", "b/旅費規程.md", travel2025, 7, 7)},
			kinds: []string{FactAmount}, winner: "L2", rule: RulePriority, force: "情報源の種類が同一（ローカルのみ）で交差比較できない"},
		{name: "declared preference", local: []Hit{superseded(docHit("L1", "a/旅費規程.md", travel2024, 7, 7), "b/旅費規程.md"), preferred(docHit("L2", "b/旅費規程.md", travel2025, 7, 7), "a/旅費規程.md")},
			kinds: []string{FactEdition, FactAmount}, winner: "L2", rule: RulePreference, force: "情報源の種類が同一（ローカルのみ）で交差比較できない"},
		{name: "official web beats local latest", local: []Hit{docHit("L1", "b/旅費規程.md", travel2025, 7, 7)},
			web:   []WebHit{webHit("W1", "旅費", "https://www.example.go.jp/ryohi", "東京23区の宿泊料の上限は1泊13,000円とする。", 1, "official(+1)")},
			kinds: []string{FactAmount}, winner: "W1", rule: RulePriority},
		{name: "local latest beats general web", local: []Hit{docHit("L1", "b/旅費規程.md", travel2025, 7, 7)},
			web:   []WebHit{webHit("W1", "旅費", "https://blog.example.com/ryohi", "東京23区の宿泊料の上限は1泊9,000円とする。", 0)},
			kinds: []string{FactAmount}, winner: "L1", rule: RulePriority},
		{name: "nothing in the text tells: unresolved", local: []Hit{docHit("L1", "a/出張メモ.md", noDate1, 3, 3), docHit("L2", "b/出張メモ.md", noDate2, 3, 3)},
			kinds: []string{FactAmount}, winner: "", rule: RuleUnresolved, force: "情報源の種類が同一（ローカルのみ）で交差比較できない"},
		{name: "short points of unrelated rules are no conflict", local: []Hit{docHit("L1", "a.md", ruleA, 3, 3), docHit("L2", "b.md", ruleB, 3, 3)},
			force: "情報源の種類が同一（ローカルのみ）で交差比較できない"},
		{name: "one source", local: []Hit{docHit("L1", "b/旅費規程.md", travel2025, 7, 7)}, force: "情報源が1件のみで交差比較できない"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &Report{Local: LocalPhase{Hits: tc.local}, Web: WebPhase{Hits: tc.web, Status: report.StatusOK}, SkipWeb: tc.web == nil}
			c := BuildConclusion(r)
			var kinds []string
			for _, cf := range c.Conflicts {
				kinds = append(kinds, cf.Kind)
			}
			if strings.Join(kinds, ",") != strings.Join(tc.kinds, ",") {
				t.Fatalf("conflicts %v, want %v: %+v", kinds, tc.kinds, c.Conflicts)
			}
			if len(c.Conflicts) > 0 {
				last := c.Conflicts[len(c.Conflicts)-1]
				got := ""
				if last.Winner >= 0 {
					got = last.Sides[last.Winner].Ref
					if last.Sides[1-last.Winner].Label == "" {
						t.Errorf("the losing value has no label: %+v", last)
					}
				}
				if got != tc.winner || last.Rule != tc.rule {
					t.Errorf("winner %q by %s, want %q by %s: %s", got, last.Rule, tc.winner, tc.rule, last.Reason)
				}
				if !c.Resolution.Detected || c.Resolution.Reason == "" || !strings.Contains(c.Resolution.AppliedRule, tc.rule) {
					t.Errorf("resolution %+v", c.Resolution)
				}
			} else if c.Resolution.Detected {
				t.Errorf("resolution %+v without conflicts", c.Resolution)
			}
			switch {
			case tc.force == "" && c.ForceReview != nil:
				t.Errorf("FORCE_REVIEW %+v", c.ForceReview)
			case tc.force != "" && (c.ForceReview == nil || c.ForceReview.Reason != tc.force):
				t.Errorf("FORCE_REVIEW %+v, want %q", c.ForceReview, tc.force)
			case c.ForceReview != nil && len(c.ForceReview.Sides) == 0:
				t.Errorf("FORCE_REVIEW shows no side")
			case c.ForceReview != nil && len(c.Conflicts) == 0 && tc.web == nil && (len(c.ForceReview.Sides) != 1 || c.ForceReview.Missing != "Web情報なし（Web検索を行っていない）"):
				// No conflict and local sources only: the best evidence on
				// one side, the web that was not searched on the other, not
				// two unrelated lines against each other.
				t.Errorf("FORCE_REVIEW of local sources only %+v", c.ForceReview)
			}
		})
	}
}

func TestCurrentnessRecordAgainstOneDocument(t *testing.T) {
	h := docHit("L1", "研修/2024/旅費規程.md", travel2024, 7, 7)
	h.Ext.Currentness = []policy.ExtRecord{{
		ID: "ryohi", Action: policy.ReplaceWithVerifiedRule, Meaning: policy.ReplaceWithVerifiedRule.Meaning(),
		MatchedText: "10,000円", Verified: &policy.Verified{Value: "12,000円", EffectiveFrom: "2025-07-01"}, CheckedAt: "2026-05-25",
		Unverified: "地方の額は未確認",
	}}
	c := BuildConclusion(&Report{Local: LocalPhase{Hits: []Hit{h}}, SkipWeb: true})
	if len(c.Conflicts) != 1 {
		t.Fatalf("conflicts %+v", c.Conflicts)
	}
	cf := c.Conflicts[0]
	if cf.Winner != 1 || cf.Sides[1].Value != "12,000円" || cf.Rule != RuleCurrentness || !strings.Contains(cf.Sides[0].Label, "値を現行の根拠に使わない") {
		t.Errorf("conflict %+v", cf)
	}
	if len(c.Currentness) != 1 || len(c.Unverified) == 0 {
		t.Errorf("notes %+v %+v", c.Currentness, c.Unverified)
	}
	// A historical question quotes the old value as a value of its time.
	old := BuildConclusion(&Report{Local: LocalPhase{Hits: []Hit{h}}, SkipWeb: true, IgnorePreference: true})
	if l := old.Conflicts[0].Sides[0].Label; !strings.Contains(l, "当時の値としてのみ引用") {
		t.Errorf("historical label %q", l)
	}
}

func TestAmounts(t *testing.T) {
	vals, raws, _ := amounts(analyzer.Fold("上限は１６０万円、日当は2,400円、総額1.5億円、宿泊 12,000 円"))
	want := []string{"1600000円", "2400円", "150000000円", "12000円"}
	if strings.Join(vals, " ") != strings.Join(want, " ") {
		t.Errorf("amounts %v (%v)", vals, raws)
	}
}

// A question of a Q&A list that matches the user's question runs on to
// its answer, and no further.
func TestPointOfAQuestionHoldsItsAnswer(t *testing.T) {
	faq := "# FAQ\n\n**Q3. 宅配便はどこから出せばいいですか。**\nA3. 郵便室の宅配便受付台に置き、発送台帳に記入します。\n\n**Q4. 私用の荷物は？**\nA4. 会社あてにはできません。\n"
	h := docHit("L1", "メモ/FAQ.md", faq, 3, 3)
	h.Match.Passage, h.Match.PassageStart, h.Match.PassageEnd = strings.Join(strings.Split(faq, "\n")[:8], "\n"), 1, 8
	r := &Report{Query: "宅配便を出したいときはどうすればいい", Local: LocalPhase{Hits: []Hit{h}, Content: []string{"宅配"}}, SkipWeb: true}
	c := BuildConclusion(r)
	if len(c.Points) == 0 || c.Points[0].Line != 3 || c.Points[0].EndLine != 4 || !strings.Contains(c.Points[0].Text, "発送台帳") || strings.Contains(c.Points[0].Text, "私用") {
		t.Errorf("points %+v, want L3-L4 with the answer A3 only", c.Points)
	}
}

func TestRowKind(t *testing.T) {
	for line, want := range map[string]string{
		"｜ CC ｜ 内容を共有しておきたい人 ｜":    "table",
		"| BCC | 他の宛先に見せない人 |":     "table",
		"- 集荷は毎日16時です。":            "item",
		"3. 品名は具体的に書く":             "item",
		"（1）負傷者の救護":                "item",
		"2　貸与機器は、情報システム課が管理する。":    "item",
		"2024年8月改訂":                "",
		"担当者がすぐに来られない場合は、お待ちいただく。": "",
	} {
		if got := rowKind(line); got != want {
			t.Errorf("rowKind(%q) = %q, want %q", line, got, want)
		}
	}
}

// A line that states the asked number the way the question asks it
// (何か月先まで: 2か月先まで) is the point, over one that states another
// number of the same unit.
func TestPointStatesTheNumberAsAsked(t *testing.T) {
	text := "# 会議室予約の手順\n\n繰り返し予約の有効期間は3か月で、予約は期間終了前に再登録する。\n予約できるのは2か月先までです。\n"
	h := docHit("L1", "手順/会議室予約の手順.md", text, 3, 4)
	for off := 0; ; {
		i := strings.Index(h.Match.Snippet[off:], "予約")
		if i < 0 {
			break
		}
		h.Match.Highlights = append(h.Match.Highlights, [2]int{off + i, off + i + len("予約")})
		off += i + len("予約")
	}
	r := &Report{Query: "会議室は何か月先まで予約できますか", Local: LocalPhase{Hits: []Hit{h}, Content: []string{"会議", "予約"}}, SkipWeb: true}
	c := BuildConclusion(r)
	if len(c.Points) == 0 || c.Points[0].Line != 4 {
		t.Errorf("points %+v, want L4 (2か月先まで)", c.Points)
	}
}
