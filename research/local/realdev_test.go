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

// TestRealdevSnippetsAreTheReadLines runs every question of
// testdata/realdev (real public documents; the blind set too when it is
// there) through a session, at the default snippet budget and at 300
// characters as agents ask, and checks that every hit's snippet, and
// every further passage it shows, is exactly what Read returns for the
// same lines: indentation kept, never cut inside a line.
func TestRealdevSnippetsAreTheReadLines(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("searches every question of testdata/realdev (not in -short or under the race detector)")
	}
	dir := filepath.Join(researchtest.Repo(), "testdata", "realdev")
	var queries []string
	for _, name := range []string{"queries.tsv", "blind-queries.tsv"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if os.IsNotExist(err) && name != "queries.tsv" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
			if f := strings.Split(l, "\t"); i > 0 && len(f) > 1 {
				queries = append(queries, f[1])
			}
		}
	}
	if len(queries) < 80 {
		t.Fatalf("%d questions in testdata/realdev, want 80 or more", len(queries))
	}
	root := filepath.Join(dir, "docs")
	s := NewSession(Options{Index: index.Options{Root: root, Dir: configtest.TempDir(t)}, AutoBuild: &AutoBuild{}})
	defer s.Close()
	same := func(where string, start, end int, snippet string) {
		t.Helper()
		e, err := Read(root, index.Rules{}, where, start, end)
		if err != nil {
			t.Fatalf("%s:%d-%d: %v", where, start, end, err)
		}
		var lines []string
		for _, l := range e.Lines {
			lines = append(lines, l.Text)
		}
		if got := strings.Join(lines, "\n"); got != snippet || e.StartLine != start || e.EndLine != end {
			t.Errorf("%s:%d-%d: the snippet is not the lines read returns\nsnippet: %q\nread:    %q", where, start, end, snippet, got)
		}
	}
	hits := 0
	for _, query := range queries {
		q, err := index.ParseQuery(query)
		if err != nil {
			t.Fatal(err)
		}
		for _, chars := range []int{0, 300} {
			res, err := s.Search(context.Background(), Request{Query: q, Limit: 10, MaxChars: chars})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range res.Matches {
				same(m.Path, m.StartLine, m.EndLine, m.Snippet)
				for _, a := range m.Also {
					same(m.Path, a.StartLine, a.EndLine, a.Snippet)
				}
				hits++
			}
		}
	}
	t.Logf("realdev: %d questions, %d hits, every snippet the lines read returns", len(queries), hits)
}
