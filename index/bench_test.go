package index

import (
	"context"
	"testing"

	"lwr/analyzer"
)

// BenchmarkCorpusSearch measures a warm ranked search of 8 results with
// snippets over the development queries of the bench corpus.
func BenchmarkCorpusSearch(b *testing.B) {
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
		if _, err := ix.Search(ctx, q, SearchOptions{Dictionary: dict}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if _, err := ix.Search(ctx, qs[i%len(qs)], SearchOptions{Dictionary: dict}); err != nil {
			b.Fatal(err)
		}
		i++
	}
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
