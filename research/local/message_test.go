package local

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lwr/analyzer/edition"
	"lwr/index"
	"lwr/policy"
)

// The policies and documents of policy's fixture.
const fixtureRoot = "../../policy/testdata/root"

// doc reads a fixture document as a candidate whose passage is the part of
// the text that holds passage ("" = the whole text).
func doc(t testing.TB, path, passage string, score float64, own bool) policy.Candidate {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureRoot, filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if passage == "" {
		passage = text
	}
	if !strings.Contains(text, passage) {
		t.Fatalf("%s has no %q", path, passage)
	}
	sum := sha256.Sum256(b)
	title := strings.TrimPrefix(strings.SplitN(text, "\n", 2)[0], "# ")
	return policy.Candidate{Path: path, Title: title, Score: score, Text: passage, SHA256: hex.EncodeToString(sum[:]),
		OwnMatch: own, Editions: edition.Find(text)}
}

func fixturePolicies(t testing.TB) (*policy.Preferences, *policy.Currentness, *policy.Corpus) {
	t.Helper()
	l := policy.Loader{Root: fixtureRoot, FS: index.SourceFS(fixtureRoot, policy.MaxFileSize)}
	p, err := l.Preferences()
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Currentness()
	if err != nil {
		t.Fatal(err)
	}
	titles := map[string]string{}
	for _, path := range []string{"研修/2024/契約事務.md", "研修/2025/契約事務.md", "研修/2026/契約事務.md", "規程/経費精算規程.md"} {
		titles[path] = doc(t, path, "", 0, false).Title
	}
	return p, c, policy.NewCorpus(titles)
}

// The message of a match states its currentness records field by field.
func TestMessageOfRecords(t *testing.T) {
	prefs, cur, corpus := fixturePolicies(t)
	tests := []struct {
		name   string
		cand   policy.Candidate
		wantIn []string
		none   bool
	}{
		{name: "record on the old amount", cand: doc(t, "研修/2024/契約事務.md", "物品の購入について、予定価格が160万円以下", 9, true),
			wantIn: []string{"現行性[keiyaku-threshold]=do_not_assert_current(現行性未確認)", `該当="160万円"`, `値="200万円以下"`,
				"施行=2025-04-01", "確認=2026-10-01", `出典="契約事務取扱要領（改正）" https://www.example.go.jp/keiyaku/youryou.html`, `未確認="業務委託の上限額"`}},
		{name: "no record without the text", cand: doc(t, "研修/2024/契約事務.md", "見積書は2社以上から取り寄せます。", 9, true), none: true},
		{name: "record check date", cand: doc(t, "研修/2026/契約事務.md", "予定価格185万円の物品", 7, true),
			wantIn: []string{"現行性[setsurei-185]=illustrative_only(設例)", "確認=2026-09-15"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := matchMessage(policy.Apply([]policy.Candidate{tt.cand}, corpus, prefs, cur, policy.Options{})[0])
			for _, w := range tt.wantIn {
				if !strings.Contains(msg, w) {
					t.Errorf("message lacks %q:\n%s", w, msg)
				}
			}
			if tt.none && strings.Contains(msg, "現行性") {
				t.Errorf("message holds a record: %s", msg)
			}
		})
	}
	c := doc(t, "研修/2024/契約事務.md", "160万円以下", 9, true)
	if m := matchMessage(policy.Apply([]policy.Candidate{c}, nil, nil, nil, policy.Options{})[0]); m != "研修/2024/契約事務.md: 版=2024年度 第2版 改訂2024-04-01; 関係=なし" {
		t.Errorf("message without policies %q", m)
	}
}

