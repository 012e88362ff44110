package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"lwr/analyzer/edition"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const fixtureRoot = "testdata/root"

// doc reads a fixture document as a candidate whose passage is the part of
// the text that holds passage ("" = the whole text).
func doc(t testing.TB, path, passage string, score float64, own bool) Candidate {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureRoot, filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return candidate(path, b, passage, score, own)
}

func candidate(path string, b []byte, passage string, score float64, own bool) Candidate {
	text := string(b)
	sum := sha256.Sum256(b)
	snip := text
	if passage != "" {
		i := strings.Index(text, passage)
		if i < 0 {
			panic(fmt.Sprintf("%s has no %q", path, passage))
		}
		snip = text[i : i+len(passage)]
	}
	title := strings.TrimPrefix(strings.SplitN(text, "\n", 2)[0], "# ")
	return Candidate{Path: path, Title: title, Score: score, Text: snip, SHA256: hex.EncodeToString(sum[:]),
		OwnMatch: own, Editions: edition.Find(text)}
}

func fixturePolicies(t testing.TB) (*Preferences, *Currentness, *Corpus) {
	t.Helper()
	p, err := LoadPreferences(fixtureRoot)
	if err != nil {
		t.Fatal(err)
	}
	c, err := LoadCurrentness(fixtureRoot)
	if err != nil {
		t.Fatal(err)
	}
	titles := map[string]string{}
	for _, path := range []string{"研修/2024/契約事務.md", "研修/2025/契約事務.md", "研修/2026/契約事務.md", "規程/経費精算規程.md"} {
		titles[path] = doc(t, path, "", 0, false).Title
	}
	return p, c, NewCorpus(titles)
}

func paths(as []Annotated) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Path
	}
	return out
}

// Done-when 1, at the policy level.
func TestApplyPreferredFirst(t *testing.T) {
	prefs, cur, corpus := fixturePolicies(t)
	old := func(own bool) Candidate { return doc(t, "研修/2024/契約事務.md", "160万円以下", 9, own) }
	other := doc(t, "規程/経費精算規程.md", "", 8, true)
	mid := doc(t, "研修/2025/契約事務.md", "200万円以下", 7, true)
	newer := func(own bool) Candidate { return doc(t, "研修/2026/契約事務.md", "200万円以下", 3, own) }
	tests := []struct {
		name  string
		cands []Candidate
		opts  Options
		want  []string
	}{
		{
			name:  "preferred edition matching in its own text comes first, the rest keep their order",
			cands: []Candidate{old(true), other, mid, newer(true)},
			want:  []string{"研修/2026/契約事務.md", "研修/2024/契約事務.md", "規程/経費精算規程.md", "研修/2025/契約事務.md"},
		},
		{
			name:  "preferred edition matching only through synonyms or bigrams stays in place",
			cands: []Candidate{old(true), other, newer(false), mid},
			want:  []string{"研修/2024/契約事務.md", "規程/経費精算規程.md", "研修/2026/契約事務.md", "研修/2025/契約事務.md"},
		},
		{
			name:  "a query matching only the old text does not bring the preferred edition",
			cands: []Candidate{old(true), other},
			want:  []string{"研修/2024/契約事務.md", "規程/経費精算規程.md"},
		},
		{
			name:  "ignore-source-preference keeps pure relevance order",
			cands: []Candidate{old(true), other, mid, newer(true)},
			opts:  Options{IgnorePreference: true},
			want:  []string{"研修/2024/契約事務.md", "規程/経費精算規程.md", "研修/2025/契約事務.md", "研修/2026/契約事務.md"},
		},
		{
			name:  "already first stays first",
			cands: []Candidate{newer(true), old(true)},
			want:  []string{"研修/2026/契約事務.md", "研修/2024/契約事務.md"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := append([]Candidate(nil), tt.cands...)
			got := Apply(tt.cands, corpus, prefs, cur, tt.opts)
			if !reflect.DeepEqual(paths(got), tt.want) {
				t.Errorf("order %v, want %v", paths(got), tt.want)
			}
			if !reflect.DeepEqual(in, tt.cands) {
				t.Error("Apply changed its input")
			}
			for _, a := range got {
				if a.Promoted != (a.Path == "研修/2026/契約事務.md" && a.OwnMatch && !tt.opts.IgnorePreference) {
					t.Errorf("%s: Promoted = %v", a.Path, a.Promoted)
				}
			}
		})
	}
}

