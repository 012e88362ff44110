package deep_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"lwr/config/configtest"
	"lwr/index"
	"lwr/research"
	"lwr/research/deep"
	"lwr/research/local"
	"lwr/research/report"
	"lwr/research/researchtest"
)

// testIndexDir holds the indexes the tests build, removed by TestMain.
var testIndexDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lwr-deep-test-")
	if err != nil {
		panic(err)
	}
	testIndexDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var (
	indexMu sync.Mutex
	indexes = map[string]string{}
)

var rules = index.Rules{Extensions: []string{".md", ".txt", ".csv", ".json", ".yaml", ".yml"}}

// indexDir builds (once per root) the index of a source root.
func indexDir(t testing.TB, root string) string {
	t.Helper()
	indexMu.Lock()
	defer indexMu.Unlock()
	if d, ok := indexes[root]; ok {
		return d
	}
	ctx := context.Background()
	d := filepath.Join(testIndexDir, fmt.Sprint(len(indexes)))
	ix, err := index.Open(ctx, index.Options{Root: root, Dir: d, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Build(ctx, index.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	indexes[root] = d
	return d
}

// rulesRoot is a copy of testdata/rules (company rules with a 旅費規程).
func rulesRoot(t testing.TB) string {
	t.Helper()
	root := configtest.TempDir(t)
	researchtest.CopyTree(t, filepath.Join(researchtest.Repo(), "testdata", "rules"), root)
	return root
}

// options are the deep research of a workspace over root, searching
// through an index built in the test, on a fixed clock.
func options(t testing.TB, root string, ws string) deep.Options {
	t.Helper()
	dir := indexDir(t, root)
	ro := research.Options{SourceRoot: root}
	return deep.Options{
		Workspace: ws,
		Sources:   report.Sources{Root: root, Rules: rules},
		Research:  ro,
		OpenLocal: func(context.Context) (local.Searcher, error) {
			return local.NewSession(local.Options{Index: index.Options{Root: root, Dir: dir, Rules: rules}}), nil
		},
		Now: func() time.Time { return time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC) },
	}
}
