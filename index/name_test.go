package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/unicode/norm"

	"lwr/config/configtest"
)

func TestShownName(t *testing.T) {
	sjis, _ := japanese.ShiftJIS.NewEncoder().String("出張旅費規程.md")
	for _, c := range []struct{ raw, want string }{
		{"規程/就業規則.md", "規程/就業規則.md"},
		{"100%.md", "100%.md"},
		{"docs/bad\xff\xfe.md", "docs/bad%FF%FE.md"},
		{"docs/new\nline.md", "docs/new%0Aline.md"},
		{"docs/tab\t%.md", "docs/tab%09%25.md"},
		{"docs/" + sjis, "docs/出張旅費規程.md"},
		{"\xff/ok.md", "%FF/ok.md"},
		{"bidi\u2028sep.md", "bidi%E2%80%A8sep.md"},
	} {
		got := ShownName(c.raw)
		if got != c.want {
			t.Errorf("ShownName(%q) = %q, want %q", c.raw, got, c.want)
		}
		if !utf8.ValidString(got) || strings.ContainsAny(got, "\n\r\t") {
			t.Errorf("ShownName(%q) = %q is not plain text", c.raw, got)
		}
	}
}

// TestOddNamesEndToEnd indexes files whose names are not plain UTF-8
// (bytes that are no text, a newline, Shift_JIS from a Japanese zip) and
// finds, reads and resolves each under its shown name.
func TestOddNamesEndToEnd(t *testing.T) {
	root := configtest.TempDir(t)
	sjis, _ := japanese.ShiftJIS.NewEncoder().String("出張旅費規程.md")
	files := map[string]string{
		"bad\xff\xfe.md":   "# 壊れた名前\n\n有給休暇の申請は三日前まで。\n",
		"new\nline.md":     "# 改行\n\n有給休暇の取得日数。\n",
		sjis:               "# 出張旅費\n\n有給休暇と出張の関係。\n",
		"普通.md":            "# 普通\n\n有給休暇の付与日数。\n",
		"bad%FF%FE.md":     "# 同じ名前に見える\n\n有給休暇の別の話。\n",
		"sub\xfa\xfb/x.md": "# 下位\n\n有給休暇の繰越。\n",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Skipf("this file system refuses the name %q: %v", name, err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Skipf("this file system refuses the name %q: %v", name, err)
		}
	}
	dir := configtest.TempDir(t)
	ix := openTest(t, root, dir)
	defer ix.Close()
	var skips []string
	st, err := ix.Build(context.Background(), BuildOptions{OnSkip: func(p, why string) { skips = append(skips, p+": "+why) }})
	if err != nil {
		t.Fatal(err)
	}
	// "bad%FF%FE.md" exists as its own name and as the shown name of
	// "bad\xff\xfe.md": one of them is skipped, said so.
	if st.Files != 5 || len(skips) != 1 || !strings.Contains(skips[0], "shown as") {
		t.Fatalf("build: %+v, skipped %v", st, skips)
	}
	got := paths(find(t, ix, "有給休暇", SearchOptions{Limit: 10}))
	slices.Sort(got)
	want := []string{"bad%FF%FE.md", "new%0Aline.md", "sub%FA%FB/x.md", "出張旅費規程.md", "普通.md"}
	if !slices.Equal(got, want) {
		t.Fatalf("search: %v, want %v", got, want)
	}
	for _, rel := range want {
		f, err := ReadFile(root, Rules{}, rel)
		if err != nil {
			t.Errorf("ReadFile(%q): %v", rel, err)
			continue
		}
		if f.Rel != rel || !strings.Contains(strings.Join(f.Lines, "\n"), "有給休暇") {
			t.Errorf("ReadFile(%q) = %q %q", rel, f.Rel, f.Lines)
		}
	}
	// The shown names resolve to the files the file system has.
	if got := Resolve(root, "new%0Aline.md"); got != filepath.Join(root, "new\nline.md") {
		t.Errorf("Resolve = %q", got)
	}
	if got := Resolve(root, "出張旅費規程.md"); got != filepath.Join(root, sjis) {
		t.Errorf("Resolve = %q", got)
	}
	// A no-op build reads nothing again.
	if st, err := ix.Build(context.Background(), BuildOptions{}); err != nil || st.Unchanged != 5 || st.Added+st.Updated+st.Deleted != 0 {
		t.Errorf("no-op build: %+v, %v", st, err)
	}
}

