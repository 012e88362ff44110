package index

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"lwr/config/configtest"
)

// segments counts the segments of the index's current snapshot.
func segments(t *testing.T, ix *Index) int {
	t.Helper()
	n, ok := ix.b.StatsMap()["index"].(map[string]any)["TotFileSegmentsAtRoot"].(uint64)
	if !ok {
		t.Fatalf("no segment count in %v", ix.b.StatsMap())
	}
	return int(n)
}

// openArticles opens a writer on a tree of n rule files of reps lines
// each, with batches small enough that a build writes several segments.
func openArticles(t *testing.T, n, reps int) *Index {
	t.Helper()
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("規程/第%02d条.md", i)] = fmt.Sprintf("# 第%d条\n\n%s\n", i, strings.Repeat(fmt.Sprintf("有給休暇の申請は取得日の%d日前までに行う。\n", i), reps))
	}
	opts := testOptions(tree(t, files), configtest.TempDir(t))
	opts.BatchBytes = 64 << 10
	ix, err := Open(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// A new index's first build, written over several batches, ends in one
// segment; the index is then open as one kept up to date, and a forced
// rebuild does the same again.
func TestFirstBuildMergesOnce(t *testing.T) {
	ix := openArticles(t, 40, 300)
	for _, force := range []bool{false, true} {
		st := mustBuild(t, ix, BuildOptions{Force: force})
		if st.Batches < 5 || st.Added != 40 {
			t.Fatalf("force %v: %+v: want 40 files over several batches", force, st)
		}
		if ix.deferred {
			t.Errorf("force %v: the index is still open with the first build's merge plan", force)
		}
		if n := segments(t, ix); n != 1 {
			t.Errorf("force %v: %d segments after the first build, want 1", force, n)
		}
		if got := paths(find(t, ix, "\"取得日の7日前\"", SearchOptions{Mode: FullText})); !slices.Contains(got, "規程/第07条.md") {
			t.Errorf("force %v: search after the merge: %v", force, got)
		}
	}
	writeFile(t, ix.Root(), "メモ/新規.md", "# 新規\n会議室の予約方法。\n")
	if st := mustBuild(t, ix, BuildOptions{}); st.Added != 1 || ix.deferred {
		t.Fatalf("update: %+v (deferred %v)", st, ix.deferred)
	}
	if got := paths(find(t, ix, "会議室", SearchOptions{})); !slices.Equal(got, []string{"メモ/新規.md"}) {
		t.Errorf("after an update: %v", got)
	}
}

// TestReadsDuringABuildThatReplacesTheIndex: a daemon answers status and
// search requests while its build replaces the Bleve index (a forced
// rebuild, the reopening at the end of a first build); they wait for the
// swap instead of reading a closed or missing index.
func TestReadsDuringABuildThatReplacesTheIndex(t *testing.T) {
	ix := openArticles(t, 30, 100)
	mustBuild(t, ix, BuildOptions{})
	for range 2 {
		done := make(chan error, 1)
		go func() {
			_, err := ix.Build(t.Context(), BuildOptions{Force: true})
			done <- err
		}()
		for reading := true; reading; {
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
				reading = false
			default:
				if _, err := ix.Status(); err != nil {
					t.Fatalf("status during the build: %v", err)
				}
				if _, err := ix.Search(t.Context(), Query{Words: []Word{{Text: "有給休暇"}}}, SearchOptions{}); err != nil {
					t.Fatalf("search during the build: %v", err)
				}
				_ = ix.LastSync()
			}
		}
	}
}
