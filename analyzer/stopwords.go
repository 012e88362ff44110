package analyzer

import (
	_ "embed"
	"strings"
)

//go:embed stopwords_ja.txt
var stopwordsJA string

//go:embed stopwords_en.txt
var stopwordsEN string

var (
	japaneseStop = wordSet(stopwordsJA)
	englishStop  = wordSet(stopwordsEN)
)

// wordSet reads a word list: one word per line, # starts a comment.
func wordSet(list string) map[string]bool {
	set := map[string]bool{}
	for _, line := range strings.Split(list, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if w := strings.TrimSpace(line); w != "" {
			set[Fold(w)] = true
		}
	}
	return set
}

// IsStopWord reports whether a folded term is never indexed.
func IsStopWord(term string) bool {
	return japaneseStop[term] || englishStop[term]
}
