package index

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"lwr/config/configtest"
	"lwr/index/extract"
)

func writeZip(t *testing.T, p string, parts ...string) {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for i := 0; i+1 < len(parts); i += 2 {
		w, _ := z.Create(parts[i])
		w.Write([]byte(parts[i+1]))
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// expandingRoot is a folder with an xlsx whose 200 rows use one 1 MB
// shared string, a pptx that lists one slide 200,000 times, and files
// that read as they are.
func expandingRoot(t *testing.T) string {
	t.Helper()
	root := configtest.TempDir(t)
	var rows strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&rows, `<row r="%d"><c r="A%d" t="s"><v>0</v></c></row>`, i, i)
	}
	writeZip(t, filepath.Join(root, "単価.xlsx"),
		"xl/workbook.xml", `<workbook xmlns:r="r"><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels", `<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>`,
		"xl/sharedStrings.xml", `<sst><si><t>`+strings.Repeat("単価表 ", 1<<20/4)+`</t></si></sst>`,
		"xl/worksheets/sheet1.xml", `<worksheet><sheetData>`+rows.String()+`</sheetData></worksheet>`)
	var ids strings.Builder
	for i := range 200000 {
		fmt.Fprintf(&ids, `<p:sldId id="%d" r:id="rId1"/>`, 256+i)
	}
	writeZip(t, filepath.Join(root, "研修.pptx"),
		"ppt/presentation.xml", `<p:presentation xmlns:p="p" xmlns:r="r"><p:sldIdLst>`+ids.String()+`</p:sldIdLst></p:presentation>`,
		"ppt/_rels/presentation.xml.rels", `<Relationships><Relationship Id="rId1" Target="slides/slide1.xml"/></Relationships>`,
		"ppt/slides/slide1.xml", `<p:sld xmlns:p="p" xmlns:a="a"><p:txBody><a:p><a:r><a:t>`+strings.Repeat("研修資料", 25)+`</a:t></a:r></a:p></p:txBody></p:sld>`)
	writeZip(t, filepath.Join(root, "旅費.docx"),
		"word/document.xml", `<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>宿泊料の上限は一泊12,000円とする。</w:t></w:r></w:p></w:body></w:document>`)
	if err := os.WriteFile(filepath.Join(root, "メモ.md"), []byte("# メモ\n\nトナーの発注は総務課。\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestExpandingFilesSkipped: files of a few kilobytes that make more text
// than the budget are skipped with the reason, their text is not kept in
// the extraction cache, and the rest of the folder is indexed.
func TestExpandingFilesSkipped(t *testing.T) {
	root := expandingRoot(t)
	dir := configtest.TempDir(t)
	ix := openOffice(t, root, dir)
	defer ix.Close()
	st := mustBuild(t, ix, BuildOptions{})
	if st.Added != 2 || st.Skipped != 2 {
		t.Errorf("built %+v, want the docx and the md added, two skipped", st)
	}
	skips, err := ix.Skipped()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"単価.xlsx", "研修.pptx"} {
		i := slices.IndexFunc(skips, func(s Skip) bool { return s.Path == name })
		if i < 0 || !strings.HasPrefix(skips[i].Why, "too much text: ") || !strings.Contains(skips[i].Why, extract.MaxTextSetting) {
			t.Errorf("%s is not skipped for too much text: %+v", name, skips)
		}
	}
	var kept []string
	filepath.Walk(filepath.Join(dir, "extracted"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			kept = append(kept, p)
		}
		return nil
	})
	if len(kept) != 1 {
		t.Errorf("the extraction cache keeps %d texts, want the docx's alone: %v", len(kept), kept)
	}
	for _, q := range []string{"宿泊料", "トナー"} {
		if r := find(t, ix, q, SearchOptions{}); len(r.Matches) == 0 {
			t.Errorf("%s is not found", q)
		}
	}
	// The budget is the rules' (index.max_extracted_chars).
	small := configtest.TempDir(t)
	writeZip(t, filepath.Join(small, "a.docx"), "word/document.xml", `<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>`+strings.Repeat("規程", 30)+`</w:t></w:r></w:p></w:body></w:document>`)
	for _, c := range []struct {
		max     int64
		skipped int
	}{{50, 1}, {60, 0}} {
		o := testOptions(small, configtest.TempDir(t))
		o.Rules = Rules{MaxExtractedChars: c.max}
		ix, err := Open(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if st := mustBuild(t, ix, BuildOptions{}); st.Skipped != c.skipped {
			t.Errorf("60 characters under a budget of %d: %+v", c.max, st)
		}
		ix.Close()
	}
}

// TestBigFileInBatches: a file with more text than a batch holds is
// written over several batches, and indexed as it is in one: the same
// passages and analyzed lengths, searchable from its first line to its
// last.
func TestBigFileInBatches(t *testing.T) {
	root := configtest.TempDir(t)
	var b strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&b, "## 第%d条\n\n第%d条の本文。出張旅費の精算は月末までに行う。\n\n", i+1, i+1)
	}
	b.WriteString("末尾の一行はパスポートの申請について。\n")
	if err := os.WriteFile(filepath.Join(root, "big.md"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	build := func(batch int) (*Index, BuildStats) {
		o := testOptions(root, configtest.TempDir(t))
		o.BatchBytes = batch
		ix, err := Open(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		return ix, mustBuild(t, ix, BuildOptions{})
	}
	small, st := build(64 << 10)
	one, st1 := build(64 << 20)
	if st.Batches < 4 || st1.Batches != 1 {
		t.Errorf("%d batches of 64 KiB (want several), %d of 64 MiB (want one)", st.Batches, st1.Batches)
	}
	a, _ := small.entry("big.md")
	e, _ := one.entry("big.md")
	if !slices.Equal(a.IDs, e.IDs) || !maps.Equal(a.Lengths, e.Lengths) || len(a.Lengths) == 0 {
		t.Errorf("over several batches: %d ids, lengths %v; in one: %d ids, lengths %v", len(a.IDs), a.Lengths, len(e.IDs), e.Lengths)
	}
	for _, q := range []string{"第1条の本文", "パスポート"} {
		if r := find(t, small, q, SearchOptions{}); len(r.Matches) == 0 {
			t.Errorf("%s is not found in the index written over several batches", q)
		}
	}
	// Changed and built again: the old passages all go.
	if err := os.WriteFile(filepath.Join(root, "big.md"), []byte("# 短い\n\n一行だけ。\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustBuild(t, small, BuildOptions{})
	if r := find(t, small, "パスポート", SearchOptions{}); len(r.Matches) != 0 {
		t.Errorf("a passage of the old text is still found: %+v", r.Matches[0])
	}
}

// TestReadAheadBudget: what goroutines take waits while the rest is
// taken, a request over the whole goes alone, and an ended context stops
// the wait.
func TestReadAheadBudget(t *testing.T) {
	b := newBudget(10)
	ctx := context.Background()
	if !b.acquire(ctx, 6) || !b.acquire(ctx, 4) {
		t.Fatal("10 of 10 not taken")
	}
	got := make(chan bool)
	go func() { got <- b.acquire(ctx, 100) }() // over the whole: once all is back
	b.release(6)
	select {
	case <-got:
		t.Fatal("a request over the whole was taken while 4 were out")
	default:
	}
	b.release(4)
	if !<-got {
		t.Fatal("the request over the whole was refused")
	}
	cctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if b.acquire(cctx, 1) {
			t.Error("taken after its context ended, with the whole out")
		}
	}()
	cancel()
	wg.Wait()
	b.release(100)
	if !b.acquire(ctx, 10) {
		t.Error("the whole is not back")
	}
}

// TestInterruptedBuildFindsEveryPassage: after a build killed while it
// wrote a big file (its passages in the index, the manifest not told),
// the next build finds all of them, past the 10,000 of one page, and the
// old text is gone.
func TestInterruptedBuildFindsEveryPassage(t *testing.T) {
	root := configtest.TempDir(t)
	deck := func(slides int, text string) {
		var ids strings.Builder
		for i := range slides {
			fmt.Fprintf(&ids, `<p:sldId id="%d" r:id="rId1"/>`, 256+i)
		}
		writeZip(t, filepath.Join(root, "deck.pptx"),
			"ppt/presentation.xml", `<p:presentation xmlns:p="p" xmlns:r="r"><p:sldIdLst>`+ids.String()+`</p:sldIdLst></p:presentation>`,
			"ppt/_rels/presentation.xml.rels", `<Relationships><Relationship Id="rId1" Target="slides/slide1.xml"/></Relationships>`,
			"ppt/slides/slide1.xml", `<p:sld xmlns:p="p" xmlns:a="a"><p:txBody><a:p><a:r><a:t>`+text+`</a:t></a:r></a:p></p:txBody></p:sld>`)
	}
	deck(10050, "古い研修資料")
	ix := openOffice(t, root, configtest.TempDir(t))
	defer ix.Close()
	if st := mustBuild(t, ix, BuildOptions{}); st.Passages < 10050 {
		t.Fatalf("%d passages, want one a slide", st.Passages)
	}
	// As a build killed after the file's batches, before its manifest
	// entry: the index is building, the manifest knows nothing of it.
	if err := ix.man.apply(nil, []string{"deck.pptx"}); err != nil {
		t.Fatal(err)
	}
	if err := ix.setInternal(map[string]string{keyState: "building"}); err != nil {
		t.Fatal(err)
	}
	deck(3, "新しい研修資料")
	mustBuild(t, ix, BuildOptions{})
	q := bleve.NewTermQuery("deck.pptx")
	q.SetField(fieldPath)
	res, err := ix.b.Search(bleve.NewSearchRequest(q))
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 3 {
		t.Errorf("the index holds %d passages of the deck, want the new deck's 3", res.Total)
	}
}
