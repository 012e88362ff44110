package index

import (
	"testing"

	"lwr/config/configtest"
)

// severanceRule is shaped like a real severance-pay rule: its purpose
// article names the rule's words, the next article says who is paid.
const severanceRule = "# 退職金規程\n\n## 第1章　総則\n\n### 第1条　目的\n\n" +
	"1. 本規程は、会社の従業員の退職金に関する事項を定めるものである。\n" +
	"2. 退職金は、会社への貢献度が高い従業員に対して支給するものである。\n\n" +
	"### 第2条　退職金の支給範囲\n\n" +
	"1. 退職金は、就業規則第2条に定める正社員に対してのみ支給する。\n" +
	"2. 臨時社員及び嘱託社員に対しては、退職金を支給しない。\n"

// A purpose article (第1条　目的) states what the rule is for, not who is
// paid: the article that says so answers, unless the question asks what
// the rule is for.
func TestPurposeArticleIsNoCase(t *testing.T) {
	root := tree(t, map[string]string{"規程/退職金規程.md": severanceRule})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	// The answer's lines must stand in the article given (1-based lines
	// of severanceRule: 第1条 is L7-L8, 第2条 L12-L13).
	for _, tc := range []struct {
		q        string
		from, to int
	}{
		{"会社を辞めるとき、退職金ってもらえる？", 12, 13},
		{"退職金の規程の目的は？", 7, 8},
	} {
		res := find(t, ix, tc.q, SearchOptions{Limit: 1, MaxChars: 300})
		if len(res.Matches) != 1 || res.Matches[0].Answer == nil {
			t.Fatalf("%s: matches %v", tc.q, paths(res))
		}
		if a := res.Matches[0].Answer; a.StartLine < tc.from || a.EndLine > tc.to {
			t.Errorf("%s: answer L%d-L%d %q, want within L%d-L%d", tc.q, a.StartLine, a.EndLine, a.Text, tc.from, tc.to)
		}
	}
}
