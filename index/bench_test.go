package index

import (
	"context"
	"slices"
	"testing"
	"time"

	"lwr/analyzer"
)

// BenchmarkCorpusSearch measures a warm ranked search of 8 results with
// snippets over the development queries of the bench corpus.
func BenchmarkCorpusSearch(b *testing.B) { corpusSearch(b, false) }

// BenchmarkCorpusSearchThesaurus is BenchmarkCorpusSearch with and without
// SudachiDict's synonym groups (analyzer/thesaurus), side by side: the
// cost of the resource at query time. (The index is the same either way:
// the groups only expand queries.)
func BenchmarkCorpusSearchThesaurus(b *testing.B) {
	b.Run("with", func(b *testing.B) { corpusSearch(b, false) })
	b.Run("without", func(b *testing.B) { corpusSearch(b, true) })
}

func corpusSearch(b *testing.B, noThesaurus bool) {
	ix, _ := corpusIndex(b)
	dict := analyzer.DefaultSynonyms()
	var qs []Query
	for _, s := range devQueries(b) {
		q, err := ParseQuery(s)
		if err != nil {
			b.Fatal(err)
		}
		qs = append(qs, q)
	}
	ctx := context.Background()
	for _, q := range qs { // warm up: dictionary, caches
		if _, err := ix.Search(ctx, q, SearchOptions{Dictionary: dict, NoThesaurus: noThesaurus}); err != nil {
			b.Fatal(err)
		}
	}
	var took []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		// As lwr search --format json asks: 8 files, no highlights.
		if _, err := ix.Search(ctx, qs[i%len(qs)], SearchOptions{Dictionary: dict, SkipHighlights: true, NoThesaurus: noThesaurus}); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
		i++
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*9/10].Microseconds())/1000, "p90-ms")
}

// BenchmarkCorpusFullText measures a full-text search of a rare word.
func BenchmarkCorpusFullText(b *testing.B) {
	ix, _ := corpusIndex(b)
	q, _ := ParseQuery("ベッセル関数")
	for b.Loop() {
		if _, err := ix.Search(context.Background(), q, SearchOptions{Mode: FullText}); err != nil {
			b.Fatal(err)
		}
	}
}
