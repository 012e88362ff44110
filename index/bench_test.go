package index

import (
	"context"
	"os"
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

// BenchmarkCorpusBuild measures a full build of the bench corpus into a new
// index (the dictionary loaded before the clock starts).
func BenchmarkCorpusBuild(b *testing.B) {
	root := os.Getenv("LWR_BENCH_CORPUS")
	if root == "" {
		b.Skip("LWR_BENCH_CORPUS is not set: build the corpus with make corpus")
	}
	if err := analyzer.Default().Preload(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		dir := b.TempDir()
		ix, err := Open(context.Background(), testOptions(root, dir))
		if err != nil {
			b.Fatal(err)
		}
		st, err := ix.Build(context.Background(), BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(st.Passages), "passages")
		ix.Close()
	}
}