func TestPathIn(t *testing.T) {
	for _, c := range []struct {
		path    string
		pattern string
		want    bool
	}{
		{"規程/就業規則.md", "規程", true},
		{"規程/就業規則.md", "規程/", true},
		{"規程/就業規則.md", "./規程/就業規則.md", true},
		{"規程2/就業規則.md", "規程", false},
		{"規程/就業規則.md", "規程/*.md", true},
		{"規程/旧/就業規則.md", "規程/*.md", false},
		{"規程/旧/就業規則.md", "規程/**/*.md", true},
		{"規程/就業規則.md", "規程/**/*.md", true},
		{"a/b/c/d.txt", "**/*.txt", true},
		{"d.txt", "**/*.txt", true},
		{"a/b/c/d.txt", "a/**", true},
		{"研修/2024/契約.md", "研修/202?/*", true},
		{"研修/2024/契約.md", "研修/202[56]/*", false},
		{"x.md", "[", false},
	} {
		if got := pathIn(c.path, []string{c.pattern}); got != c.want {
			t.Errorf("pathIn(%q, %q) = %v, want %v", c.path, c.pattern, got, c.want)
		}
	}
}

// TestDecomposedNames indexes files whose names are decomposed (NFD, as
// macOS, zip archives and git leave them: ひ + U+3099) and finds, reads
// and resolves each under its composed name, the one people type.
func TestDecomposedNames(t *testing.T) {
	root := configtest.TempDir(t)
	composed := "規程/ひびき・ガイド.md"
	files := map[string]string{
		norm.NFD.String(composed):  "# ひびき\n\n有給休暇の申請は三日前までに行う。\n",
		norm.NFD.String("ぶどう.txt"): "有給休暇の繰越は翌年度まで。\n",
		// Half composed, half decomposed: found by reading the folder.
		"ぶ" + norm.NFD.String("どう2.txt"): "有給休暇の付与日数。\n",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Lstat(filepath.Join(root, "ぶどう.txt")); err == nil {
		t.Skip("this file system composes names itself")
	}
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	want := []string{"ぶどう.txt", "ぶどう2.txt", composed}
	for _, mode := range []Mode{Ranked, FullText} {
		res := find(t, ix, "有給休暇", SearchOptions{Mode: mode, Limit: 10})
		got := paths(res)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: %+q, want %+q", mode, got, want)
		}
		for _, m := range res.Matches {
			if m.StartLine == 0 || m.ModTime.IsZero() || !strings.Contains(m.Snippet, "有給休暇") {
				t.Errorf("%s: %s has no lines: %+v", mode, m.Path, m)
			}
		}
	}
	for _, rel := range append(want, norm.NFD.String(composed)) {
		f, err := ReadFile(root, Rules{}, rel)
		if err != nil {
			t.Errorf("ReadFile(%+q): %v", rel, err)
			continue
		}
		if f.Rel != norm.NFC.String(rel) || !strings.Contains(strings.Join(f.Lines, "\n"), "有給休暇") {
			t.Errorf("ReadFile(%+q) = %+q %q", rel, f.Rel, f.Lines)
		}
	}
	if got := Resolve(root, composed); got != filepath.Join(root, norm.NFD.String(composed)) {
		t.Errorf("Resolve = %+q", got)
	}
	// The composed twin of a decomposed name is one name too many.
	if err := os.WriteFile(filepath.Join(root, composed), []byte("有給休暇の別の話。\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var skips []string
	st, err := ix.Build(context.Background(), BuildOptions{OnSkip: func(p, why string) { skips = append(skips, p+": "+why) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(skips) != 1 || !strings.HasPrefix(skips[0], composed+": its name is shown as another file's") || st.Files != 3 {
		t.Errorf("build: %+v, skipped %q", st, skips)
	}
}
