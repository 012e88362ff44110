package analyzer

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

//go:embed synonyms.json
var defaultSynonyms []byte

// glossary bridges Japanese and English terms of computing and office work,
// for Japanese questions about documents written in English and back.
//
//go:embed glossary.json
var glossary []byte

// paraphrases bridges the everyday words of a question (持ち主, 消す,
// 確かめる, 有休) and the formal words of manuals and rules (所有者, 削除,
// 確認, 有給休暇).
//
//go:embed paraphrases.json
var paraphrases []byte

// Synonyms is a synonym dictionary: groups of words that mean the same.
// Each entry of the JSON form {"word": ["synonym", ...]} is one group; a
// query that holds any word of a group gets the others.
type Synonyms struct {
	groups [][]string // folded words
	raw    [][]string // as written

	mu    sync.Mutex
	terms map[string][]string // analyzed synonyms, memoized

	// noThesaurus leaves SudachiDict's groups out (search.thesaurus off).
	noThesaurus bool
	// a analyzes its words and the queries (nil: Default).
	a *Analyzer

	byRuneOnce sync.Once
	byRune     map[rune][]memberRef // Japanese words by their first rune
	whole      [][][]string         // base forms of each word, once looked at (see wholeTerms)
	wholeDone  [][]bool
}

// maxSynonymFileBytes bounds a user synonym dictionary.
const maxSynonymFileBytes = 16 << 20

// analyzer is the one the dictionary analyzes with.
func (s *Synonyms) analyzer() *Analyzer {
	if s.a == nil {
		return Default()
	}
	return s.a
}

// Analyzer is the analyzer the dictionary analyzes its words and queries
// with.
func (s *Synonyms) Analyzer() *Analyzer {
	if s == nil {
		return Default()
	}
	return s.analyzer()
}

// DisableThesaurus leaves SudachiDict's synonym groups out of the searches
// that use this dictionary (search.thesaurus: false).
func (s *Synonyms) DisableThesaurus() { s.noThesaurus = true }

// Thesaurus reports whether the searches that use this dictionary add
// SudachiDict's synonym groups too.
func (s *Synonyms) Thesaurus() bool { return s != nil && !s.noThesaurus }

func isHiragana(r rune) bool { return r >= 0x3041 && r <= 0x309F }

// memberRef names a word of the dictionary: its group and its place in it.
type memberRef struct{ group, member int }

// membersByRune indexes the dictionary's Japanese words by their first
// rune: an inflection changes a word's ending, not its start, so a query
// can only hold the words whose first rune it holds.
func (s *Synonyms) membersByRune() map[rune][]memberRef {
	s.byRuneOnce.Do(func() {
		s.byRune = map[rune][]memberRef{}
		s.whole = make([][][]string, len(s.groups))
		s.wholeDone = make([][]bool, len(s.groups))
		for gi, g := range s.groups {
			s.whole[gi] = make([][]string, len(g))
			s.wholeDone[gi] = make([]bool, len(g))
			for mi, w := range g {
				r, n := utf8.DecodeRuneInString(w)
				if r < utf8.RuneSelf {
					continue
				}
				s.byRune[r] = append(s.byRune[r], memberRef{gi, mi})
				// A leading hiragana may be a prefix the analyzer drops
				// (お届け日 → 届け, 日): the word also stands under its next rune.
				if r2, _ := utf8.DecodeRuneInString(w[n:]); isHiragana(r) && r2 >= utf8.RuneSelf && r2 != r {
					s.byRune[r2] = append(s.byRune[r2], memberRef{gi, mi})
				}
			}
		}
	})
	return s.byRune
}

// baseForms returns the base forms of a dictionary word (分ける; 電源,
// 切る), analyzed the first time it is asked for; nil when the word
// cannot match by base forms (see wholeTerms).
func (s *Synonyms) baseForms(m memberRef) []string {
	s.mu.Lock()
	done, terms := s.wholeDone[m.group][m.member], s.whole[m.group][m.member]
	s.mu.Unlock()
	if done {
		return terms
	}
	w := s.groups[m.group][m.member]
	terms = wholeTerms(s.analyzer().Tokens(w), w)
	s.mu.Lock()
	s.whole[m.group][m.member], s.wholeDone[m.group][m.member] = terms, true
	s.mu.Unlock()
	return terms
}

// Terms returns the analyzed terms of a word, memoized: a dictionary's
// words come back query after query.
func (s *Synonyms) Terms(word string) []string {
	if s == nil {
		return termsOf(Default(), word)
	}
	s.mu.Lock()
	t, ok := s.terms[word]
	s.mu.Unlock()
	if ok {
		return t
	}
	t = termsOf(s.analyzer(), word)
	s.mu.Lock()
	if s.terms == nil {
		s.terms = map[string][]string{}
	}
	if len(s.terms) < 10000 {
		s.terms[word] = t
	}
	s.mu.Unlock()
	return t
}

