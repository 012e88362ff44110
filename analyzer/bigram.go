package analyzer

import (
	"unicode"
	"unicode/utf8"
)

// Bigrams returns the bigram view of text: the text's lines are joined
// (see JoinLines) and folded (see FoldText), cut at white space into runs, and every run yields each pair of adjacent
// characters plus its last character alone. Every literal substring of a
// folded run then has all its pairs (or, for one character, a term starting
// with it) in the view, which is what full-text candidate search relies on.
func Bigrams(text string) []string {
	var out []string
	eachBigram(FoldText(JoinLines(text)), func(g string, _, _ int) { out = append(out, g) })
	return out
}

// BigramTerms calls fn with every term of Bigrams(text), in order.
func BigramTerms(text string, fn func(term string)) {
	eachBigram(FoldText(JoinLines(text)), func(g string, _, _ int) { fn(g) })
}

// eachBigram calls fn with every bigram of an already folded text and its
// byte range in that text.
func eachBigram(t string, fn func(g string, a, b int)) {
	prev, prevAt := -1, 0 // start of the previous rune of the current run
	for i := 0; i < len(t); {
		r, n := utf8.DecodeRuneInString(t[i:])
		if unicode.IsSpace(r) {
			if prev >= 0 {
				fn(t[prev:i], prev, i)
			}
			prev = -1
			i += n
			continue
		}
		if prev >= 0 {
			fn(t[prev:i+n], prev, i+n)
		}
		prev, prevAt = i, i
		i += n
	}
	_ = prevAt
	if prev >= 0 {
		fn(t[prev:], prev, len(t))
	}
}

// QueryBigrams returns the distinct bigrams a literal word must have in the
// bigram view, in order. A one-character word returns nil: search it as a
// prefix of the view's terms.
func QueryBigrams(word string) []string {
	w := FoldText(word)
	var out []string
	seen := map[string]bool{}
	prev := -1
	for i := 0; i < len(w); {
		r, n := utf8.DecodeRuneInString(w[i:])
		if unicode.IsSpace(r) {
			prev = -1
			i += n
			continue
		}
		if prev >= 0 {
			g := w[prev : i+n]
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
		prev = i
		i += n
	}
	return out
}