func TestMessageFormat(t *testing.T) {
	prefs, cur, corpus := fixturePolicies(t)
	got := policy.Apply([]policy.Candidate{
		doc(t, "研修/2024/契約事務.md", "160万円以下", 9, true),
		doc(t, "研修/2026/契約事務.md", "200万円以下", 3, true),
	}, corpus, prefs, cur, policy.Options{})
	want := "研修/2026/契約事務.md: 版=2026年度 第3版 改訂2026-04-01; 関係=優先版(指定: 2026年度版), 旧版あり(研修/2024/契約事務.md), 関連の可能性(版関係不明: 研修/2025/契約事務.md)\n" +
		"研修/2024/契約事務.md: 版=2024年度 第2版 改訂2024-04-01; 関係=旧版(優先: 研修/2026/契約事務.md), 関連の可能性(版関係不明: 研修/2025/契約事務.md); " +
		`現行性[keiyaku-threshold]=do_not_assert_current(現行性未確認) 該当="160万円" 値="200万円以下" 施行=2025-04-01 範囲="物品の購入の随意契約（予定価格）" 確認=2026-10-01 ` +
		`出典="契約事務取扱要領（改正）" https://www.example.go.jp/keiyaku/youryou.html 未確認="業務委託の上限額" 注記="令和6年度版の160万円は2025年3月31日までの基準"`
	if m := messages(got, policy.Options{}); m != want {
		t.Errorf("Messages:\n%s\nwant:\n%s", m, want)
	}
	if m := messages(got[:1], policy.Options{IgnorePreference: true}); !strings.HasPrefix(m, PreferenceIgnoredLine+"\n") {
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
	cur, err := policy.ParseCurrentness("currentness.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	a := policy.Apply([]policy.Candidate{{Path: "a.md", Text: "本文"}}, nil, nil, cur, policy.Options{})[0]
	msg := matchMessage(a)
	if strings.ContainsAny(strings.Replace(msg, "現行性[x]", "", 1), "\n\r<>[]|`\u202e\u200b") {
		t.Errorf("unescaped characters in %q", msg)
	}
	if strings.Count(msg, " 確認=") != 1 || strings.Count(msg, "; ") != 2 || strings.Count(msg, ";") != 2 {
		t.Errorf("record text made new fields: %q", msg)
	}
	if a.Records[0].Record.Action != policy.CheckConditions || len(a.Records) != 1 {
		t.Errorf("records %+v", a.Records)
	}
}

func Example_message() {
	prefs, _ := policy.ParsePreferences("source-preferences.json", []byte(`{"version": 1,
		"preferred": [{"path": "研修/2026/契約事務.md", "label": "2026年度版", "supersedes": ["研修/2024/契約事務.md"]}]}`))
	cur, _ := policy.ParseCurrentness("currentness.json", []byte(`{"version": 1, "checked_at": "2026-10-01",
		"records": [{"id": "keiyaku-threshold", "paths": ["研修/2024/*.md"], "text": ["160万円"],
		             "action": "do_not_assert_current", "verified": {"value": "200万円以下", "effective_from": "2025-04-01"}}]}`))
	cands := []policy.Candidate{
		{Path: "研修/2024/契約事務.md", Text: "予定価格が160万円以下であれば", OwnMatch: true,
			Editions: edition.Find("# 契約事務（令和6年度版）")},
		{Path: "研修/2026/契約事務.md", Text: "予定価格が200万円以下であれば", OwnMatch: true,
			Editions: edition.Find("# 契約事務（令和8年度版）")},
	}
	for _, a := range policy.Apply(cands, nil, prefs, cur, policy.Options{}) {
		fmt.Println(matchMessage(a))
	}
	// Output:
	// 研修/2026/契約事務.md: 版=2026年度; 関係=優先版(指定: 2026年度版), 旧版あり(研修/2024/契約事務.md)
	// 研修/2024/契約事務.md: 版=2024年度; 関係=旧版(優先: 研修/2026/契約事務.md); 現行性[keiyaku-threshold]=do_not_assert_current(現行性未確認) 該当="160万円" 値="200万円以下" 施行=2025-04-01 確認=2026-10-01
}
