package index

import (
	"context"
	"os"
	"sync"
	"testing"
)

// The corpus tests share one index of the bench corpus (LWR_BENCH_CORPUS),
// built once per test binary.
var corpus struct {
	once sync.Once
	dir  string
	keep bool
	ix   *Index
	err  error
}

func corpusIndex(t testing.TB) (*Index, string) {
	t.Helper()
	root := os.Getenv("LWR_BENCH_CORPUS")
	if root == "" {
		t.Skip("LWR_BENCH_CORPUS is not set: build the corpus with make corpus")
	}
	corpus.once.Do(func() {
		// LWR_TEST_INDEX_DIR keeps the index between runs (for tuning).
		if d := os.Getenv("LWR_TEST_INDEX_DIR"); d != "" {
			corpus.dir, corpus.keep = d, true
		} else {
			corpus.dir, corpus.err = os.MkdirTemp("", "lwr-corpus-index-")
		}
		if corpus.err != nil {
			return
		}
		opts := testOptions(root, corpus.dir)
		opts.Rules.Extensions = []string{".txt"}
		opts.Rules.MaxFileSize = 8 << 20
		corpus.ix, corpus.err = Open(context.Background(), opts)
		if corpus.err != nil {
			return
		}
		_, corpus.err = corpus.ix.Build(context.Background(), BuildOptions{})
	})
	if corpus.err != nil {
		t.Fatal(corpus.err)
	}
	return corpus.ix, root
}

func TestMain(m *testing.M) {
	code := m.Run()
	if corpus.ix != nil {
		corpus.ix.Close()
	}
	if corpus.dir != "" && !corpus.keep {
		os.RemoveAll(corpus.dir)
	}
	os.Exit(code)
}