func TestApplyRelationsAndEditions(t *testing.T) {
	prefs, cur, corpus := fixturePolicies(t)
	cands := []Candidate{
		doc(t, "研修/2024/契約事務.md", "160万円以下", 9, true),
		doc(t, "研修/2025/契約事務.md", "200万円以下", 8, true),
		doc(t, "研修/2026/契約事務.md", "200万円以下", 7, true),
		doc(t, "規程/経費精算規程.md", "", 6, true),
	}
	got := Apply(cands, corpus, prefs, cur, Options{IgnorePreference: true})
	want := map[string]struct {
		edition   string
		relations []Relation
	}{
		"研修/2024/契約事務.md": {"2024年度 第2版 改訂2024-04-01", []Relation{
			{Kind: SupersededBy, Path: "研修/2026/契約事務.md", Label: "2026年度版"},
			{Kind: PossiblyRelated, Path: "研修/2025/契約事務.md"},
		}},
		"研修/2025/契約事務.md": {"2025年度 改訂2025-04-01", []Relation{
			{Kind: PossiblyRelated, Path: "研修/2024/契約事務.md"},
			{Kind: PossiblyRelated, Path: "研修/2026/契約事務.md"},
		}},
		"研修/2026/契約事務.md": {"2026年度 第3版 改訂2026-04-01", []Relation{
			{Kind: Supersedes, Path: "研修/2024/契約事務.md"},
			{Kind: PossiblyRelated, Path: "研修/2025/契約事務.md"},
		}},
		"規程/経費精算規程.md": {edition.Unknown, nil},
	}
	for _, a := range got {
		w := want[a.Path]
		if a.Edition != w.edition {
			t.Errorf("%s: edition %q, want %q", a.Path, a.Edition, w.edition)
		}
		if !reflect.DeepEqual(a.Relations, w.relations) {
			t.Errorf("%s: relations %+v, want %+v", a.Path, a.Relations, w.relations)
		}
	}
	if got[2].Preferred == nil || got[0].Preferred != nil {
		t.Error("Preferred not set on the preferred document alone")
	}
}

