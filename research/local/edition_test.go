package local

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lwr/config/configtest"
	"lwr/index"
	"lwr/research/researchtest"
)

// rulesSession is a session over testdata/rules: company rules with the
// information security rules in two editions, the newer declared
// preferred.
func rulesSession(t *testing.T) *Session {
	t.Helper()
	root := filepath.Join(researchtest.Repo(), "testdata", "rules")
	s := NewSession(Options{Index: index.Options{Root: root, Dir: configtest.TempDir(t)}, AutoBuild: &AutoBuild{}})
	t.Cleanup(func() { s.Close() })
	return s
}

func searchPaths(t *testing.T, s *Session, query string, ignore bool) ([]string, *Result) {
	t.Helper()
	q, err := index.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Search(context.Background(), Request{Query: q, Mode: index.Ranked, Limit: 8, MaxChars: 300, IgnorePreference: ignore})
	if err != nil {
		t.Fatal(err)
	}
	var ps []string
	for _, m := range res.Matches {
		ps = append(ps, m.Path)
	}
	return ps, res
}

// A question that names no year wants the current rule: the preferred
// edition comes first when the query's content words are in its text,
// whatever verbs the question uses (使う, いい are not in the rule).
func TestPreferredEditionFirst(t *testing.T) {
	s := rulesSession(t)
	const newer, older = "規程/情報セキュリティ規程_2026.md", "規程/情報セキュリティ規程_2024.md"
	for _, q := range []string{
		"USBメモリ 使っていい",
		"USBメモリは使っていいですか",
		"パスワード 文字数",
		"パスワードは何文字にすればいい",
		"ソフトウェアを購入するときの承認",
		"スマートフォンを紛失したら報告はいつまで",
	} {
		ps, res := searchPaths(t, s, q, false)
		if len(ps) == 0 || ps[0] != newer {
			t.Errorf("%s: %v, want %s first", q, ps, newer)
			continue
		}
		if i := slices.Index(ps, older); i >= 0 && !strings.Contains(res.Annotations[i].Message, "旧版") {
			t.Errorf("%s: the older edition is not marked: %s", q, res.Annotations[i].Message)
		}
		if !res.Annotations[0].Promoted {
			t.Errorf("%s: the preferred edition is first but not promoted", q)
		}
	}
}

// A question that names a year, an era or an old edition keeps relevance
// order, as --ignore-source-preference does, and says why.
func TestHistoricalQuestionKeepsRelevance(t *testing.T) {
	s := rulesSession(t)
	for _, q := range []string{"2024年のパスワードの文字数", "旧版 USBメモリ", "当時のパスワードの文字数"} {
		ps, res := searchPaths(t, s, q, false)
		pure, _ := searchPaths(t, s, q, true)
		if !slices.Equal(ps, pure) {
			t.Errorf("%s: %v, want relevance order %v", q, ps, pure)
		}
		if !res.Policies.HistoricalQuestion || !strings.Contains(res.Message, HistoricalLine) {
			t.Errorf("%s: the historical question is not reported: %+v\n%s", q, res.Policies, res.Message)
		}
		for _, a := range res.Annotations {
			if a.Promoted {
				t.Errorf("%s: %s promoted", q, a.Path)
			}
		}
	}
}

// A citation names the lines of the hit and a few around them, in both
// modes: 14,000円 is on line 27 of 旅費規程.
func TestSnippetsAreNarrow(t *testing.T) {
	s := rulesSession(t)
	for _, mode := range []index.Mode{index.FullText, index.Ranked} {
		q, _ := index.ParseQuery("14,000円")
		res, err := s.Search(context.Background(), Request{Query: q, Mode: mode, Limit: 8, MaxChars: 1200})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Matches) == 0 || res.Matches[0].Path != "規程/旅費規程.md" {
			t.Fatalf("%s: %+v", mode, res.Matches)
		}
		m := res.Matches[0]
		if m.StartLine < 23 || m.EndLine > 31 || m.StartLine > 27 || m.EndLine < 27 {
			t.Errorf("%s: cites lines %d-%d for a hit on line 27", mode, m.StartLine, m.EndLine)
		}
	}
}

