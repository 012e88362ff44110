package index

import (
	"sync"

	index "github.com/blevesearch/bleve_index_api"
)

// termsFunc calls fn with every term an analysis yields for text, in
// order (analyzer.Analyzer.Terms, analyzer.BigramTerms).
type termsFunc func(text string, fn func(term string))

// termField is a text field of a passage analyzed straight into what Bleve
// keeps of a field without term vectors: each term with how often it
// occurs, and the number of tokens (document.TextField.Analyze makes the
// same from a token stream, one allocated token at a time, then counts
// it). Bleve calls Analyze on its analysis goroutines.
type termField struct {
	name  string
	text  string
	terms termsFunc
	// once, when set, is shared by the passages of one file whose field
	// has the same text (the head): analyzed by the first of them.
	once   *onceTerms
	length int
	freqs  index.TokenFrequencies
}

// onceTerms holds the terms of one text, counted, for the fields that
// share it.
type onceTerms struct {
	once   sync.Once
	terms  []termCount
	length int
}

type termCount struct {
	term string
	n    int
}

func (o *onceTerms) of(text string, terms termsFunc) ([]termCount, int) {
	o.once.Do(func() {
		at := map[string]int{}
		terms(text, func(t string) {
			o.length++
			if i, ok := at[t]; ok {
				o.terms[i].n++
				return
			}
			at[t] = len(o.terms)
			o.terms = append(o.terms, termCount{t, 1})
		})
	})
	return o.terms, o.length
}

func (f *termField) Analyze() {
	var slab []index.TokenFreq
	var arena []byte
	add := func(t string, n int) *index.TokenFreq {
		if len(slab) == cap(slab) {
			slab = make([]index.TokenFreq, 0, max(16, min(256, 2*cap(slab))))
		}
		at := len(arena)
		arena = append(arena, t...)
		slab = append(slab, index.TokenFreq{Term: arena[at:len(arena):len(arena)]})
		tf := &slab[len(slab)-1]
		tf.SetFrequency(n)
		f.freqs[t] = tf
		return tf
	}
	if f.once != nil {
		terms, length := f.once.of(f.text, f.terms)
		f.length = length
		f.freqs = make(index.TokenFrequencies, len(terms))
		for _, tc := range terms {
			add(tc.term, tc.n)
		}
		return
	}
	f.freqs = make(index.TokenFrequencies, len(f.text)/8)
	arena = make([]byte, 0, len(f.text)/2)
	f.length = 0
	f.terms(f.text, func(t string) {
		f.length++
		if tf, ok := f.freqs[t]; ok {
			tf.SetFrequency(tf.Frequency() + 1)
			return
		}
		add(t, 1)
	})
}

func (f *termField) Name() string                                     { return f.name }
func (f *termField) Value() []byte                                    { return []byte(f.text) }
func (f *termField) ArrayPositions() []uint64                         { return nil }
func (f *termField) Options() index.FieldIndexingOptions              { return index.IndexField }
func (f *termField) NumPlainTextBytes() uint64                        { return uint64(len(f.text)) }
func (f *termField) EncodedFieldType() byte                           { return 't' }
func (f *termField) AnalyzedLength() int                              { return f.length }
func (f *termField) AnalyzedTokenFrequencies() index.TokenFrequencies { return f.freqs }

// Size is what Bleve counts the field as holding.
func (f *termField) Size() int {
	n := 64 + len(f.name) + len(f.text)
	if f.freqs != nil {
		n += f.freqs.Size()
	}
	return n
}