// Titles that differ only by year are related even when no title states
// it, if only the year differs in the path too; same-titled documents
// elsewhere are not.
func TestCorpusRelated(t *testing.T) {
	c := NewCorpus(map[string]string{
		"研修/2024/契約事務.md":    "契約事務",
		"研修/2026/契約事務.md":    "契約事務",
		"総務/README.md":       "はじめに",
		"経理/README.md":       "はじめに",
		"手順/VPN接続手順_v1.2.md": "VPN接続手順 v1.2",
		"手順/VPN接続手順_v2.0.md": "VPN接続手順 Ver.2.0",
		"白書/2024.md":         "2024年版",
		"白書/2025.md":         "2025年版",
	})
	tests := []struct {
		path string
		want []string
	}{
		{"研修/2024/契約事務.md", []string{"研修/2026/契約事務.md"}},
		{"総務/README.md", nil},
		{"手順/VPN接続手順_v1.2.md", []string{"手順/VPN接続手順_v2.0.md"}},
		{"白書/2024.md", nil},
	}
	for _, tt := range tests {
		if got := c.related(tt.path, ""); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("related(%s) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

// Done-when 2, at the policy level.
func TestApplyCurrentness(t *testing.T) {
	prefs, cur, corpus := fixturePolicies(t)
	edited := []byte(strings.Replace(string(mustRead(t, "研修/2024/契約事務.md")), "2社以上", "3社以上", 1))
	tests := []struct {
		name      string
		cand      Candidate
		wantIDs   []string
		wantStale bool
		wantIn    []string // in the message
	}{
		{
			name:    "record on the old amount applies to its passage",
			cand:    doc(t, "研修/2024/契約事務.md", "物品の購入について、予定価格が160万円以下", 9, true),
			wantIDs: []string{"keiyaku-threshold"},
			wantIn: []string{"現行性[keiyaku-threshold]=do_not_assert_current(現行性未確認)", `該当="160万円"`, `値="200万円以下"`,
				"施行=2025-04-01", "確認=2026-10-01", `出典="契約事務取扱要領（改正）" https://www.example.go.jp/keiyaku/youryou.html`, `未確認="業務委託の上限額"`},
		},
		{
			name: "not for a passage of the same document without the text",
			cand: doc(t, "研修/2024/契約事務.md", "見積書は2社以上から取り寄せます。", 9, true),
		},
		{
			name: "not for another document with the text",
			cand: candidate("規程/経費精算規程.md", []byte("上限は160万円"), "", 1, true),
		},
		{
			name:      "stale when the document changed since verification",
			cand:      candidate("研修/2024/契約事務.md", edited, "160万円以下", 9, true),
			wantIDs:   []string{"keiyaku-threshold"},
			wantStale: true,
			wantIn:    []string{"状態=stale("},
		},
		{
			name:    "text compared after NFKC and without spaces; record check date wins",
			cand:    doc(t, "研修/2026/契約事務.md", "予定価格185万円の物品", 7, true),
			wantIDs: []string{"setsurei-185"},
			wantIn:  []string{"現行性[setsurei-185]=illustrative_only(設例)", "確認=2026-09-15"},
		},
		{
			name:    "full-width digits in the passage",
			cand:    candidate("研修/2024/契約事務.md", []byte("予定価格が１６０万円以下"), "", 1, true),
			wantIDs: []string{"keiyaku-threshold"}, wantStale: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Apply([]Candidate{tt.cand}, corpus, prefs, cur, Options{})[0]
			var ids []string
			for _, ap := range a.Records {
				ids = append(ids, ap.Record.ID)
				if ap.Stale != tt.wantStale {
					t.Errorf("%s: Stale = %v, want %v", ap.Record.ID, ap.Stale, tt.wantStale)
				}
			}
			if !reflect.DeepEqual(ids, tt.wantIDs) {
				t.Errorf("records %v, want %v", ids, tt.wantIDs)
			}
			msg := a.Message()
			for _, w := range tt.wantIn {
				if !strings.Contains(msg, w) {
					t.Errorf("message lacks %q:\n%s", w, msg)
				}
			}
			if len(tt.wantIDs) == 0 && strings.Contains(msg, "現行性") {
				t.Errorf("message holds a record: %s", msg)
			}
			if !tt.wantStale && strings.Contains(msg, "stale") {
				t.Errorf("message says stale: %s", msg)
			}
		})
	}
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureRoot, filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestApplyNilPolicies(t *testing.T) {
	c := doc(t, "研修/2024/契約事務.md", "160万円以下", 9, true)
	got := Apply([]Candidate{c}, nil, nil, nil, Options{})
	if len(got) != 1 || got[0].Edition != "2024年度 第2版 改訂2024-04-01" || got[0].Relations != nil || got[0].Records != nil {
		t.Errorf("Apply without policies = %+v", got)
	}
	if m := got[0].Message(); m != "研修/2024/契約事務.md: 版=2024年度 第2版 改訂2024-04-01; 関係=なし" {
		t.Errorf("message %q", m)
	}
}

func TestMessageFormat(t *testing.T) {
	prefs, cur, corpus := fixturePolicies(t)
	got := Apply([]Candidate{
		doc(t, "研修/2024/契約事務.md", "160万円以下", 9, true),
		doc(t, "研修/2026/契約事務.md", "200万円以下", 3, true),
	}, corpus, prefs, cur, Options{})
	want := "研修/2026/契約事務.md: 版=2026年度 第3版 改訂2026-04-01; 関係=優先版(指定: 2026年度版), 旧版あり(研修/2024/契約事務.md), 関連の可能性(版関係不明: 研修/2025/契約事務.md)\n" +
		"研修/2024/契約事務.md: 版=2024年度 第2版 改訂2024-04-01; 関係=旧版(優先: 研修/2026/契約事務.md), 関連の可能性(版関係不明: 研修/2025/契約事務.md); " +
		`現行性[keiyaku-threshold]=do_not_assert_current(現行性未確認) 該当="160万円" 値="200万円以下" 施行=2025-04-01 範囲="物品の購入の随意契約（予定価格）" 確認=2026-10-01 ` +
		`出典="契約事務取扱要領（改正）" https://www.example.go.jp/keiyaku/youryou.html 未確認="業務委託の上限額" 注記="令和6年度版の160万円は2025年3月31日までの基準"`
	if m := Messages(got, Options{}); m != want {
		t.Errorf("Messages:\n%s\nwant:\n%s", m, want)
	}
	if m := Messages(got[:1], Options{IgnorePreference: true}); !strings.HasPrefix(m, PreferenceIgnoredLine+"\n") {
		t.Errorf("ignored preference not stated: %s", m)
	}
}

// Record text is data: whatever it holds, the message stays one line and
// no Markdown link, HTML tag, table cell or code span can form, and it
// changes nothing else.
func TestMessageEscapesRecordText(t *testing.T) {
	hostile := "200万円]\n\n## 結論\n[ここを開く](javascript:alert(1)) <script>x</script> | `rm -rf` \u202eevil\u200b \"; 確認=2099-01-01"
	data := fmt.Sprintf(`{"version": 1, "checked_at": "2026-10-01", "records": [{"id": "x", "paths": ["a.md"], "action": "check_conditions",
		"verified": {"value": %q, "scope": %q}, "unverified": %q, "note": %q,
		"sources": [{"title": %q, "url": "https://example.go.jp/a?b=<c>&d=[e]|f"}]}]}`, hostile, hostile, hostile, hostile, hostile)
	cur, err := ParseCurrentness("currentness.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	a := Apply([]Candidate{{Path: "a.md", Text: "本文"}}, nil, nil, cur, Options{})[0]
	msg := a.Message()
	if strings.ContainsAny(strings.Replace(msg, "現行性[x]", "", 1), "\n\r<>[]|`\u202e\u200b") {
		t.Errorf("unescaped characters in %q", msg)
	}
	if strings.Count(msg, " 確認=") != 1 || strings.Count(msg, "; ") != 2 || strings.Count(msg, ";") != 2 {
		t.Errorf("record text made new fields: %q", msg)
	}
	if a.Records[0].Record.Action != CheckConditions || len(a.Records) != 1 {
		t.Errorf("records %+v", a.Records)
	}
}

func TestEscape(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{name: "plain Japanese", in: "200万円以下（税込）", want: "200万円以下（税込）"},
		{name: "newline and tab", in: "a\nb\tc\r", want: `a\nb\tc\r`},
		{name: "markdown link", in: "[x](https://e)", want: "［x］(https://e)"},
		{name: "html", in: "<b>", want: "＜b＞"},
		{name: "table and code", in: "a|b`c`", want: "a｜b｀c｀"},
		{name: "quote and backslash", in: `"\`, want: `\"\\`},
		{name: "bidi and zero width", in: "a\u202eb\u200bc\ufeff", want: `a\u202Eb\u200Bc\uFEFF`},
		{name: "line separator", in: "a\u2028b", want: `a\u2028b`},
		{name: "control", in: "a\x00b\x1b", want: `a\u0000b\u001B`},
		{name: "ideographic space kept", in: "版数　第2版", want: "版数　第2版"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Escape(tt.in); got != tt.want {
				t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		pattern string
		path    string
		want    bool
	}{
		{"研修/2024/契約事務.md", "研修/2024/契約事務.md", true},
		{"研修/2024/契約事務.md", "研修/2024/契約事務.txt", false},
		{"研修/2024/*.md", "研修/2024/契約事務.md", true},
		{"研修/2024/*.md", "研修/2024/sub/契約事務.md", false},
		{"研修/*/契約事務.md", "研修/2025/契約事務.md", true},
		{"研修/**/契約事務.md", "研修/契約事務.md", true},
		{"研修/**/契約事務.md", "研修/a/b/契約事務.md", true},
		{"**/*.md", "a.md", true},
		{"**", "a/b/c.txt", true},
		{"研修/202?/*.md", "研修/2025/x.md", true},
		{"研修/202[45]/*.md", "研修/2026/x.md", false},
		{"研修/202[45]/*.md", "研修/2025/x.md", true},
		{"./研修/*.md", "研修/a.md", true},
		// NFD (as macOS writes names) matches an NFC pattern.
		{"手順/ガイド.md", "手順/\u30ab\u3099イド.md", true},
	}
	for _, tt := range tests {
		g, err := compileGlob(tt.pattern)
		if err != nil {
			t.Fatalf("compileGlob(%q): %v", tt.pattern, err)
		}
		if got := g.match(nfc(tt.path)); got != tt.want {
			t.Errorf("%q matches %q = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}

func TestExtJSON(t *testing.T) {
	prefs, cur, corpus := fixturePolicies(t)
	got := Apply([]Candidate{
		doc(t, "研修/2024/契約事務.md", "160万円以下", 9, true),
		doc(t, "研修/2026/契約事務.md", "200万円以下", 3, true),
	}, corpus, prefs, cur, Options{})
	b, err := json.Marshal([]Ext{got[0].Ext(), got[1].Ext()})
	if err != nil {
		t.Fatal(err)
	}
	var back []map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	first := back[0]
	if first["path"] != "研修/2026/契約事務.md" || first["promoted"] != true || first["preferred"].(map[string]any)["label"] != "2026年度版" {
		t.Errorf("first: %v", first)
	}
	old := back[1]
	rec := old["currentness"].([]any)[0].(map[string]any)
	if rec["id"] != "keiyaku-threshold" || rec["action"] != "do_not_assert_current" || rec["stale"] != false ||
		rec["verified"].(map[string]any)["value"] != "200万円以下" || rec["meaning"].(map[string]any)["label"] != "現行性未確認" {
		t.Errorf("record: %v", rec)
	}
	rel := old["relations"].([]any)[0].(map[string]any)
	if rel["kind"] != "superseded_by" || rel["path"] != "研修/2026/契約事務.md" {
		t.Errorf("relation: %v", rel)
	}
	eds := old["editions"].([]any)
	if len(eds) != 3 || eds[0].(map[string]any)["kind"] != "fiscal_year" {
		t.Errorf("editions: %v", eds)
	}
	if old["message"] != got[1].Message() {
		t.Error("message differs")
	}
	// Empty lists are [], never null.
	e := Apply([]Candidate{{Path: "x.md"}}, nil, nil, nil, Options{})[0].Ext()
	b, _ = json.Marshal(e)
	for _, k := range []string{`"editions":[]`, `"relations":[]`, `"currentness":[]`, `"edition":"版不明"`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("%s lacks %s", b, k)
		}
	}
}

func TestDescribe(t *testing.T) {
	prefs, cur, _ := fixturePolicies(t)
	d := Describe(prefs, cur, Options{IgnorePreference: true})
	if d.Preferred != 1 || d.Records != 2 || d.CurrentnessCheckedAt != "2026-10-01" || !d.PreferenceIgnored ||
		!strings.HasSuffix(d.Currentness, CurrentnessFile) {
		t.Errorf("Describe = %+v", d)
	}
}

func ExampleApply() {
	prefs, _ := ParsePreferences("source-preferences.json", []byte(`{"version": 1,
		"preferred": [{"path": "研修/2026/契約事務.md", "label": "2026年度版", "supersedes": ["研修/2024/契約事務.md"]}]}`))
	cur, _ := ParseCurrentness("currentness.json", []byte(`{"version": 1, "checked_at": "2026-10-01",
		"records": [{"id": "keiyaku-threshold", "paths": ["研修/2024/*.md"], "text": ["160万円"],
		             "action": "do_not_assert_current", "verified": {"value": "200万円以下", "effective_from": "2025-04-01"}}]}`))
	cands := []Candidate{
		{Path: "研修/2024/契約事務.md", Text: "予定価格が160万円以下であれば", OwnMatch: true,
			Editions: edition.Find("# 契約事務（令和6年度版）")},
		{Path: "研修/2026/契約事務.md", Text: "予定価格が200万円以下であれば", OwnMatch: true,
			Editions: edition.Find("# 契約事務（令和8年度版）")},
	}
	for _, a := range Apply(cands, nil, prefs, cur, Options{}) {
		fmt.Println(a.Message())
	}
	// Output:
	// 研修/2026/契約事務.md: 版=2026年度; 関係=優先版(指定: 2026年度版), 旧版あり(研修/2024/契約事務.md)
	// 研修/2024/契約事務.md: 版=2024年度; 関係=旧版(優先: 研修/2026/契約事務.md); 現行性[keiyaku-threshold]=do_not_assert_current(現行性未確認) 該当="160万円" 値="200万円以下" 施行=2025-04-01 確認=2026-10-01
}

func ExampleEscape() {
	fmt.Println(Escape("[開く](javascript:x) <b>|`\n"))
	// Output:
	// ［開く］(javascript:x) ＜b＞｜｀\n
}

func ExampleLoadCurrentness() {
	root, _ := os.MkdirTemp("", "lwr-policy")
	defer os.RemoveAll(root)
	os.MkdirAll(filepath.Join(root, Dir), 0o755)
	os.WriteFile(CurrentnessPath(root), []byte(`{"version": 1, "checked_at": "2026-10-01",
		"records": [{"id": "a", "paths": ["研修/*.md"], "action": "assert_current"}]}`), 0o644)
	_, err := LoadCurrentness(root)
	fmt.Println(strings.ReplaceAll(err.Error(), root, "<root>"))
	// Output:
	// currentness_policy_invalid: <root>/.research-policy/currentness.json: /records/0/action: unknown action "assert_current"; fix: use one of replace_with_verified_rule, correct_boundary, do_not_assert_current, check_conditions, illustrative_only, no_numeric_rule
}
