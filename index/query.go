package index

import (
	"errors"
	"strings"
	"unicode"
)

// ErrEmptyQuery is returned for a query with no words.
var ErrEmptyQuery = errors.New("the query is empty")

// Word is one word of a query: a run of non-space characters, or the text
// between quotes ("…", 「…」, 『…』, “…”), which must occur as written.
type Word struct {
	Text   string `json:"text"`
	Quoted bool   `json:"quoted,omitempty"`
}

// Query is a parsed search query.
type Query struct {
	Words []Word `json:"words"`
}

// String writes the query back in its canonical form, which ParseQuery
// reads as the same query.
func (q Query) String() string {
	parts := make([]string, len(q.Words))
	for i, w := range q.Words {
		parts[i] = w.Text
		if w.Quoted {
			parts[i] = quote(w.Text)
		}
	}
	return strings.Join(parts, " ")
}

// quotes are the quote pairs String chooses from, in order: the first whose
// closing mark the text does not hold, so that ParseQuery reads it back.
var quotes = [][2]string{{`"`, `"`}, {"「", "」"}, {"『", "』"}, {"“", "”"}}

func quote(s string) string {
	for _, q := range quotes {
		if !strings.Contains(s, q[1]) {
			return q[0] + s + q[1]
		}
	}
	return `"` + s + `"`
}

// Text is the query's words joined by spaces, without quotes.
func (q Query) Text() string {
	parts := make([]string, len(q.Words))
	for i, w := range q.Words {
		parts[i] = w.Text
	}
	return strings.Join(parts, " ")
}

var quotePairs = map[rune]rune{'"': '"', '「': '」', '『': '』', '“': '”'}

// ParseQuery splits a query into words. An unclosed quote runs to the end.
// A query whose words are longer than MaxQueryChars together (the quotes
// not counted, so that String reads back) is ErrQueryTooLong.
func ParseQuery(s string) (Query, error) {
	var q Query
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		if unicode.IsSpace(r) {
			i++
			continue
		}
		if closing, ok := quotePairs[r]; ok {
			j := i + 1
			for j < len(rs) && rs[j] != closing {
				j++
			}
			if t := strings.TrimSpace(string(rs[i+1 : j])); t != "" {
				q.Words = append(q.Words, Word{Text: t, Quoted: true})
			}
			i = j + 1
			continue
		}
		j := i
		for j < len(rs) && !unicode.IsSpace(rs[j]) {
			j++
		}
		q.Words = append(q.Words, Word{Text: string(rs[i:j])})
		i = j
	}
	if len(q.Words) == 0 {
		return q, ErrEmptyQuery
	}
	if err := checkLength(q.Text()); err != nil {
		return Query{}, err
	}
	return q, nil
}
