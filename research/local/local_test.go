package local

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lwr/config/configtest"
	"lwr/index"
	"lwr/research/researchtest"
)

// builtSample builds the index of a copy of the bundled sample and
// returns the root and the index folder.
func builtSample(t *testing.T) (root, dir string) {
	t.Helper()
	root = researchtest.Sample(t)
	dir = filepath.Join(configtest.TempDir(t), "ix")
	ix, err := index.Open(context.Background(), index.Options{Root: root, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Build(context.Background(), index.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	return root, dir
}

func mustQuery(t *testing.T, s string) index.Query {
	t.Helper()
	q, err := index.ParseQuery(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// A file with CRLF line ends (as Windows editors save them) is cited with
// the exact lines of its hit, in both modes.
func TestCRLFLinesAreExact(t *testing.T) {
	root := researchtest.WriteTree(t, map[string]string{
		"規程/旅費.md": "# 旅費規程\r\n\r\n第1条 目的\r\n本規程は出張の旅費を定める。\r\n\r\n第2条 宿泊料\r\n宿泊料の上限は一泊12,000円とする。\r\n",
	})
	s := NewSession(Options{Index: index.Options{Root: root, Dir: configtest.TempDir(t)}, AutoBuild: &AutoBuild{}})
	defer s.Close()
	lines := strings.Split("# 旅費規程\n\n第1条 目的\n本規程は出張の旅費を定める。\n\n第2条 宿泊料\n宿泊料の上限は一泊12,000円とする。", "\n")
	for _, mode := range []index.Mode{index.Ranked, index.FullText} {
		res, err := s.Search(context.Background(), Request{Query: mustQuery(t, "12,000円"), Mode: mode})
		if err != nil || len(res.Matches) != 1 {
			t.Fatalf("%s: %v %+v", mode, err, res)
		}
		m := res.Matches[0]
		if got := strings.Join(lines[m.StartLine-1:m.EndLine], "\n"); strings.TrimSpace(got) != m.Snippet || !strings.Contains(m.Snippet, "12,000円") || strings.Contains(m.Snippet, "\r") {
			t.Errorf("%s: L%d-L%d snippet %q, lines %q", mode, m.StartLine, m.EndLine, m.Snippet, got)
		}
	}
}

// TestKilledDaemonMakesSearchesSayStale: after the daemon that kept an
// index was killed (its owner file is left behind, no lock is held), a
// search in this process says the index may be stale, and why.
func TestKilledDaemonMakesSearchesSayStale(t *testing.T) {
	root, dir := builtSample(t)
	s := NewSession(Options{Index: index.Options{Root: root, Dir: dir}})
	defer s.Close()
	req := Request{Query: mustQuery(t, "有給休暇")}
	res, err := s.Search(context.Background(), req)
	if err != nil || res.Stale != "" {
		t.Fatalf("a search of a built index: stale %q, %v", res.Stale, err)
	}
	// What `kill -9` of lwr index watch leaves.
	if err := os.WriteFile(filepath.Join(dir, "lock.owner"), []byte("4242 lwr index watch\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err = s.Search(context.Background(), req)
	if err != nil || !strings.Contains(res.Stale, "process 4242") || !strings.Contains(res.Message, "索引が古い可能性") {
		t.Errorf("a search after the daemon was killed: stale %q, message %q, %v", res.Stale, res.Message, err)
	}
}
