package analyzer

import (
	"slices"
	"testing"
)

func TestOkurigana(t *testing.T) {
	a := Default()
	for _, c := range []struct {
		word string
		want []string
	}{
		{"取り扱い", []string{"取扱い", "取扱"}},
		{"届け出", []string{"届出"}},
		{"受け付け", []string{"受付"}},
		{"申し出", []string{"申出"}},
		{"申し込む", []string{"申込む"}},
		{"手続き", []string{"手続"}},
		{"子ども", nil}, // one kanji: 子 is another word
		{"手続", nil},  // no okurigana
		{"書類", nil},
		{"ファイル", nil},
	} {
		toks := a.QueryTokens(c.word)
		if len(toks) != 1 {
			t.Fatalf("%s: tokens %v", c.word, toks)
		}
		if got := a.Okurigana(toks[0]); !slices.Equal(got, c.want) {
			t.Errorf("Okurigana(%s) = %v, want %v", c.word, got, c.want)
		}
	}
}
