package index

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lwr/analyzer"
	"lwr/config/configtest"
	"lwr/index/extract"
)

// openOffice opens the index of root with the default rules (every
// format lwr reads).
func openOffice(t *testing.T, root, dir string) *Index {
	t.Helper()
	o := testOptions(root, dir)
	o.Rules = Rules{}
	ix, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// officeRoot is a source root holding the extract package's fixtures.
func officeRoot(t *testing.T) string {
	t.Helper()
	root := configtest.TempDir(t)
	m, _ := filepath.Glob(filepath.Join("extract", "testdata", "*.*"))
	for _, p := range m {
		if strings.HasSuffix(p, ".py") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, filepath.Base(p)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "メモ.md"), []byte("# メモ\n\nトナーの発注は総務課。\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestOfficeDocuments indexes PDF, Word, Excel and PowerPoint files: each
// format's words are found in both modes, with where they stand; the
// files that cannot be read are skipped with their reason and break
// nothing; a no-op build extracts nothing.
func TestOfficeDocuments(t *testing.T) {
	pdfs := extract.PDFReadable()
	if !pdfs && os.Getenv("LWR_TEST_REQUIRE_PDF") != "" {
		t.Fatal("pdftotext is not installed and LWR_TEST_REQUIRE_PDF is set")
	}
	root := officeRoot(t)
	dir := configtest.TempDir(t)
	ix := openOffice(t, root, dir)
	defer ix.Close()
	var skips []string
	st, err := ix.Build(context.Background(), BuildOptions{OnSkip: func(p, why string) { skips = append(skips, p+": "+why) }})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(skips)
	t.Logf("built %+v; skipped %v", st, skips)
	for _, want := range []string{"古い規程.doc: an old binary Office format", "壊れた.pdf: ", "暗号化.pdf: ", "スキャン.pdf: "} {
		if !slices.ContainsFunc(skips, func(s string) bool { return strings.HasPrefix(s, want) }) {
			t.Errorf("no skip %q among %v", want, skips)
		}
	}
	cases := []struct {
		query, path, where string
		pdf                bool
	}{
		{"宿泊料 上限", "旅費規程.docx", "見出し「第3条 宿泊料」", false},
		{"トナー", "単価表.xlsx", "シート「単価表」 行4", false},
		{"領収書", "新人研修.pptx", "スライド2", false},
		{"USBメモリ 禁止", "情報セキュリティ研修.pdf", "p.2", true},
	}
	for _, c := range cases {
		if c.pdf && !pdfs {
			continue
		}
		for _, mode := range []Mode{Ranked, FullText} {
			res := find(t, ix, c.query, SearchOptions{Mode: mode, Limit: 10})
			i := slices.IndexFunc(res.Matches, func(m Match) bool { return m.Path == c.path })
			if i < 0 {
				t.Errorf("%s %q: %s not found in %v", mode, c.query, c.path, paths(res))
				continue
			}
			if m := res.Matches[i]; m.Locator == nil || m.Locator.Label() != c.where {
				t.Errorf("%s %q: %s at %+v, want %s", mode, c.query, c.path, m.Locator, c.where)
			}
		}
	}
	// The plain file's match has no locator.
	for _, m := range find(t, ix, "トナー", SearchOptions{Mode: FullText}).Matches {
		if m.Path == "メモ.md" && m.Locator != nil {
			t.Errorf("a text file has a locator: %+v", m.Locator)
		}
	}
	// ReadFile gives the extracted lines, with their locators.
	f, err := ReadFile(root, ix.Rules(), "単価表.xlsx")
	if err != nil || len(f.Locators) != len(f.Lines) || f.Encoding != "extracted:xlsx" {
		t.Fatalf("ReadFile: %+v, %v", f, err)
	}
	// A no-op build reads and extracts nothing.
	cached := func() int {
		n := 0
		filepath.WalkDir(filepath.Join(dir, "extracted"), func(_ string, d os.DirEntry, _ error) error {
			if d != nil && !d.IsDir() {
				n++
			}
			return nil
		})
		return n
	}
	before := cached()
	if st, err := ix.Build(context.Background(), BuildOptions{}); err != nil || st.Read != 0 {
		t.Errorf("no-op build: %+v, %v; want nothing read", st, err)
	}
	if before == 0 || cached() != before {
		t.Errorf("extraction cache: %d files, then %d", before, cached())
	}
}

// TestFullTextOverExtractedText: full-text mode over PDF and Office files
// returns exactly the files whose extracted text holds every word, as a
// scan of that text finds them.
func TestFullTextOverExtractedText(t *testing.T) {
	root := officeRoot(t)
	dir := configtest.TempDir(t)
	ix := openOffice(t, root, dir)
	defer ix.Close()
	mustBuild(t, ix, BuildOptions{})
	entries, _ := os.ReadDir(root)
	for _, q := range []string{"トナー", "上限", "研修", "円", "禁止", "領収書 提出"} {
		var want []string
		for _, e := range entries {
			f, err := ReadFile(root, ix.Rules(), e.Name())
			if err != nil {
				continue // skipped documents
			}
			text := analyzer.Fold(strings.Join(f.Lines, "\n"))
			all := true
			for _, w := range strings.Fields(q) {
				all = all && strings.Contains(text, analyzer.Fold(w))
			}
			if all {
				want = append(want, e.Name())
			}
		}
		got := paths(find(t, ix, q, SearchOptions{Mode: FullText}))
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%q: full text %v, scan %v", q, got, want)
		}
	}
}

// TestPDFWithoutPoppler: where pdftotext is missing, PDFs are skipped
// with what to install, and read once it is there.
func TestPDFWithoutPoppler(t *testing.T) {
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext is not installed")
	}
	root := officeRoot(t)
	dir := configtest.TempDir(t)
	t.Setenv("PATH", configtest.TempDir(t))
	ix := openOffice(t, root, dir)
	defer ix.Close()
	var why string
	mustBuild(t, ix, BuildOptions{OnSkip: func(p, w string) {
		if p == "情報セキュリティ研修.pdf" {
			why = w
		}
	}})
	if !strings.Contains(why, "pdftotext") || !strings.Contains(why, "install") {
		t.Fatalf("the PDF was skipped with %q; want what to install", why)
	}
	t.Setenv("PATH", filepath.Dir(pdftotext))
	st := mustBuild(t, ix, BuildOptions{})
	if st.Added == 0 {
		t.Errorf("with pdftotext back, nothing was added: %+v", st)
	}
	if got := paths(find(t, ix, "USBメモリ", SearchOptions{})); !slices.Contains(got, "情報セキュリティ研修.pdf") {
		t.Errorf("the PDF is not found after pdftotext came back: %v", got)
	}
}
