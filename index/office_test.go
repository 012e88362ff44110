package index

import (
	"context"
	"fmt"
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

// TestOfficeFormsFoundByFullText: what offices keep outside a
// document's body is found in both modes, where it stands: the text of an
// Excel shape, a currency cell by its number and as shown (60,000 and
// ¥60,000), a cell's note, PowerPoint speaker notes and a chart's title,
// a Word text box; and the lines cited are the lines ReadFile (lwr read)
// gives.
func TestOfficeFormsFoundByFullText(t *testing.T) {
	root := officeRoot(t)
	rels := `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`
	uri := "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	writeZip(t, filepath.Join(root, "申込書.xlsx"),
		"xl/workbook.xml", `<workbook xmlns:r="r"><sheets><sheet name="申込" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels", rels+`<Relationship Id="rId1" Type="`+uri+`worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
		"xl/worksheets/sheet1.xml", `<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>受講料</t></is></c><c r="B1"><v>1</v></c></row></sheetData></worksheet>`,
		"xl/worksheets/_rels/sheet1.xml.rels", rels+`<Relationship Id="rId1" Type="`+uri+`drawing" Target="../drawings/drawing1.xml"/></Relationships>`,
		"xl/drawings/drawing1.xml", `<xdr:wsDr xmlns:xdr="x" xmlns:a="a"><xdr:oneCellAnchor><xdr:from><xdr:col>3</xdr:col><xdr:row>4</xdr:row></xdr:from>`+
			`<xdr:sp><xdr:txBody><a:p><a:r><a:t>申込締切は開講日の十日前とする</a:t></a:r></a:p></xdr:txBody></xdr:sp></xdr:oneCellAnchor></xdr:wsDr>`)
	writeZip(t, filepath.Join(root, "説明会.pptx"),
		"ppt/presentation.xml", `<p:presentation xmlns:p="p" xmlns:r="r"><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`,
		"ppt/_rels/presentation.xml.rels", rels+`<Relationship Id="rId1" Type="`+uri+`slide" Target="slides/slide1.xml"/></Relationships>`,
		"ppt/slides/slide1.xml", `<p:sld xmlns:p="p" xmlns:a="a"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>説明会の流れ</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`,
		"ppt/slides/_rels/slide1.xml.rels", rels+`<Relationship Id="rId2" Type="`+uri+`notesSlide" Target="../notesSlides/notesSlide1.xml"/></Relationships>`,
		"ppt/notesSlides/notesSlide1.xml", `<p:notes xmlns:p="p" xmlns:a="a"><p:cSld><p:spTree><p:sp><p:nvSpPr><p:nvPr><p:ph type="body"/></p:nvPr></p:nvSpPr>`+
			`<p:txBody><a:p><a:r><a:t>質疑応答では駐車場の場所を案内する</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:notes>`)
	ix := openOffice(t, root, configtest.TempDir(t))
	defer ix.Close()
	mustBuild(t, ix, BuildOptions{})
	for _, c := range []struct{ query, path, where string }{
		{"申込締切", "申込書.xlsx", "シート「申込」 図形"},
		{"60,000", "経費申請.xlsx", "シート「経費申請」 行2"},
		{"¥60,000", "経費申請.xlsx", "シート「経費申請」 行2"},
		{"一泊12,000円×5泊", "経費申請.xlsx", "シート「経費申請」 A2のコメント"},
		{"駐車場の場所", "説明会.pptx", "スライド1 ノート"},
		{"記入例は裏面", "出張申請書.docx", "見出し「第1条（目的）」"},
	} {
		for _, mode := range []Mode{FullText, Ranked} {
			res := find(t, ix, c.query, SearchOptions{Mode: mode, Limit: 10})
			i := slices.IndexFunc(res.Matches, func(m Match) bool { return m.Path == c.path })
			if i < 0 {
				t.Errorf("%s %q: %s not found in %v", mode, c.query, c.path, paths(res))
				continue
			}
			m := res.Matches[i]
			if m.Locator == nil || m.Locator.Label() != c.where {
				t.Errorf("%s %q: %s at %+v, want %s", mode, c.query, c.path, m.Locator, c.where)
			}
			f, err := ReadFile(root, ix.Rules(), c.path)
			if err != nil || m.StartLine < 1 || m.EndLine > len(f.Lines) {
				t.Fatalf("ReadFile %s: %v, or lines %d-%d out of it", c.path, err, m.StartLine, m.EndLine)
			}
			if mode == FullText && !strings.Contains(strings.Join(f.Lines[m.StartLine-1:m.EndLine], "\n"), c.query) {
				t.Errorf("%q: the lines %d-%d cited do not hold it:\n%s", c.query, m.StartLine, m.EndLine, strings.Join(f.Lines, "\n"))
			}
		}
	}
}

// TestFullTextSnippetStaysOnItsSheet: a full-text snippet of a workbook
// holds the lines of one sheet, so that its one label says where all of
// them stand.
func TestFullTextSnippetStaysOnItsSheet(t *testing.T) {
	root := configtest.TempDir(t)
	rels := `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`
	uri := "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	row := func(n int, s string) string {
		return fmt.Sprintf(`<row r="%d"><c r="A%d" t="inlineStr"><is><t>%s</t></is></c></row>`, n, n, s)
	}
	writeZip(t, filepath.Join(root, "台帳.xlsx"),
		"xl/workbook.xml", `<workbook xmlns:r="r"><sheets><sheet name="一月" r:id="rId1"/><sheet name="二月" r:id="rId2"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels", rels+`<Relationship Id="rId1" Type="`+uri+`worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="`+uri+`worksheet" Target="worksheets/sheet2.xml"/></Relationships>`,
		"xl/worksheets/sheet1.xml", `<worksheet><sheetData>`+row(1, "一月の備品")+row(2, "椅子")+row(3, "机")+`</sheetData></worksheet>`,
		"xl/worksheets/sheet2.xml", `<worksheet><sheetData>`+row(1, "二月の備品")+row(2, "プロジェクター")+row(3, "棚")+`</sheetData></worksheet>`)
	ix := openOffice(t, root, configtest.TempDir(t))
	defer ix.Close()
	mustBuild(t, ix, BuildOptions{})
	f, err := ReadFile(root, ix.Rules(), "台帳.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	res := find(t, ix, "プロジェクター", SearchOptions{Mode: FullText})
	if len(res.Matches) != 1 {
		t.Fatalf("%d matches", len(res.Matches))
	}
	m := res.Matches[0]
	for n := m.StartLine; n <= m.EndLine; n++ {
		if f.Locators[n-1].Sheet != "二月" {
			t.Errorf("the snippet (lines %d-%d, %s) holds line %d of sheet %s:\n%s", m.StartLine, m.EndLine, m.Locator.Label(), n, f.Locators[n-1].Sheet, m.Snippet)
		}
	}
}
