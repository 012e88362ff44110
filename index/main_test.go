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
		corpus.dir, corpus.err = os.MkdirTemp("", "lwr-corpus-index-")
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
	if corpus.dir != "" {
		os.RemoveAll(corpus.dir)
	}
	os.Exit(code)
}
