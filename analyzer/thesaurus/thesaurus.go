// Package thesaurus owns the synonym groups of SudachiDict embedded in
// lwr (sudachi.tsv.gz, made by go generate; see NOTICE): loading them on
// first use and finding, for the analyzed words of a query, the words of
// the same groups. Expansion control is honoured: a word marked as no
// trigger is found from the others but does not expand itself.
package thesaurus

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

//go:generate go run ./internal/gen -out sudachi.tsv.gz -license SUDACHI-LICENSE

//go:embed sudachi.tsv.gz
var data []byte

// maxSpan is the longest run of query terms looked up as one word.
const maxSpan = 4

// Word is a word of a group found for a query's words.
type Word struct {
	Text  string   // as SudachiDict writes it
	Terms []string // its analyzed terms
	// Variant: the same lexeme as the query's word (another spelling, an
	// abbreviation, a translation), not only a word of like meaning.
	Variant bool
}

// Match is what the thesaurus has for the query's terms [From, To).
type Match struct {
	From, To int
	Words    []Word
}

type member struct {
	text, terms string // terms space-separated; both point into the file
	// The group's members are members[first:last].
	first, last int32
	lexeme      int32
	trigger     bool
	predicate   bool
}

// Thesaurus is the loaded groups. It is safe for concurrent use.
type Thesaurus struct {
	members  []member
	triggers map[string][]int32 // members that trigger, by terms
}

var (
	once   sync.Once
	loaded *Thesaurus
)

// Default returns the embedded thesaurus, loaded on first use.
func Default() *Thesaurus {
	once.Do(func() {
		t, err := parse(data)
		if err != nil {
			panic("thesaurus: embedded sudachi.tsv.gz: " + err.Error())
		}
		loaded = t
	})
	return loaded
}

// parse reads the gzipped file: a line per word, a group's words together.
func parse(gz []byte) (*Thesaurus, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	var sb strings.Builder
	if len(gz) > 4 {
		sb.Grow(int(binary.LittleEndian.Uint32(gz[len(gz)-4:]))) // gzip's ISIZE
	}
	if _, err := io.Copy(&sb, zr); err != nil {
		return nil, err
	}
	text := sb.String()
	n := strings.Count(text, "\n")
	t := &Thesaurus{members: make([]member, 0, n), triggers: make(map[string][]int32, n)}
	group, first := "", int32(0)
	end := func() {
		for i := first; i < int32(len(t.members)); i++ {
			t.members[i].first, t.members[i].last = first, int32(len(t.members))
		}
	}
	for len(text) > 0 {
		l := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			l, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if l == "" || l[0] == '#' {
			continue
		}
		var f [6]string
		for k := range 5 {
			i := strings.IndexByte(l, '\t')
			if i < 0 {
				return nil, fmt.Errorf("line %q: want 6 fields", l)
			}
			f[k], l = l[:i], l[i+1:]
		}
		f[5] = l
		lx, err := strconv.Atoi(f[1])
		if err != nil {
			return nil, fmt.Errorf("lexeme %q: %w", f[1], err)
		}
		if f[0] != group {
			end()
			group, first = f[0], int32(len(t.members))
		}
		m := member{text: f[4], terms: f[5], lexeme: int32(lx), trigger: f[2] == "1", predicate: f[3] == "1"}
		if m.trigger {
			t.triggers[m.terms] = append(t.triggers[m.terms], int32(len(t.members)))
		}
		t.members = append(t.members, m)
	}
	end()
	return t, zr.Close()
}

// Len is the number of words.
func (t *Thesaurus) Len() int { return len(t.members) }

// Term is an analyzed word of a query.
type Term struct {
	Text string
	// Predicate: a verb or an adjective. A one-term noun finds nouns, a
	// verb finds predicates.
	Predicate bool
	// Joined: written right after the term before it, nothing between; a
	// run of terms is one word only when they are joined.
	Joined bool
}

// Lookup finds the groups of the query's analyzed terms: at each place the
// longest run of joined terms (up to four) that is a triggering word of
// the query word's kind; a word of one character triggers nothing. Each match lists the group's other words, the
// same lexeme first, each word once.
func (t *Thesaurus) Lookup(terms []Term) []Match {
	if t == nil {
		return nil
	}
	var out []Match
	key := func(i, k int) string {
		if k == 1 {
			return terms[i].Text
		}
		parts := make([]string, k)
		for j := range k {
			parts[j] = terms[i+j].Text
		}
		return strings.Join(parts, " ")
	}
	for i := 0; i < len(terms); {
		span := 1
		for span < maxSpan && i+span < len(terms) && terms[i+span].Joined {
			span++
		}
		n, hits := 0, []int32(nil)
		for k := span; k >= 1 && hits == nil; k-- {
			if k == 1 && utf8.RuneCountInString(terms[i].Text) < 2 {
				break // 日 is in too many groups as an abbreviation (日産)
			}
			for _, mi := range t.triggers[key(i, k)] {
				if k > 1 || t.members[mi].predicate == terms[i].Predicate {
					hits = append(hits, mi)
				}
			}
			if hits != nil {
				n = k
			}
		}
		if hits == nil {
			i++
			continue
		}
		m := Match{From: i, To: i + n}
		seen := map[string]bool{key(i, n): true}
		var others []Word
		for _, hi := range hits {
			h := t.members[hi]
			for _, o := range t.members[h.first:h.last] {
				if seen[o.terms] {
					continue
				}
				seen[o.terms] = true
				w := Word{Text: o.text, Terms: strings.Split(o.terms, " "), Variant: o.lexeme == h.lexeme}
				if w.Variant {
					m.Words = append(m.Words, w)
				} else {
					others = append(others, w)
				}
			}
		}
		m.Words = append(m.Words, others...)
		if len(m.Words) > 0 {
			out = append(out, m)
		}
		i += n
	}
	return out
}
