package index

import (
	"strings"
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
	for _, tc := range []struct{ q, want string }{
		{"会社を辞めるとき、退職金ってもらえる？", "支給"},
		{"退職金の規程の目的は？", "事項を定める"},
	} {
		res := find(t, ix, tc.q, SearchOptions{Limit: 1, MaxChars: 300})
		if len(res.Matches) != 1 || res.Matches[0].Answer == nil {
			t.Fatalf("%s: matches %v", tc.q, paths(res))
		}
		a := res.Matches[0].Answer
		purpose := a.StartLine <= 8
		if purpose == (tc.want == "支給") || !strings.Contains(a.Text, tc.want) {
			t.Errorf("%s: answer L%d-L%d %q", tc.q, a.StartLine, a.EndLine, a.Text)
		}
	}
}