// The newest of an undeclared family (equal titles but for the year)
// comes next to an older one that ranks above it and scores much better;
// an abolished rule goes
// below the rules in force that answer too, but a word only it has still
// finds it first.
func TestNewestNextAndAbolishedLast(t *testing.T) {
	root := researchtest.WriteTree(t, map[string]string{
		"研修/2024/経費の手引.md": "# 経費の手引\n\n2024年度版\n\n交通費の精算は翌月末まで。交通費の精算は領収書を添える。交通費の精算は課長が承認する。交通費の精算の例。\n",
		"メモ/交通費メモ.md":      "# メモ\n\n交通費の精算について質問があった。交通費の精算の期限を確認した。\n",
		"研修/2025/経費の手引.md": "# 経費の手引\n\n2025年度版\n\n" + strings.Repeat("旅費の規定は別にある。\n", 60) + "\n## 締め\n\n交通の精算は翌月10日まで。\n",
		"規程/旧経費規程.md":      "# 旧経費規程\n\n制定 2001年4月1日\n廃止 2015年3月31日\n\n交通費の精算は毎月。交通費の精算は現金で行う。交通費の精算は書庫搬出簿に記す。交通費の精算は精算。\n",
	})
	s := NewSession(Options{Index: index.Options{Root: root, Dir: configtest.TempDir(t)}, AutoBuild: &AutoBuild{}})
	defer s.Close()
	pure, res := searchPaths(t, s, "交通費の精算", true)
	got, _ := searchPaths(t, s, "交通費の精算", false)
	at := func(ps []string, p string) int { return slices.Index(ps, p) }
	const old, newer, dead = "研修/2024/経費の手引.md", "研修/2025/経費の手引.md", "規程/旧経費規程.md"
	if at(pure, newer) <= at(pure, old)+1 || res.Matches[at(pure, newer)].Score >= 0.8*res.Matches[at(pure, old)].Score {
		t.Fatalf("the test needs the newer edition ranked well below the old one by relevance, and scored much lower: %v", pure)
	}
	if at(got, newer) != at(got, old)+1 {
		t.Errorf("the newest edition is not next to the old one: %v (relevance %v)", got, pure)
	}
	if at(pure, dead) == len(pure)-1 {
		t.Fatalf("the test needs the abolished rule above others by relevance: %v", pure)
	}
	if at(got, dead) != len(got)-1 {
		t.Errorf("the abolished rule is not below the rules in force: %v", got)
	}
	if only, _ := searchPaths(t, s, "書庫搬出簿", false); len(only) == 0 || only[0] != dead {
		t.Errorf("a word only the abolished rule has: %v", only)
	}
}

// A newer edition that answers about as well as the older one ranking
// above it comes first: of the same document (folders by year), and of a
// collection whose files are named otherwise from edition to edition
// (asvs/4.0/…V2…, asvs/5.0/…V6…). A question that names the old edition
// keeps the relevance order.
func TestNewerEditionAboutAsGoodComesFirst(t *testing.T) {
	root := researchtest.WriteTree(t, map[string]string{
		"asvs/4.0/ja/0x11-V2-Authentication.md": "# V2 認証\n\n## パスワード\n\nパスワードの長さは12文字以上とする。パスワードの長さを確かめる。パスワードの長さの上限は64文字以上とする。\n",
		"asvs/5.0/ja/0x15-V6-Authentication.md": "# V6 認証\n\n## パスワード\n\nパスワードの長さは15文字以上とする。多要素認証を使う。\n",
		"研修/2024/電話応対.md":                       "# 電話応対\n\n2024年度版\n\n電話は3コール以内に取る。電話では社名を名乗る。\n",
		"研修/2025/電話応対.md":                       "# 電話応対\n\n2025年度版\n\n電話は3コール以内に取る。電話では社名と名前を名乗る。\n",
		"メモ/雑談.md":                              "# 雑談\n\n昼食の店を探している。\n",
	})
	s := NewSession(Options{Index: index.Options{Root: root, Dir: configtest.TempDir(t)}, AutoBuild: &AutoBuild{}})
	defer s.Close()
	for _, tc := range []struct{ query, old, newer string }{
		{"パスワードの長さは何文字以上", "asvs/4.0/ja/0x11-V2-Authentication.md", "asvs/5.0/ja/0x15-V6-Authentication.md"},
		{"電話は何コールで取る", "研修/2024/電話応対.md", "研修/2025/電話応対.md"},
	} {
		pure, res := searchPaths(t, s, tc.query, true)
		at := func(ps []string, p string) int { return slices.Index(ps, p) }
		if at(pure, tc.old) != 0 || at(pure, tc.newer) < 0 || res.Matches[at(pure, tc.newer)].Score < 0.8*res.Matches[0].Score {
			t.Fatalf("%s: the test needs the old edition first by relevance and the newer scoring about as well: %v %v", tc.query, pure, scores(res))
		}
		if got, _ := searchPaths(t, s, tc.query, false); len(got) < 2 || got[0] != tc.newer || got[1] != tc.old {
			t.Errorf("%s: %v, want the newer edition first, then the old one", tc.query, got)
		}
	}
	if got, _ := searchPaths(t, s, "4.0のパスワードの長さは何文字以上", false); len(got) == 0 || got[0] != "asvs/4.0/ja/0x11-V2-Authentication.md" {
		t.Errorf("a question that names the old edition: %v", got)
	}
}

func scores(res *Result) []float64 {
	var out []float64
	for _, m := range res.Matches {
		out = append(out, m.Score)
	}
	return out
}
