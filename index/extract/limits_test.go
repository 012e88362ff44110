package extract

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// nestBomb is the Word document a reviewer built to exhaust memory: text
// boxes in text boxes, depth deep, one character of text at each level.
func nestBomb(depth int) string {
	var b strings.Builder
	b.WriteString(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><w:body>`)
	for range depth {
		b.WriteString(`<w:p><w:r><w:t>先</w:t></w:r><w:r><w:drawing><wps:txbx><w:txbxContent>`)
	}
	b.WriteString(`<w:p><w:r><w:t>deep</w:t></w:r></w:p>`)
	for range depth {
		b.WriteString(`</w:txbxContent></wps:txbx></w:drawing></w:r></w:p>`)
	}
	b.WriteString(`</w:body></w:document>`)
	return b.String()
}

// TestNestingBounded: a part that nests elements deeper than office
// programs do (Word's text boxes, PowerPoint's groups, any element of a
// sheet or a chart), or writes more attributes on one element, is refused
// with ErrTooComplex, naming the part; a document nested as deep as real
// ones are (tables in tables in a text box) is read.
func TestNestingBounded(t *testing.T) {
	grp := func(depth int) string {
		return strings.Repeat(`<p:grpSp>`, depth) + `<p:sp><p:txBody><a:p><a:r><a:t>deep</a:t></a:r></a:p></p:txBody></p:sp>` + strings.Repeat(`</p:grpSp>`, depth)
	}
	attrs := `<w:document xmlns:w="w"><w:body><w:p` + strings.Repeat(` w:a=""`, maxAttrs+1) + `><w:r><w:t>x</w:t></w:r></w:p></w:body></w:document>`
	for _, c := range []struct {
		name, part string
		data       []byte
	}{
		{"nest.docx", "word/document.xml", officeZip(t, "word/document.xml", nestBomb(maxDepth))},
		{"groups.pptx", "ppt/slides/slide1.xml", pptxDeck(t, []string{grp(maxDepth)})},
		{"deep.xlsx", "xl/worksheets/sheet1.xml", workbook(t, "", "", [][3]string{{"S", "", strings.Repeat("<x>", maxDepth) + strings.Repeat("</x>", maxDepth)}})},
		{"attrs.docx", "word/document.xml", officeZip(t, "word/document.xml", attrs)},
	} {
		_, err := Extract(context.Background(), c.name, "", c.data, Options{})
		if !errors.Is(err, ErrTooComplex) || !strings.Contains(err.Error(), c.part) || !strings.Contains(err.Error(), "save it again") {
			t.Errorf("%s: %v, want ErrTooComplex naming %s", c.name, err, c.part)
		}
	}
	// Real depth: a table in a table in a text box, groups in groups.
	cell := func(s string) string { return `<w:tc><w:p><w:r><w:t>` + s + `</w:t></w:r></w:p></w:tc>` }
	inner := `<w:tbl><w:tr>` + cell("内側") + `</w:tr></w:tbl>`
	doc := `<w:document ` + wordNS + `><w:body><w:p><w:r><w:t>前</w:t></w:r>` +
		strings.Replace(textBox("枠"), `<w:p><w:pPr><w:jc w:val="left"/></w:pPr><w:r><w:t>枠</w:t></w:r></w:p>`,
			`<w:tbl><w:tr><w:tc>`+inner+`</w:tc>`+cell("外側")+`</w:tr></w:tbl>`, 2) + `</w:p></w:body></w:document>`
	txt := extractBytes(t, "ok.docx", officeZip(t, "word/document.xml", nestBomb(40)), Options{})
	if count(txt, "deep") != 1 || count(txt, "先") != 40 {
		t.Errorf("a document 40 text boxes deep:\n%s", txt)
	}
	txt = extractBytes(t, "tables.docx", officeZip(t, "word/document.xml", doc), Options{})
	if want := "内側\t外側"; !strings.Contains(txt.String(), want) {
		t.Errorf("no %q in a table in a table in a text box:\n%s", want, txt)
	}
	txt = extractBytes(t, "groups.pptx", pptxDeck(t, []string{grp(60)}), Options{})
	if count(txt, "deep") != 1 {
		t.Errorf("a slide of groups 60 deep:\n%s", txt)
	}
}

// TestNestBombMemory: the reviewer's document, 540,000 text boxes deep in
// a document.xml of 63 MiB (a docx of some 200 KB), is refused having
// allocated little more than the part's bytes; reading it took gigabytes.
func TestNestBombMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 63 MiB part")
	}
	data := officeZip(t, "word/document.xml", nestBomb(540000))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Extract(context.Background(), "nest-bomb.docx", "", data, Options{})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooComplex) {
		t.Errorf("the nest bomb: %v, want ErrTooComplex", err)
	}
	if took := after.TotalAlloc - before.TotalAlloc; took > 200<<20 {
		t.Errorf("reading the nest bomb allocated %d MiB, want less than 200 (its part is 63 MiB)", took>>20)
	}
}

// TestLinesBounded: a part of empty paragraphs, line breaks, rows or
// cells — nothing against the characters' budget, but a line (or a cell)
// each — is refused past the lines' bound (one line for every linesPer
// characters of the budget), saying so.
func TestLinesBounded(t *testing.T) {
	const max = 16 * 1000 // 1,000 lines and minLines
	n := int(maxLines(max)) + 1
	var rows strings.Builder
	for i := range n {
		rows.WriteString(`<row r="` + strconv.Itoa(i+1) + `"><c t="inlineStr"><is><t>1</t></is></c></row>`)
	}
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"paragraphs.docx", officeZip(t, "word/document.xml", `<w:document xmlns:w="w"><w:body>`+strings.Repeat(`<w:p/>`, n)+`</w:body></w:document>`)},
		{"breaks.docx", officeZip(t, "word/document.xml", `<w:document xmlns:w="w"><w:body><w:p><w:r>`+strings.Repeat(`<w:br/>`, n)+`</w:r></w:p></w:body></w:document>`)},
		{"breaks.pptx", pptxDeck(t, []string{`<p:sp><p:txBody><a:p>` + strings.Repeat(`<a:br/>`, n) + `</a:p></p:txBody></p:sp>`})},
		{"rows.xlsx", workbook(t, "", "", [][3]string{{"S", "", rows.String()}})},
	} {
		_, err := Extract(context.Background(), c.name, "", c.data, Options{MaxText: max})
		if !errors.Is(err, ErrTooMuchText) || !strings.Contains(err.Error(), "lines of text") || !strings.Contains(err.Error(), "raise that setting") {
			t.Errorf("%s: %v, want ErrTooMuchText for its lines", c.name, err)
		}
	}
	// The empty cells between two cells cost their tabs (A1 and XFD1:
	// 16,383), before the row's line is made.
	var wide strings.Builder
	for i := range 2000 {
		r := strconv.Itoa(i + 1)
		wide.WriteString(`<row r="` + r + `"><c r="A` + r + `"><v>1</v></c><c r="XFD` + r + `"><v>2</v></c></row>`)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Extract(context.Background(), "tabs.xlsx", "", workbook(t, "", "", [][3]string{{"S", "", wide.String()}}), Options{MaxText: 1 << 20})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooMuchText) || after.TotalAlloc-before.TotalAlloc > 16<<20 {
		t.Errorf("2,000 rows of 16,384 columns under a budget of 1 Mi characters: %v, %d MiB allocated", err, (after.TotalAlloc-before.TotalAlloc)>>20)
	}
	// Empty cells cost their tabs: a row of more empty cells than the
	// budget's characters is refused.
	cells := officeZip(t, "word/document.xml", `<w:document xmlns:w="w"><w:body><w:tbl><w:tr>`+strings.Repeat(`<w:tc/>`, max+1)+`</w:tr></w:tbl></w:body></w:document>`)
	if _, err := Extract(context.Background(), "cells.docx", "", cells, Options{MaxText: max}); !errors.Is(err, ErrTooMuchText) {
		t.Errorf("a row of %d empty cells under a budget of %d: %v", max+1, max, err)
	}
	// Within the bound.
	ok := officeZip(t, "word/document.xml", `<w:document xmlns:w="w"><w:body>`+strings.Repeat(`<w:p><w:r><w:t>a</w:t></w:r></w:p>`, n-2)+`</w:body></w:document>`)
	if txt, err := Extract(context.Background(), "ok.docx", "", ok, Options{MaxText: max}); err != nil || len(txt.Lines) != n-2 {
		t.Errorf("%d lines under a bound of %d: %v", n-2, n-1, err)
	}
}

// TestSizesReadAsPeopleRead: the refusals say sizes in units and counts
// with separators, and what to change.
func TestSizesReadAsPeopleRead(t *testing.T) {
	for n, want := range map[int64]string{
		512: "512 bytes", 900 << 10: "900 KiB", 16 << 20: "16 MiB", 600000912: "572 MiB", 3 << 29: "1.5 GiB", 64<<20 + 1: "64 MiB",
	} {
		if got := size(n); got != want {
			t.Errorf("size(%d) = %q, want %q", n, got, want)
		}
	}
	if got := TooMuchText(16 << 20).Error(); !strings.Contains(got, "more than 16,777,216 characters") || !strings.Contains(got, "raise that setting") {
		t.Errorf("TooMuchText: %s", got)
	}
	big := officeZip(t, "word/document.xml", `<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>`+strings.Repeat("a", 3<<20)+`</w:t></w:r></w:p></w:body></w:document>`)
	_, err := Extract(context.Background(), "big.docx", "", big, Options{MaxUnpacked: 2 << 20})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "unpacks to 3 MiB, more than the 2 MiB") || !strings.Contains(err.Error(), "split it") {
		t.Errorf("a docx of 3 MiB unpacked under a bound of 2 MiB: %v", err)
	}
}
