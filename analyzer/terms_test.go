package analyzer

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ikawaha/kagome/v2/tokenizer"

	"lwr/config/configtest"
)

// termsTexts mix what each path of the analysis meets: kanji compounds,
// kana, unknown katakana words, verbs in base form, full- and half-width
// forms, identifiers, stop words, spaced headings and long lines.
var termsTexts = []string{
	"",
	"有給休暇の申請は前日までに行う。リマインダーメールを送信しました",
	"ＰＡＴＨを設定\nsnake_case_id と config.yaml、コンピューター\n\n",
	"ｶﾀｶﾅとｶﾞｷﾞ 令和６年度版 --preserve=mode\n第１章　総　　則\n就業に関\nする規程",
	"the file of a user することができる の を README Makefile",
	strings.Repeat("新規事業推進室の担当者は、ファイルをコピーした後で設定を確認する。", 80),
}

// termsUserDict is a user dictionary of one compound (新規事業推進室).
func termsUserDict(t *testing.T) *UserDict {
	t.Helper()
	p := filepath.Join(configtest.TempDir(t), "words.txt")
	if err := os.WriteFile(p, []byte("新規事業推進室\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ud, err := LoadUserDict(p)
	if err != nil {
		t.Fatal(err)
	}
	return ud
}

// Terms yields the terms of Tokens, in order, and BigramTerms those of
// Bigrams: the index and the queries meet on the same words.
func TestTermsAreTokensTerms(t *testing.T) {
	ud := termsUserDict(t)
	for _, a := range []*Analyzer{Default(), New(WithUserDict(ud))} {
		for _, text := range termsTexts {
			var want, got []string
			for _, tk := range a.Tokens(text) {
				want = append(want, tk.Term)
			}
			a.Terms(text, func(term string) { got = append(got, term) })
			if !slices.Equal(got, want) {
				t.Errorf("Terms(%.40q) = %v, want %v", text, got, want)
			}
			got = nil
			BigramTerms(text, func(term string) { got = append(got, term) })
			if want := Bigrams(text); !slices.Equal(got, want) {
				t.Errorf("BigramTerms(%.40q) = %v, want %v", text, got, want)
			}
		}
	}
}

// The parts of speech the analysis reads without making a slice are
// kagome's Token.POS.
func TestPOSIsKagomes(t *testing.T) {
	ud := termsUserDict(t)
	classes := map[tokenizer.TokenClass]int{}
	for _, a := range []*Analyzer{Default(), New(WithUserDict(ud))} {
		k, err := a.load()
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range termsTexts {
			for _, tk := range k.tk.Analyze(Fold(text), tokenizer.Search) {
				classes[tk.Class]++
				want := tk.POS()
				f, n := k.pos(tk)
				if n != len(want) || !slices.Equal(f[:min(n, 3)], want[:min(n, 3)]) {
					t.Errorf("%s (%v): %v of %d, want %v", tk.Surface, tk.Class, f, n, want)
				}
			}
		}
	}
	for _, c := range []tokenizer.TokenClass{tokenizer.KNOWN, tokenizer.UNKNOWN, tokenizer.USER} {
		if classes[c] == 0 {
			t.Errorf("no %v token met", c)
		}
	}
}
