package analyzer

import (
	"strings"
	"unicode/utf8"

	"github.com/ikawaha/kagome/v2/tokenizer"
)

// Dropped says why a word of a query yields no search term — the parts
// the analysis leaves out (particles, auxiliaries, symbols, dependent
// words, stop words) with what each is — or "" when it yields one: いつから
// is "いつ: stop word, から: 助詞".
func (a *Analyzer) Dropped(word string) string {
	if len(a.Tokens(word)) > 0 {
		return ""
	}
	var why []string
	f := Fold(word)
	for i := 0; i < len(f); {
		j := i
		if f[i] < utf8.RuneSelf {
			for j < len(f) && f[i] < utf8.RuneSelf && f[j] < utf8.RuneSelf {
				j++
			}
			for _, w := range strings.FieldsFunc(f[i:j], func(r rune) bool { return !isLatinWordRune(r) }) {
				if englishStop[w] {
					why = append(why, w+": stop word")
				}
			}
			i = j
			continue
		}
		for j < len(f) && f[j] >= utf8.RuneSelf {
			j++
		}
		k, err := a.load()
		if err != nil {
			return "not analyzed"
		}
		for _, t := range k.tk.Analyze(f[i:j], tokenizer.Search) {
			if r := dropReason(t); r != "" {
				why = append(why, t.Surface+": "+r)
			}
		}
		i = j
	}
	if len(why) == 0 {
		return "symbols only"
	}
	return strings.Join(why, ", ")
}

// dropReason is why keep leaves a morpheme out, "" when it keeps it.
func dropReason(t tokenizer.Token) string {
	f := t.POS()
	switch {
	case len(f) == 0:
		return "unknown"
	case dropPOS[f[0]]:
		return f[0]
	case len(f) > 1 && dropPOS2[[2]string{f[0], f[1]}]:
		return f[0] + "," + f[1]
	}
	term := t.Surface
	if f[0] == "動詞" || f[0] == "形容詞" {
		if bf, ok := t.BaseForm(); ok && bf != "" && bf != "*" {
			term = Fold(bf)
		}
	}
	term = foldLongVowel(term)
	switch {
	case japaneseStop[term]:
		return "stop word"
	case isSpaceOrPunct(term):
		return "punctuation"
	}
	return ""
}

func isLatinWordRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
}
