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
	// bytesPerTerm is about how many bytes of text make a distinct term
	// (textPerTerm, textPerBigram): what the blocks of its analysis are
	// sized by.
	bytesPerTerm int
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
	if f.once != nil {
		terms, length := f.once.of(f.text, f.terms)
		f.length = length
		f.count(len(terms), func(add func(string, int)) {
			for _, tc := range terms {
				add(tc.term, tc.n)
			}
		})
		return
	}
	f.length = 0
	f.count(len(f.text)/max(f.bytesPerTerm, 1), func(add func(string, int)) {
		f.terms(f.text, func(t string) {
			f.length++
			add(t, 1)
		})
	})
}

// count fills freqs with the terms that each calls add with, expecting n
// distinct ones: their TokenFreqs and copies of the terms come from
// blocks of about that size rather than one at a time.
func (f *termField) count(n int, each func(add func(term string, k int))) {
	n = max(n, 8)
	f.freqs = make(index.TokenFrequencies, n)
	slab := make([]index.TokenFreq, 0, n)
	arena := make([]byte, 0, n*termBytes)
	each(func(t string, k int) {
		if tf, ok := f.freqs[t]; ok {
			tf.SetFrequency(tf.Frequency() + k)
			return
		}
		if len(slab) == cap(slab) {
			slab = make([]index.TokenFreq, 0, max(n/4, 8))
		}
		if len(arena)+len(t) > cap(arena) {
			arena = make([]byte, 0, max(n/4*termBytes, len(t)))
		}
		at := len(arena)
		arena = append(arena, t...)
		slab = append(slab, index.TokenFreq{Term: arena[at:len(arena):len(arena)]})
		tf := &slab[len(slab)-1]
		tf.SetFrequency(k)
		f.freqs[t] = tf
	})
}

// Bytes of text per distinct term of a passage, about (fewer are
// rounded down): what the blocks of its field's analysis are sized by.
// termBytes is the bytes of a term, about.
const (
	textPerTerm   = 16
	textPerBigram = 4
	termBytes     = 6
)

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
