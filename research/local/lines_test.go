package local

import (
	"context"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"lwr/analyzer"
	"lwr/config/configtest"
	"lwr/index"
	"lwr/research/researchtest"
)

// TestGrepFormatEqualsAScan: in full-text mode, --format grep prints
// exactly the lines a scan of every document finds the word in, and
// files and count agree with it.
func TestGrepFormatEqualsAScan(t *testing.T) {
	root, dir := builtSample(t)
	s := NewSession(Options{Index: index.Options{Root: root, Dir: dir}})
	ctx := context.Background()
	word := "随意契約"
	req := Request{Query: mustQuery(t, word), Mode: index.FullText}
	res, err := s.Search(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	out := Render(res, FormatGrep, RenderOptions{})
	got := strings.Split(strings.TrimSpace(out), "\n")
	var want []string
	files := map[string]int{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		f, err := index.ReadFile(root, index.Rules{}, rel)
		if err != nil {
			return nil // not a document
		}
		for i, l := range f.Lines {
			if strings.Contains(analyzer.Fold(l), analyzer.Fold(word)) {
				want = append(want, rel+":"+strconv.Itoa(i+1)+":"+l)
				files[rel]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	slices.Sort(want)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Fatalf("grep output:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	counts := Render(res, FormatCount, RenderOptions{})
	names := Render(res, FormatFiles, RenderOptions{})
	for rel, n := range files {
		if !strings.Contains(counts, rel+":"+strconv.Itoa(n)+"\n") || !strings.Contains(names, rel+"\n") {
			t.Errorf("%s (%d lines) missing from\n%s\n%s", rel, n, counts, names)
		}
	}
	if strings.Count(names, "\n") != len(files) {
		t.Errorf("files:\n%s\nwant %d", names, len(files))
	}
	s.Close()
}

// TestGrepContext prints context lines as grep -C does: "-" for context,
// ":" for matches, "--" between groups that do not touch.
func TestGrepContext(t *testing.T) {
	root := researchtest.WriteTree(t, map[string]string{"a.md": "一\n二 鍵\n三\n四\n五\n六\n七 鍵\n八 鍵\n九\n"})
	dir := filepath.Join(configtest.TempDir(t), "ix")
	s := NewSession(Options{Index: index.Options{Root: root, Dir: dir}, AutoBuild: &AutoBuild{}})
	defer s.Close()
	res, err := s.Search(context.Background(), Request{Query: mustQuery(t, "鍵"), Mode: index.FullText})
	if err != nil {
		t.Fatal(err)
	}
	out := Render(res, FormatGrep, RenderOptions{Context: LineContext{Before: 1, After: 1}})
	want := "a.md-1-一\na.md:2:二 鍵\na.md-3-三\n--\na.md-6-六\na.md:7:七 鍵\na.md:8:八 鍵\na.md-9-九\n"
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestGroupingHint(t *testing.T) {
	for words, want := range map[string]string{
		"14000円": "14,000", "5000": "5,000", "1234567": "1,234,567", "2026年": "", "0120": "", "12": "",
	} {
		r := &Result{Result: &index.Result{Mode: index.FullText, Terms: []string{words}}}
		got := groupingHint(r)
		if want == "" && got != "" || want != "" && !strings.Contains(got, " as "+want+";") {
			t.Errorf("%s: %q, want %q", words, got, want)
		}
	}
	if groupingHint(&Result{Result: &index.Result{Mode: index.Ranked, Terms: []string{"14000"}}}) != "" {
		t.Error("a hint for a ranked search")
	}
}

// TestRankedCountsDoNotChangeWithTheLimit: a ranked search finds its
// files among the best passages, so how many it found there changes with
// the number asked for; it says how many it shows, and nothing that a
// --max-files changes.
func TestRankedCountsDoNotChangeWithTheLimit(t *testing.T) {
	root, dir := builtSample(t)
	s := NewSession(Options{Index: index.Options{Root: root, Dir: dir}})
	defer s.Close()
	for _, limit := range []int{3, 8} {
		res, err := s.Search(context.Background(), Request{Query: mustQuery(t, "有給休暇 申請"), Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		first := strings.SplitN(res.Message, "\n", 2)[0]
		text := Render(res, FormatText, RenderOptions{})
		if !strings.Contains(first, "; files="+strconv.Itoa(len(res.Matches))+";") || !strings.Contains(text, Files(len(res.Matches))+" shown (ranked") {
			t.Errorf("--max-files %d: message %q, text ends %q", limit, first, text[strings.LastIndex(strings.TrimSpace(text), "\n")+1:])
		}
	}
}
