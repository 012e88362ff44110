package local

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"lwr/analyzer"
	"lwr/config/configtest"
	"lwr/index"
	"lwr/policy"
)

// corpusIndex opens (building it if needed) the index of the bench corpus.
func corpusIndex(b *testing.B) *index.Index {
	root := os.Getenv("LWR_BENCH_CORPUS")
	if root == "" {
		b.Skip("LWR_BENCH_CORPUS is not set: build the corpus with make corpus")
	}
	dir := os.Getenv("LWR_TEST_INDEX_DIR")
	if dir == "" {
		dir = configtest.TempDir(b)
	}
	ix, err := index.Open(context.Background(), index.Options{
		Root: root, Dir: dir,
		Rules: index.Rules{Extensions: []string{".txt"}, MaxFileSize: 8 << 20},
	})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := ix.Build(context.Background(), index.BuildOptions{}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	return ix
}

// policyRoot writes policies about bench corpus documents into a folder.
func policyRoot(b *testing.B) string {
	root := configtest.TempDir(b)
	dir := filepath.Join(root, policy.Dir)
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, policy.PreferencesFile), []byte(`{"version": 1, "preferred": [
	  {"path": "manpages-ja/man1/cp.1.txt", "label": "cp", "supersedes": ["manpages-ja/man1/rcp.1.txt", "manpages-ja/man1/apple_cp.1.txt"]},
	  {"path": "manpages-ja/man1/df.1.txt", "supersedes": ["manpages-ja/man1/du.1.txt"]},
	  {"path": "manpages-ja/man8/fdisk.8.txt", "supersedes": ["manpages-ja/man8/cfdisk.8.txt"]}]}`), 0o644)
	os.WriteFile(filepath.Join(dir, policy.CurrentnessFile), []byte(`{"version": 1, "checked_at": "2026-10-01", "records": [
	  {"id": "files", "paths": ["manpages-ja/man1/*.txt"], "text": ["ファイル"], "action": "check_conditions",
	   "verified": {"value": "v", "effective_from": "2025-04-01", "scope": "s"},
	   "sources": [{"title": "t", "url": "https://www.debian.org/doc/", "checked_at": "2026-10-01"}]},
	  {"id": "admin", "paths": ["manpages-ja/man8/**"], "action": "illustrative_only"},
	  {"id": "proc", "paths": ["manpages-ja/**/*.txt"], "text": ["プロセス", "ユーザー"], "action": "do_not_assert_current", "unverified": "u"}]}`), 0o644)
	return root
}

func devQueries(b *testing.B) []index.Query {
	data, err := os.ReadFile(filepath.Join("..", "..", "index", "testdata", "dev-queries.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	var qs []index.Query
	for i, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if i == 0 {
			continue
		}
		q, err := index.ParseQuery(strings.Split(l, "\t")[1])
		if err != nil {
			b.Fatal(err)
		}
		qs = append(qs, q)
	}
	return qs
}

// BenchmarkCorpusPolicy compares a warm ranked search of 8 results on the
// bench corpus, by the index alone and by a session with a heavy set of
// policies applied. The difference of the p50s is what the policies add.
func BenchmarkCorpusPolicy(b *testing.B) {
	ix := corpusIndex(b)
	qs := devQueries(b)
	dict := analyzer.DefaultSynonyms()
	// The policies of another folder, over the corpus's index; the session
	// keeps the titles and policies between searches, as the daemon does
	// the titles.
	s := NewSession(Options{
		Index:     index.Options{Root: ix.Root(), Dir: ix.Dir()},
		OpenIndex: func(context.Context, index.Options) (*index.Index, error) { return ix, nil },
		PolicyFS:  os.DirFS(policyRoot(b)),
	})
	ctx := context.Background()
	so := index.SearchOptions{Limit: 8, Dictionary: dict}
	run := func(b *testing.B, f func(q index.Query) error) {
		for _, q := range qs {
			if err := f(q); err != nil {
				b.Fatal(err)
			}
		}
		var took []time.Duration
		i := 0
		for b.Loop() {
			start := time.Now()
			if err := f(qs[i%len(qs)]); err != nil {
				b.Fatal(err)
			}
			took = append(took, time.Since(start))
			i++
		}
		slices.Sort(took)
		b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	}
	b.Run("index", func(b *testing.B) {
		run(b, func(q index.Query) error {
			_, err := ix.Search(ctx, q, so)
			return err
		})
	})
	b.Run("policies", func(b *testing.B) {
		run(b, func(q index.Query) error {
			_, err := s.Search(ctx, Request{Query: q, Limit: 8})
			return err
		})
	})
}
