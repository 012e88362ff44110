package index

import (
	"path/filepath"
	"testing"

	"lwr/config/configtest"
	"lwr/index/extract"
)

// TestSnippetStaysInItsPlace: in both modes, a snippet of a PDF or Office
// document is cut within one place (page, sheet, slide, heading or part):
// the one that holds the most of the query's words, the first of a tie,
// a justified heading (雑　　則) and a word wrapped over a line break
// found there too. Its label, the place of its first line holding a
// word, is every line's: a heading's snippet does not show the article
// before it, a slide's does not show its notes.
func TestSnippetStaysInItsPlace(t *testing.T) {
	root := configtest.TempDir(t)
	p := func(s string) string { return `<w:p><w:r><w:t>` + s + `</w:t></w:r></w:p>` }
	writeZip(t, filepath.Join(root, "kitei.docx"), "word/document.xml", `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`+
		p("第２章　旅　　費")+p("第5条（交通費）")+p("交通費は、最も経済的な経路により計算した実費を支給する。")+p("新幹線の利用は片道100km以上の場合に限る。")+
		p("第３章　雑　　則")+p("第6条（改廃）")+p("この規程の改廃は、取締役会の決議による。")+`</w:body></w:document>`)
	ns := `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`
	sp := func(s string) string {
		return `<p:sp><p:txBody><a:p><a:r><a:t>` + s + `</a:t></a:r></a:p></p:txBody></p:sp>`
	}
	rel := func(typ, target string) string {
		return `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/` + typ + `" Target="` + target + `"/></Relationships>`
	}
	writeZip(t, filepath.Join(root, "kenshu.pptx"),
		"ppt/presentation.xml", `<p:presentation `+ns+`><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`,
		"ppt/_rels/presentation.xml.rels", rel("slide", "slides/slide1.xml"),
		"ppt/slides/slide1.xml", `<p:sld `+ns+`><p:cSld><p:spTree>`+sp("新入社員研修　経費精算の基本")+sp("経理部　2025年4月")+`</p:spTree></p:cSld></p:sld>`,
		"ppt/slides/_rels/slide1.xml.rels", rel("notesSlide", "../notesSlides/notesSlide1.xml"),
		"ppt/notesSlides/notesSlide1.xml", `<p:notes `+ns+`><p:cSld><p:spTree>`+sp("講師メモ：最初に自己紹介をして、研修の所要時間（90分）を伝える。")+`</p:spTree></p:cSld></p:notes>`)
	ix := openOffice(t, root, configtest.TempDir(t))
	defer ix.Close()
	mustBuild(t, ix, BuildOptions{})

	place := func(l extract.Locator) extract.Locator { l.Row = 0; return l }
	for _, c := range []struct {
		query, path string
		mode        Mode
		label       string
		from, to    int
	}{
		{"雑則", "kitei.docx", FullText, "見出し「第３章　雑　　則」", 5, 5},
		{"第２章旅費", "kitei.docx", FullText, "見出し「第２章　旅　　費」", 1, 1},
		{"講師メモ", "kenshu.pptx", Ranked, "スライド1 ノート", 3, 3},
		{"講師メモ", "kenshu.pptx", FullText, "スライド1 ノート", 3, 3},
		{"研修 所要時間", "kenshu.pptx", Ranked, "スライド1 ノート", 3, 3},
		{"新入社員研修 経理部", "kenshu.pptx", Ranked, "スライド1", 1, 2},
		{"改廃 取締役会", "kitei.docx", Ranked, "見出し「第6条（改廃）」", 6, 7},
	} {
		res := find(t, ix, c.query, SearchOptions{Mode: c.mode, Limit: 10})
		found := false
		for _, m := range res.Matches {
			f, err := ReadFile(root, ix.Rules(), m.Path)
			if err != nil {
				t.Fatal(err)
			}
			if m.Locator == nil {
				t.Errorf("%s (%v): %s has no locator", c.query, c.mode, m.Path)
				continue
			}
			for n := m.StartLine; n <= m.EndLine; n++ {
				if place(f.Locators[n-1]) != place(*m.Locator) {
					t.Errorf("%s (%v): %s:%d-%d is labelled %s, but line %d is at %s", c.query, c.mode, m.Path, m.StartLine, m.EndLine, m.Locator.Label(), n, f.Locators[n-1].Label())
				}
			}
			if m.Path != c.path {
				continue
			}
			found = true
			if m.Locator.Label() != c.label || m.StartLine != c.from || m.EndLine != c.to {
				t.Errorf("%s (%v): %s:%d-%d %s, want %d-%d %s", c.query, c.mode, m.Path, m.StartLine, m.EndLine, m.Locator.Label(), c.from, c.to, c.label)
			}
		}
		if !found {
			t.Errorf("%s (%v): %s is not found: %v", c.query, c.mode, c.path, paths(res))
		}
	}
}
