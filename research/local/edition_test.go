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
