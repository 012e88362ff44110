package index

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"lwr/config/configtest"
	"lwr/index/extract"
)

// TestAuditKeepsCostlySkips: a document skipped for making more text
// than the budget is not extracted again by an audit while its bytes,
// mtime and size stand (the audit re-hashes it, as every file); once the
// budget is raised, an ordinary build reads it again and indexes it.
func TestAuditKeepsCostlySkips(t *testing.T) {
	root := configtest.TempDir(t)
	writeZip(t, filepath.Join(root, "big.docx"), "word/document.xml", `<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>`+strings.Repeat("規程", 30)+`</w:t></w:r></w:p></w:body></w:document>`)
	writeFile(t, root, "a.md", "# 見出し\n有給休暇\n")
	dir := configtest.TempDir(t)

	var mu sync.Mutex
	var decoded []string
	testHookDecode = func(rel string) {
		mu.Lock()
		defer mu.Unlock()
		decoded = append(decoded, rel)
	}
	t.Cleanup(func() { testHookDecode = nil })
	took := func() []string {
		mu.Lock()
		defer mu.Unlock()
		d := decoded
		decoded = nil
		slices.Sort(d)
		return d
	}
	open := func(max int64) *Index {
		o := testOptions(root, dir)
		o.Rules = Rules{MaxExtractedChars: max}
		ix, err := Open(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}

	ix := open(50)
	if st := mustBuild(t, ix, BuildOptions{}); st.Skipped != 1 || st.Added != 1 {
		t.Fatalf("first build: %+v", st)
	}
	if d := took(); !slices.Equal(d, []string{"a.md", "big.docx"}) {
		t.Errorf("the first build decoded %q", d)
	}
	st := mustBuild(t, ix, BuildOptions{Audit: true})
	if d := took(); len(d) != 0 || st.Read != 2 {
		t.Errorf("the audit read %d files and decoded %q, want 2 and none (big.docx is over the same budget)", st.Read, d)
	}
	skips, err := ix.Skipped()
	if err != nil || len(skips) != 1 || !extract.BudgetReason(skips[0].Why) || st.Skipped != 1 {
		t.Errorf("after the audit: %+v, skipped %+v, %v", st, skips, err)
	}
	ix.Close()

	ix = open(1000)
	defer ix.Close()
	if st := mustBuild(t, ix, BuildOptions{}); st.Added != 1 || st.Skipped != 0 {
		t.Errorf("a build under a raised budget: %+v, want big.docx added", st)
	}
	if d := took(); !slices.Equal(d, []string{"big.docx"}) {
		t.Errorf("a build under a raised budget decoded %q, want big.docx", d)
	}
}