func termsOf(a *Analyzer, word string) []string {
	var out []string
	for _, t := range a.Tokens(word) {
		out = append(out, t.Term)
	}
	return out
}

// DefaultSynonyms returns the embedded default dictionary: the research
// skill's synonym dictionary, the Japanese–English glossary and the
// everyday–formal paraphrases.
func DefaultSynonyms() *Synonyms {
	s, err := parseSynonyms(defaultSynonyms)
	if err != nil {
		panic("analyzer: embedded synonym dictionary: " + err.Error())
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{"glossary", glossary}, {"paraphrases", paraphrases}} {
		g, err := parseSynonyms(f.data)
		if err != nil {
			panic("analyzer: embedded " + f.name + ": " + err.Error())
		}
		s.groups = append(s.groups, g.groups...)
		s.raw = append(s.raw, g.raw...)
	}
	return s
}

// ErrSynonymFile matches the errors of a user synonym dictionary that
// cannot be read or parsed: the user fixes the file or the setting.
var ErrSynonymFile = errors.New("the synonym dictionary cannot be used")

// synonymFileError is an error of a user dictionary; it matches
// ErrSynonymFile and the cause.
type synonymFileError struct {
	msg string
	err error
}

func (e *synonymFileError) Error() string   { return e.msg }
func (e *synonymFileError) Unwrap() []error { return []error{ErrSynonymFile, e.err} }

// LoadSynonyms returns the default dictionary merged with a user one (a
// JSON file of the same form); an empty path means the default alone. Its
// words and the queries it is asked about are analyzed with a (nil:
// Default), which must be the analyzer of the index it is used with. A
// file that cannot be used is an error matching ErrSynonymFile.
func LoadSynonyms(userFile string, a *Analyzer) (*Synonyms, error) {
	s := DefaultSynonyms()
	s.a = a
	if userFile == "" {
		return s, nil
	}
	data, err := readBounded(userFile, maxSynonymFileBytes)
	if err != nil {
		return nil, &synonymFileError{fmt.Sprintf("read synonym dictionary %s: %v; fix search.synonym_file", userFile, err), err}
	}
	u, err := parseSynonyms(data)
	if err != nil {
		return nil, &synonymFileError{fmt.Sprintf("synonym dictionary %s: %v; it must be a JSON object of word → list of synonyms", userFile, err), err}
	}
	s.groups = append(s.groups, u.groups...)
	s.raw = append(s.raw, u.raw...)
	return s, nil
}

func parseSynonyms(data []byte) (*Synonyms, error) {
	var m map[string][]string
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	s := &Synonyms{}
	for _, k := range keys {
		raw := append([]string{k}, m[k]...)
		var g, r []string
		seen := map[string]bool{}
		for _, w := range raw {
			f := strings.TrimSpace(Fold(w))
			if f == "" || seen[f] {
				continue
			}
			seen[f] = true
			g = append(g, f)
			r = append(r, strings.TrimSpace(w))
		}
		if len(g) > 1 {
			s.groups = append(s.groups, g)
			s.raw = append(s.raw, r)
		}
	}
	return s, nil
}

// Entry is a dictionary entry found in a query: where its word stands in
// the query (byte offsets into the query as given) and the entry's other
// words.
type Entry struct {
	Start, End int
	Synonyms   []string
	// Again are the spans where the query says the word once more, in
	// another word of its group (会社を辞める beside 退職).
	Again [][2]int
}

// wholeTerms returns the base forms of a Japanese word when they stand for
// all of it: only a particle may fall between them (電源を切る), nothing
// after them. A word whose ending the analyzer drops (取ってくる, 足りない)
// would otherwise match a bare 取る or 足りる; such a word matches as
// written only.
func wholeTerms(toks []Token, w string) []string {
	var terms []string
	at := 0
	for _, t := range toks {
		if t.Kind != KindJapanese || utf8.RuneCountInString(w[at:t.Start]) > 1 {
			return nil
		}
		terms = append(terms, t.Term)
		at = t.End
	}
	// A negation the analyzer drops (足りない, 見えなくする) ends the word:
	// its verb's base forms stand for it (足りなかった). Another ending
	// (取ってくる) is part of what the word means.
	if rest := w[at:]; rest != "" && !negations[rest] {
		return nil
	}
	return terms
}

var negations = map[string]bool{"ない": true, "なく": true, "なくする": true, "なくなる": true, "ず": true}

