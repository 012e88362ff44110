package local

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lwr/config/configtest"
	"lwr/index"
	"lwr/research/researchtest"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// TestGoldenSample runs the queries of testdata/golden/queries.tsv over
// the bundled sample, and those of testdata/golden/rules/queries.tsv over
// testdata/rules (rules in two editions; compounds, affixes, synonyms of
// several words), and compares the ranked output — order, paths, cited
// lines, scores, the policies' note and the snippet — with
// <folder>/<name>.txt. go test ./research/local -update rewrites them;
// review the diff like any other change of behaviour.
func TestGoldenSample(t *testing.T) {
	repo := researchtest.Repo()
	for _, set := range []struct {
		name, dir, root string
		min             int
	}{
		{"sample", filepath.Join(repo, "testdata", "golden"), researchtest.Sample(t), 20},
		{"rules", filepath.Join(repo, "testdata", "golden", "rules"), filepath.Join(repo, "testdata", "rules"), 10},
	} {
		t.Run(set.name, func(t *testing.T) { goldenSet(t, set.dir, set.root, set.min) })
	}
}

func goldenSet(t *testing.T, dir, root string, least int) {
	data, err := os.ReadFile(filepath.Join(dir, "queries.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(Options{Index: index.Options{Root: root, Dir: configtest.TempDir(t)}, AutoBuild: &AutoBuild{}})
	defer s.Close()
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) < least+1 {
		t.Fatalf("%d golden queries; keep at least %d", len(lines)-1, least)
	}
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		name, modeName, query := f[0], f[1], f[2]
		t.Run(name, func(t *testing.T) {
			mode, err := index.ParseMode(modeName)
			if err != nil {
				t.Fatal(err)
			}
			q, err := index.ParseQuery(query)
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.Search(context.Background(), Request{Query: q, Mode: mode, Limit: 8, MaxChars: 300, NoHighlights: true, Explain: true})
			if err != nil {
				t.Fatal(err)
			}
			got := golden(query, res)
			p := filepath.Join(dir, name+".txt")
			if *update {
				if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(p)
			if err != nil {
				t.Fatalf("%v (go test ./research/local -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s (go test ./research/local -update rewrites it):\n%s", name, p, got)
			}
		})
	}
}

// golden is the reviewable form of a result: no times, no absolute paths;
// the ranked plan (each word's clauses and weights) and, per match, why
// its passage won.
func golden(query string, r *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "query: %s\nmode: %s\nwords: %s\n", query, r.Mode, strings.Join(r.Terms, " "))
	if len(r.Synonyms) > 0 {
		fmt.Fprintf(&b, "synonyms: %s\n", strings.Join(r.Synonyms, " "))
	}
	if r.Plan != "" {
		b.WriteString(r.Plan + "\n")
	}
	fmt.Fprintf(&b, "files: %d of %d matching, %d indexed\n", len(r.Matches), r.Total, r.Scanned)
	for i, m := range r.Matches {
		fmt.Fprintf(&b, "\n%d. %s:%d-%d  score %.3f\n", i+1, m.Path, m.StartLine, m.EndLine, m.Score)
		if i < len(r.Annotations) {
			fmt.Fprintf(&b, "   [%s]\n", strings.TrimPrefix(r.Annotations[i].Message, m.Path+": "))
		}
		if a := m.Answer; a != nil {
			fmt.Fprintf(&b, "   answer L%d-L%d: %s\n   why: %s\n", a.StartLine, a.EndLine, a.Text, a.Why)
		}
		for _, line := range strings.Split(m.Snippet, "\n") {
			fmt.Fprintf(&b, "   | %s\n", line)
		}
	}
	return b.String()
}
