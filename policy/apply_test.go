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
	mid := func(own bool) Candidate { return doc(t, "研修/2025/契約事務.md", "200万円以下", 7, own) }
	newer := func(own bool) Candidate { return doc(t, "研修/2026/契約事務.md", "200万円以下", 3, own) }
	tests := []struct {
		name  string
		cands []Candidate
		opts  Options
		want  []string
	}{
		{
			name:  "preferred edition matching in its own text comes first, the rest keep their order",
			cands: []Candidate{old(true), other, mid(true), newer(true)},
			want:  []string{"研修/2026/契約事務.md", "研修/2024/契約事務.md", "規程/経費精算規程.md", "研修/2025/契約事務.md"},
		},
		{
			name:  "preferred edition matching only through synonyms or bigrams stays in place",
			cands: []Candidate{old(true), other, newer(false), mid(false)},
			want:  []string{"研修/2024/契約事務.md", "規程/経費精算規程.md", "研修/2026/契約事務.md", "研修/2025/契約事務.md"},
		},
		{
			name:  "the newest of an undeclared family comes next to the old one",
			cands: []Candidate{old(true), other, newer(false), mid(true)},
			want:  []string{"研修/2024/契約事務.md", "研修/2025/契約事務.md", "規程/経費精算規程.md", "研修/2026/契約事務.md"},
		},
		{
			name:  "an older edition of an undeclared family does not move up",
			cands: []Candidate{mid(true), other, old(true)},
			want:  []string{"研修/2025/契約事務.md", "規程/経費精算規程.md", "研修/2024/契約事務.md"},
		},
		{
			name:  "the newest already above the old one: nothing moves",
			cands: []Candidate{newer(true), old(true), other, mid(true)},
			want:  []string{"研修/2026/契約事務.md", "研修/2024/契約事務.md", "規程/経費精算規程.md", "研修/2025/契約事務.md"},
		},
		{
			name:  "a query matching only the old text does not bring the preferred edition",
			cands: []Candidate{old(true), other},
			want:  []string{"研修/2024/契約事務.md", "規程/経費精算規程.md"},
		},
		{
			name:  "ignore-source-preference keeps pure relevance order",
			cands: []Candidate{old(true), other, mid(true), newer(true)},
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
	}{
		{
			name:    "record on the old amount applies to its passage",
			cand:    doc(t, "研修/2024/契約事務.md", "物品の購入について、予定価格が160万円以下", 9, true),
			wantIDs: []string{"keiyaku-threshold"},
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
		},
		{
			name:    "text compared after NFKC and without spaces; record check date wins",
			cand:    doc(t, "研修/2026/契約事務.md", "予定価格185万円の物品", 7, true),
			wantIDs: []string{"setsurei-185"},
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
		{"**/**/a/**/b.md", "x/a/y/z/b.md", true},
		{"**/a/**/b.md", "x/y/z/b.md", false},
		{"a/**", "a", false},
		{"a/**/**", "a/b", true},
		// Many "**" against a deep path: each pair of segments is tried
		// once (this took longer than any test timeout when the "**"
		// were tried by backtracking).
		{strings.Repeat("**/", 40) + "x.md", strings.Repeat("d/", 30) + "y.md", false},
		{strings.Repeat("**/", 40) + "x.md", strings.Repeat("d/", 30) + "x.md", true},
		// The one dialect (.gitignore's): a name without a slash at any
		// depth, a folder for what it holds.
		{"契約事務.md", "研修/2024/契約事務.md", true},
		{"研修", "研修/2024/契約事務.md", true},
		{"/契約事務.md", "研修/2024/契約事務.md", false},
		{"研修/2024", "研修/2024/sub/契約事務.md", true},
	}
	for _, tt := range tests {
		g, err := compileGlob(tt.pattern)
		if err != nil {
			t.Fatalf("compileGlob(%q): %v", tt.pattern, err)
		}
		if got := g.Match(tt.path); got != tt.want {
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

func ExampleLoader_Currentness() {
	root, _ := os.MkdirTemp("", "lwr-policy")
	defer os.RemoveAll(root)
	os.MkdirAll(filepath.Join(root, Dir), 0o755)
	os.WriteFile(CurrentnessPath(root), []byte(`{"version": 1, "checked_at": "2026-10-01",
		"records": [{"id": "a", "paths": ["研修/*.md"], "action": "assert_current"}]}`), 0o644)
	_, err := Loader{Root: root, FS: os.DirFS(root)}.Currentness()
	fmt.Println(filepath.ToSlash(strings.ReplaceAll(err.Error(), root, "<root>")))
	// Output:
	// currentness_policy_invalid: <root>/.research-policy/currentness.json: /records/0/action: unknown action "assert_current"; fix: use one of replace_with_verified_rule, correct_boundary, do_not_assert_current, check_conditions, illustrative_only, no_numeric_rule
}

func TestHistorical(t *testing.T) {
	for q, want := range map[string]bool{
		"USBメモリは使っていいですか":  false,
		"パスワード 文字数":        false,
		"2024年のパスワードの規程":   true,
		"令和6年度版の契約事務":      true,
		"旧版では何文字だった":       true,
		"当時の随意契約の上限":       true,
		"改正前の宿泊料":          true,
		"R6の規程":            false,
		"FY2025 予算":        true,
		"12文字以上":           false,
		"内線1234":           false,
		"ポート 20222":        false,
		"以前のバージョンに戻す方法":    false,
		"内線2001":           false,
		"ポート2022":          false,
		"交通費が2000円を超える":    false,
		"1980円":            false,
		"郵便番号100-2001":     false,
		"R2の設定":            false,
		"H2ブロック":           false,
		"過去のパスワードは再利用できる？": false,
		"以前のPCの返却手順":       false,
		"2024年度の予算":        true,
		"R6年度の規程":          true,
		"FY2024 の決算":       true,
		"第3版 の変更点":         false,
		"H.264 のエンコード":     false,
	} {
		if got := Historical(q); got != want {
			t.Errorf("Historical(%q) = %v, want %v", q, got, want)
		}
	}
}