// Entries returns the dictionary entries whose words occur in query. A word
// matches when it occurs in the folded query on word boundaries (an ASCII
// word must stand alone, and a Japanese word must start and end where the
// analyzer cuts the query, so 行 does not match inside 実行), or when the
// query's words have its base forms side by side, in any inflection (分ける
// in 分けたい, 電源を切る in 電源を切ってから). Synonyms the query already
// holds are left out.
func (s *Synonyms) Entries(query string) []Entry {
	if s == nil {
		return nil
	}
	q, start, end := FoldMapped(query)
	orig := func(a, b int) (int, int) {
		if start == nil {
			return a, b
		}
		return start[a], end[b-1]
	}
	starts, ends := map[int]bool{}, map[int]bool{}
	toks := s.analyzer().Tokens(query)
	// A potential form (休める) also stands for its verb (休む).
	bases := make([]string, len(toks))
	for i, t := range toks {
		starts[t.Start], ends[t.End] = true, true
		if b, ok := t.Potential(); ok {
			bases[i] = b
		}
	}
	is := func(i int, term string) bool { return toks[i].Term == term || bases[i] == term }
	// Words found by their base forms: group → members and their spans.
	type span struct{ member, start, end int }
	inflected := map[int][]span{}
	byRune := s.membersByRune()
	seen := map[rune]bool{}
	for _, r := range q {
		if r < utf8.RuneSelf || seen[r] {
			continue
		}
		seen[r] = true
		for _, m := range byRune[r] {
			terms := s.baseForms(m)
			if len(terms) == 0 {
				continue
			}
		starts:
			for i, t := range toks {
				if t.Kind != KindJapanese || !is(i, terms[0]) || i+len(terms) > len(toks) {
					continue
				}
				for j, term := range terms[1:] {
					// Side by side: at most a dropped particle between.
					if n := toks[i+1+j]; n.Kind != KindJapanese || !is(i+1+j, term) || n.Position-toks[i+j].Position > 2 {
						continue starts
					}
				}
				inflected[m.group] = append(inflected[m.group], span{m.member, t.Start, toks[i+len(terms)-1].End})
				break
			}
		}
	}
	find := func(w string) int {
		for off := 0; off < len(q); {
			i := indexWord(q[off:], w)
			if i < 0 {
				return -1
			}
			i += off
			if isPlainASCII(w) {
				return i
			}
			if a, b := orig(i, i+len(w)); starts[a] && ends[b] {
				return i
			}
			off = i + 1
		}
		return -1
	}
	// locate returns where a word of the dictionary stands in the query.
	locate := func(gi, mi int) (start, end int, ok bool) {
		w := s.groups[gi][mi]
		if i := find(w); i >= 0 {
			start, end = orig(i, i+len(w))
			return start, end, true
		}
		for _, sp := range inflected[gi] {
			if sp.member == mi {
				return sp.start, sp.end, true
			}
		}
		return 0, 0, false
	}
	var out []Entry
	for gi, g := range s.groups {
		first := -1
		e := Entry{}
		for mi := range g {
			if a, b, ok := locate(gi, mi); ok {
				first, e.Start, e.End = mi, a, b
				break
			}
		}
		if first < 0 {
			continue
		}
		for mi := first + 1; mi < len(g); mi++ {
			a, b, ok := locate(gi, mi)
			switch {
			case !ok:
				e.Synonyms = append(e.Synonyms, s.raw[gi][mi])
			case b <= e.Start || a >= e.End:
				e.Again = append(e.Again, [2]int{a, b})
			}
		}
		// Members before the first found one are not in the query.
		e.Synonyms = append(append([]string(nil), s.raw[gi][:first]...), e.Synonyms...)
		if len(e.Synonyms) > 0 || len(e.Again) > 0 {
			out = append(out, e)
		}
	}
	return out
}

// Expand returns the synonyms of the words of query that are in the
// dictionary (see Entries), each once.
func (s *Synonyms) Expand(query string) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range s.Entries(query) {
		for _, w := range e.Synonyms {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// indexWord returns where w occurs in q, or -1; when w starts or ends with
// an ASCII letter or digit, the neighbouring characters must not be ones.
func indexWord(q, w string) int {
	for off := 0; ; {
		i := strings.Index(q[off:], w)
		if i < 0 {
			return -1
		}
		i += off
		j := i + len(w)
		okL := i == 0 || !isWordByte(q[i-1]) || !isWordByte(w[0])
		okR := j == len(q) || !isWordByte(q[j]) || !isWordByte(w[len(w)-1])
		if okL && okR {
			return i
		}
		off = i + 1
	}
}
