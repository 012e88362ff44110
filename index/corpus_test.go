package index

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"lwr/analyzer"
)

// readLines reads a testdata list, skipping comments and blank lines.
func readLines(t testing.TB, p string) []string {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

func devQueries(t testing.TB) []string {
	var qs []string
	for i, l := range readLines(t, "testdata/dev-queries.tsv") {
		if i == 0 {
			continue
		}
		qs = append(qs, strings.Split(l, "\t")[1])
	}
	return qs
}

// checkSnippet verifies that a match's snippet is exactly the text of its
// lines in the current file, indentation kept.
func checkSnippet(t *testing.T, root string, m Match) {
	t.Helper()
	text, _, err := ReadText(filepath.Join(root, filepath.FromSlash(m.Path)))
	if err != nil {
		t.Fatalf("%s: %v", m.Path, err)
	}
	lines := Lines(text)
	if m.StartLine < 1 || m.EndLine < m.StartLine || m.EndLine > len(lines) {
		t.Fatalf("%s: lines %d-%d outside 1-%d", m.Path, m.StartLine, m.EndLine, len(lines))
	}
	want := strings.Join(lines[m.StartLine-1:m.EndLine], "\n")
	if m.Snippet == want {
		return
	}
	t.Fatalf("%s:%d-%d: snippet is not the text of its lines\nsnippet: %q\nlines:   %q", m.Path, m.StartLine, m.EndLine, m.Snippet, want)
}

func TestCorpusSnippetsAreExactLines(t *testing.T) {
	ix, root := corpusIndex(t)
	queries := append(devQueries(t), readLines(t, "testdata/corpus-queries.txt")...)
	if len(queries) < 200 {
		t.Fatalf("only %d queries", len(queries))
	}
	matches := 0
	for _, q := range queries {
		for _, opts := range []SearchOptions{{Limit: 10}, {Limit: 5, MaxChars: 200}} {
			res := find(t, ix, q, opts)
			for _, m := range res.Matches {
				checkSnippet(t, root, m)
				// Over the budget only when a single line is longer.
				if n := utf8.RuneCountInString(m.Snippet); n > opts.withDefaults().MaxChars && m.StartLine != m.EndLine {
					t.Fatalf("%q: %s snippet of %d characters over %d lines, max %d", q, m.Path, n, m.EndLine-m.StartLine+1, opts.withDefaults().MaxChars)
				}
				matches++
			}
		}
	}
	t.Logf("corpus: %d queries, %d matches, every snippet exact", len(queries), matches)
}

// bruteForce returns the files of the corpus whose folded text, its lines
// joined, holds every folded word, by reading them all.
func bruteForce(t *testing.T, root string, words []string, texts map[string]string) []string {
	var out []string
	for rel, f := range texts {
		ok := true
		for _, w := range words {
			if !strings.Contains(f, analyzer.FoldText(w)) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, rel)
		}
	}
	slices.Sort(out)
	return out
}

func TestCorpusFullTextEqualsBruteForce(t *testing.T) {
	ix, root := corpusIndex(t)
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r // the corpus folder may be a link to it
	}
	texts := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".txt") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		texts[filepath.ToSlash(rel)] = analyzer.FoldText(analyzer.JoinLines(string(b)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	words := readLines(t, "testdata/fulltext-words.txt")
	if len(words) < 50 {
		t.Fatalf("only %d words", len(words))
	}
	for _, line := range words {
		q, err := ParseQuery(line)
		if err != nil {
			t.Fatal(err)
		}
		res, err := ix.Search(context.Background(), q, SearchOptions{Mode: FullText, MaxChars: 200})
		if err != nil {
			t.Fatal(err)
		}
		var ws []string
		for _, w := range q.Words {
			ws = append(ws, w.Text)
		}
		want := bruteForce(t, root, ws, texts)
		got := paths(res)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("fulltext %q: %d files, brute force %d\nonly lwr: %v\nonly scan: %v", line, len(got), len(want), minus(got, want), minus(want, got))
		}
		for _, m := range res.Matches {
			checkSnippet(t, root, m)
		}
		t.Logf("corpus: fulltext %q: %d files, equal to the scan", line, len(got))
	}
}

func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
			if len(out) == 10 {
				break
			}
		}
	}
	return out
}
