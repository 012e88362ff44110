package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"lwr/config/configtest"
)

// officeZip writes an Office file's parts (name, content pairs) as the
// zip it is.
func officeZip(t testing.TB, parts ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for i := 0; i+1 < len(parts); i += 2 {
		w, err := z.Create(parts[i])
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(parts[i+1]))
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func extractBytes(t testing.TB, name string, data []byte, opts Options) *Text {
	t.Helper()
	txt, err := Extract(context.Background(), name, "", data, opts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(txt.Lines) != len(txt.Locators) {
		t.Fatalf("%s: %d lines, %d locators", name, len(txt.Lines), len(txt.Locators))
	}
	return txt
}

// count is how many lines hold s.
func count(txt *Text, s string) int {
	n := 0
	for _, l := range txt.Lines {
		n += strings.Count(l, s)
	}
	return n
}

const (
	wordNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ` +
		`xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" ` +
		`xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ` +
		`xmlns:v="urn:schemas-microsoft-com:vml" mc:Ignorable="w14"`
	relsNS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`
	relURI = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
)

// textBox is a text box as Word writes it: the DrawingML shape, and the
// VML one for older versions as the fallback.
func textBox(text string) string {
	body := `<w:txbxContent><w:p><w:pPr><w:jc w:val="left"/></w:pPr><w:r><w:t>` + text + `</w:t></w:r></w:p></w:txbxContent>`
	return `<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor distT="0" distB="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">` +
		`<wp:docPr id="1" name="テキスト ボックス 1"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">` +
		`<wps:wsp><wps:spPr/><wps:txbx>` + body + `</wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>` +
		`<mc:Fallback><w:pict><v:shape id="テキスト ボックス 1" style="position:absolute"><v:textbox>` + body + `</v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>`
}

// TestDocxTextBoxInPlace: a text box's text is read once (the
// mc:AlternateContent's choice, not its fallback too), where the box
// stands, and the text of its paragraph before the box is kept.
func TestDocxTextBoxInPlace(t *testing.T) {
	doc := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ` + wordNS + `><w:body>` +
		`<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="840"/></w:tabs></w:pPr><w:r><w:t>申請者は、</w:t></w:r>` + textBox("枠内の注意事項を読むこと") +
		`<w:r><w:t>所定の様式で届け出る。</w:t></w:r></w:p>` +
		`<w:p><w:r><w:t>次の段落。</w:t></w:r></w:p></w:body></w:document>`
	txt := extractBytes(t, "form.docx", officeZip(t, "word/document.xml", doc), Options{})
	want := []string{"申請者は、", "枠内の注意事項を読むこと", "所定の様式で届け出る。", "次の段落。"}
	if !slices.Equal(txt.Lines, want) {
		t.Errorf("lines %q, want %q", txt.Lines, want)
	}
}

// TestDocxParts: headers, footers, footnotes and comments are read, each
// line located by its part, after the body; the footnote separators are
// not text; a header used by several sections is read once.
func TestDocxParts(t *testing.T) {
	doc := `<w:document ` + wordNS + `><w:body>` +
		`<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>第2条 休日</w:t></w:r></w:p>` +
		`<w:p><w:r><w:t>休日は土曜日とする</w:t></w:r><w:r><w:footnoteReference w:id="5"/></w:r><w:r><w:t>。</w:t></w:r><w:commentRangeStart w:id="0"/><w:r><w:commentReference w:id="0"/></w:r></w:p>` +
		`<w:sectPr><w:headerReference w:type="default" r:id="rId8"/><w:headerReference w:type="first" r:id="rId9"/><w:footerReference w:type="default" r:id="rId10"/></w:sectPr></w:body></w:document>`
	rels := relsNS +
		`<Relationship Id="rId8" Type="` + relURI + `header" Target="header1.xml"/>` +
		`<Relationship Id="rId9" Type="` + relURI + `header" Target="header2.xml"/>` +
		`<Relationship Id="rId10" Type="` + relURI + `footer" Target="footer1.xml"/>` +
		`<Relationship Id="rId11" Type="` + relURI + `hyperlink" Target="https://example.com/" TargetMode="External"/></Relationships>`
	header := `<w:hdr ` + wordNS + `><w:p><w:r><w:t>社外秘　就業規則</w:t></w:r></w:p></w:hdr>`
	footer := `<w:ftr ` + wordNS + `><w:p><w:r><w:t>株式会社サンプル</w:t></w:r></w:p></w:ftr>`
	notes := `<w:footnotes ` + wordNS + `><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>` +
		`<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>` +
		`<w:footnote w:id="5"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> 祝日を含む。</w:t></w:r></w:p></w:footnote></w:footnotes>`
	comments := `<w:comments ` + wordNS + `><w:comment w:id="0" w:author="人事部"><w:p><w:r><w:t>日曜日も加えるか検討</w:t></w:r></w:p></w:comment></w:comments>`
	txt := extractBytes(t, "rules.docx", officeZip(t, "word/document.xml", doc, "word/_rels/document.xml.rels", rels,
		"word/header1.xml", header, "word/header2.xml", header, "word/footer1.xml", footer,
		"word/footnotes.xml", notes, "word/comments.xml", comments), Options{})
	for s, want := range map[string]string{
		"休日は土曜日とする。": "見出し「第2条 休日」", "社外秘": "ヘッダー", "株式会社サンプル": "フッター",
		"祝日を含む。": "脚注1", "日曜日も加えるか検討": "コメント1",
	} {
		if got := lineOf(t, txt, s).Label(); got != want {
			t.Errorf("%s is at %q, want %q", s, got, want)
		}
	}
	if n := count(txt, "社外秘"); n != 1 {
		t.Errorf("the header is read %d times, want once:\n%s", n, txt)
	}
	if txt.Lines[0] != "第2条 休日" {
		t.Errorf("the body does not come first:\n%s", txt)
	}
}

// TestDocxHeadingFromText: in a document without heading styles, the
// paragraphs that read as headings locate the lines after them.
func TestDocxHeadingFromText(t *testing.T) {
	p := func(s string) string { return `<w:p><w:r><w:t>` + s + `</w:t></w:r></w:p>` }
	doc := `<w:document ` + wordNS + `><w:body>` + p("就業規則") + p("第1章　総則") + p("この章は総則を定める。") +
		p("第1条（目的）この規則は、従業員の労働条件を定める。") + p("第5条の規定にかかわらず、会社は別に定める。") +
		p("第2条 この規則は全員に適用する。") + p("1.2 適用範囲") + p("パートタイマーにも適用する。") +
		`<w:tbl><w:tr><w:tc>` + p("1 式") + `</w:tc><w:tc>` + p("第3条 欄") + `</w:tc></w:tr></w:tbl>` + p("表の後の段落。") +
		p("（休日）") + p("第3条　休日は土曜日とする。") + p("日曜日も休日とする。") + p("２．賃金") + p("賃金の定め。") + p("1.5倍とする") + `</w:body></w:document>`
	txt := extractBytes(t, "plain.docx", officeZip(t, "word/document.xml", doc), Options{})
	for s, want := range map[string]string{
		"就業規則": "", "この章は総則を定める。": "第1章　総則", "従業員の労働条件": "第1条（目的）",
		"第5条の規定にかかわらず": "第1条（目的）", "全員に適用する": "第2条", "パートタイマー": "1.2 適用範囲",
		"表の後の段落": "1.2 適用範囲", "（休日）": "第3条（休日）", "休日は土曜日": "第3条（休日）", "日曜日も": "第3条（休日）",
		"賃金の定め": "２．賃金", "1.5倍とする": "２．賃金",
	} {
		if got := lineOf(t, txt, s).Heading; got != want {
			t.Errorf("%s is under %q, want %q", s, got, want)
		}
	}
	// A document with heading styles is located by them, and by the
	// articles typed in its body style (not by numbered titles: 1.2 …).
	styled := `<w:document ` + wordNS + `><w:body><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>総則</w:t></w:r></w:p>` +
		p("1.2 適用範囲") + p("全員に適用する。") + p("第1条（目的）この規則は定める。") + `</w:body></w:document>`
	txt = extractBytes(t, "styled.docx", officeZip(t, "word/document.xml", styled), Options{})
	for s, want := range map[string]string{"全員に適用する": "総則", "この規則は定める": "第1条（目的）"} {
		if got := lineOf(t, txt, s).Heading; got != want {
			t.Errorf("in a styled document, %s is under %q, want %q", s, got, want)
		}
	}
}

const (
	sheetNS = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	xdrNS   = `xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"`
)

// workbook is an xlsx of sheets (name, state, sheet XML), with styles and
// shared strings, and more parts after them.
func workbook(t testing.TB, styles, shared string, sheets [][3]string, more ...string) []byte {
	t.Helper()
	wb := `<workbook ` + sheetNS + `><sheets>`
	rels := relsNS
	var parts []string
	for i, s := range sheets {
		state := ""
		if s[1] != "" {
			state = ` state="` + s[1] + `"`
		}
		wb += fmt.Sprintf(`<sheet name="%s" sheetId="%d"%s r:id="rId%d"/>`, s[0], i+1, state, i+1)
		rels += fmt.Sprintf(`<Relationship Id="rId%d" Type="%sworksheet" Target="worksheets/sheet%d.xml"/>`, i+1, relURI, i+1)
		parts = append(parts, fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1), `<worksheet `+sheetNS+`><sheetData>`+s[2]+`</sheetData></worksheet>`)
	}
	wb += `</sheets></workbook>`
	parts = append(parts, "xl/workbook.xml", wb, "xl/_rels/workbook.xml.rels", rels+`</Relationships>`)
	if styles != "" {
		parts = append(parts, "xl/styles.xml", `<styleSheet `+sheetNS+`>`+styles+`</styleSheet>`)
	}
	if shared != "" {
		parts = append(parts, "xl/sharedStrings.xml", `<sst `+sheetNS+`>`+shared+`</sst>`)
	}
	return officeZip(t, append(parts, more...)...)
}

// TestXlsxFormsAndFormats: a row keeps its columns (an empty cell is an
// empty field); numbers show as their formats (currency, thousands,
// percent, Japanese dates); a formula without a kept value shows its
// formula; the shapes, comments and notes of a sheet are read; a hidden
// sheet is labelled as hidden.
func TestXlsxFormsAndFormats(t *testing.T) {
	styles := `<numFmts count="2"><numFmt numFmtId="176" formatCode="&quot;¥&quot;#,##0"/><numFmt numFmtId="177" formatCode="[$-411]ggge&quot;年&quot;m&quot;月&quot;d&quot;日&quot;"/></numFmts>` +
		`<cellXfs count="6"><xf numFmtId="0"/><xf numFmtId="176"/><xf numFmtId="3"/><xf numFmtId="9"/><xf numFmtId="177"/><xf numFmtId="14"/></cellXfs>`
	shared := `<si><t>品目</t></si><si><t>単価</t></si><si><t>数量</t></si><si><t>金額</t></si><si><t>トナー</t></si><si><t>作業用</t></si>`
	main := `<row r="2"><c r="B2" t="s"><v>0</v></c><c r="C2" t="s"><v>1</v></c><c r="D2" t="s"><v>2</v></c><c r="E2" t="s"><v>3</v></c></row>` +
		`<row r="3"><c r="B3" t="s"><v>4</v></c><c r="C3" s="1"><v>60000</v></c><c r="D3"/><c r="E3" s="2"><v>1234567</v></c><c r="F3"><f>SUM(C3:E3)</f></c></row>` +
		`<row r="4"><c r="B4" s="3"><v>0.125</v></c><c r="C4" s="4"><v>46113</v></c><c r="D4" s="5"><v>46113</v></c></row>`
	sheetRels := relsNS + `<Relationship Id="rId1" Type="` + relURI + `drawing" Target="../drawings/drawing1.xml"/>` +
		`<Relationship Id="rId2" Type="` + relURI + `comments" Target="../comments1.xml"/>` +
		`<Relationship Id="rId3" Type="http://schemas.microsoft.com/office/2017/10/relationships/threadedComment" Target="../threadedComments/threadedComment1.xml"/></Relationships>`
	drawing := `<xdr:wsDr ` + xdrNS + `><xdr:twoCellAnchor><xdr:from><xdr:col>7</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>1</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>` +
		`<xdr:to><xdr:col>12</xdr:col><xdr:row>8</xdr:row></xdr:to><xdr:sp macro="" textlink=""><xdr:nvSpPr><xdr:cNvPr id="2" name="テキスト ボックス 1"/><xdr:cNvSpPr txBox="1"/></xdr:nvSpPr>` +
		`<xdr:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="ja-JP"/><a:t>記入上の注意：</a:t></a:r></a:p><a:p><a:r><a:t>金額は税込みで記入すること。</a:t></a:r></a:p></xdr:txBody></xdr:sp><xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>`
	notes := `<comments ` + sheetNS + `><authors><author>総務</author></authors><commentList>` +
		`<comment ref="C3" authorId="0"><text><r><rPr><b/></rPr><t>総務:</t></r><r><t xml:space="preserve">
単価は改定前の値</t></r></text></comment>` +
		`<comment ref="E3" authorId="0"><text><t>[Threaded comment]

Your version of Excel allows you to read this threaded comment; however, any edits to it will get removed if the file is opened in a newer version of Excel. Learn more: https://go.microsoft.com/fwlink/?linkid=870924

Comment:
    合計を確認してください</t></text></comment></commentList></comments>`
	threaded := `<ThreadedComments xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments"><threadedComment ref="E3" dT="2026-04-01T09:00:00.00" personId="{1}" id="{2}"><text>合計を確認してください</text></threadedComment></ThreadedComments>`
	data := workbook(t, styles, shared, [][3]string{
		{"申請書", "", main},
		{"作業用", "hidden", `<row r="1"><c r="A1" t="s"><v>5</v></c></row>`},
	}, "xl/worksheets/_rels/sheet1.xml.rels", sheetRels, "xl/drawings/drawing1.xml", drawing,
		"xl/comments1.xml", notes, "xl/threadedComments/threadedComment1.xml", threaded)
	txt := extractBytes(t, "form.xlsx", data, Options{})
	for _, want := range []string{"品目\t単価\t数量\t金額", "トナー\t¥60,000\t\t1,234,567\t=SUM(C3:E3)", "13%\t令和8年4月1日\t2026/4/1"} {
		if !slices.Contains(txt.Lines, want) {
			t.Errorf("no line %q in\n%s", want, txt)
		}
	}
	for s, want := range map[string]string{
		"記入上の注意": "シート「申請書」 図形", "金額は税込み": "シート「申請書」 図形",
		"単価は改定前の値": "シート「申請書」 C3のコメント", "合計を確認してください": "シート「申請書」 E3のコメント",
		"作業用": "シート「作業用」(非表示) 行1",
	} {
		if got := lineOf(t, txt, s).Label(); got != want {
			t.Errorf("%s is at %q, want %q", s, got, want)
		}
	}
	if at := lineOf(t, txt, "記入上の注意"); at.Row != 2 {
		t.Errorf("the shape is anchored at row %d, want 2", at.Row)
	}
	if n := count(txt, "合計を確認してください"); n != 1 {
		t.Errorf("the threaded comment is read %d times, want once (its note for older Excel is the same text)", n)
	}
	if n := count(txt, "Threaded comment"); n != 0 {
		t.Errorf("the note Excel keeps for older versions is read:\n%s", txt)
	}
}

// TestXlsxNumbers: numbers and dates out of Excel's range, rows without
// a usable number, and the formats' parts.
func TestXlsxNumbers(t *testing.T) {
	styles := `<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs>`
	rows := `<row r="0"><c t="inlineStr"><is><t>ゼロ行</t></is></c></row>` +
		`<row><c r="A2" s="1"><v>1e300</v></c><c r="B2" s="1"><v>NaN</v></c><c r="C2"><v>1e308</v></c><c r="D2"><v>-2.5e-12</v></c><c r="E2" s="1"><v>-1</v></c></row>`
	txt := extractBytes(t, "n.xlsx", workbook(t, styles, "", [][3]string{{"数値", "", rows}}), Options{})
	if at := lineOf(t, txt, "ゼロ行"); at.Row != 1 || at.Label() != "シート「数値」 行1" {
		t.Errorf(`the row r="0" is at %+v (%s)`, at, at.Label())
	}
	if want := "1E+300\tNaN\t1E+308\t-2.5E-12\t-1"; !slices.Contains(txt.Lines, want) {
		t.Errorf("no line %q in\n%s", want, txt)
	}
	if strings.Contains(txt.String(), "1899") {
		t.Errorf("a date out of range shows as 1899:\n%s", txt)
	}
	for _, c := range []struct {
		v    float64
		code string
		want string
	}{
		{60000, `"¥"#,##0`, "¥60,000"}, {-60000, builtinFormats[6], "¥-60,000"}, {60000, builtinFormats[42], "¥60,000"},
		{1234.5, "#,##0.00", "1,234.50"}, {1.005, "0.00", "1.01"}, {0.125, "0%", "13%"}, {999.5, "#,##0", "1,000"}, {0.256, "0.0%", "25.6%"}, {1234567, "#,##0,", "1,235"},
		{1500, `#,##0"円"`, "1,500円"}, {1000123, "000-0000", "100-0123"}, {12345.678, "0.00E+00", "1.23E+04"},
		{1.5, "# ?/?", "1 1/2"}, {-5, "0;(0)", "(5)"}, {0, `0;-0;"-"`, "-"}, {150, "[>=100]0;0.0", "150"},
		{46113, `yyyy"年"m"月"d"日"(aaa)`, "2026年4月1日(水)"}, {46113, "[$-411]ge.m.d", "R8.4.1"},
		{32516, `[$-411]ggge"年"`, "平成1年"}, {46113.5625, "yyyy/m/d h:mm", "2026/4/1 13:30"},
		{0.75, "h:mm AM/PM", "6:00 PM"}, {1.5, "[h]:mm", "36:00"}, {46113, "mmm d, yyyy", "Apr 1, 2026"},
		{61, "yyyy-mm-dd", "1900-03-01"}, {1, "yyyy-mm-dd", "1900-01-01"}, {60, "yyyy-mm-dd", "1900-02-29"},
		{1e300, "yyyy-mm-dd", "1E+300"}, {-3, "yyyy-mm-dd", "-3"}, {123.456, "General", "123.456"},
	} {
		if got := formatNumber(c.v, c.code, false); got != c.want {
			t.Errorf("formatNumber(%v, %q) = %q, want %q", c.v, c.code, got, c.want)
		}
	}
}

// pptxDeck is a deck of slides (each with its relationships' parts) in
// the order given.
func pptxDeck(t testing.TB, slides []string, more ...string) []byte {
	t.Helper()
	ns := `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`
	pres := `<p:presentation ` + ns + `><p:sldIdLst>`
	rels := relsNS
	parts := []string{}
	for i, s := range slides {
		pres += fmt.Sprintf(`<p:sldId id="%d" r:id="rId%d"/>`, 256+i, i+1)
		rels += fmt.Sprintf(`<Relationship Id="rId%d" Type="%sslide" Target="slides/slide%d.xml"/>`, i+1, relURI, i+1)
		parts = append(parts, fmt.Sprintf("ppt/slides/slide%d.xml", i+1), `<p:sld `+ns+`><p:cSld><p:spTree>`+s+`</p:spTree></p:cSld></p:sld>`)
	}
	parts = append(parts, "ppt/presentation.xml", pres+`</p:sldIdLst></p:presentation>`, "ppt/_rels/presentation.xml.rels", rels+`</Relationships>`)
	return officeZip(t, append(parts, more...)...)
}

// TestPptxNotesChartsTables: a slide's speaker notes (without the
// notes page's slide number), its chart's title and labels, and its
// table's rows as lines of cells.
func TestPptxNotesChartsTables(t *testing.T) {
	ns := `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`
	sp := func(s string) string {
		return `<p:sp><p:txBody><a:p><a:r><a:t>` + s + `</a:t></a:r></a:p></p:txBody></p:sp>`
	}
	table := `<p:graphicFrame><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl>` +
		`<a:tr h="1"><a:tc><a:txBody><a:p><a:r><a:t>区分</a:t></a:r></a:p></a:txBody></a:tc><a:tc><a:txBody><a:p><a:r><a:t>上限</a:t></a:r></a:p></a:txBody></a:tc></a:tr>` +
		`<a:tr h="1"><a:tc><a:txBody><a:p><a:r><a:t>宿泊</a:t></a:r></a:p></a:txBody></a:tc><a:tc><a:txBody><a:p><a:r><a:t>12,000円</a:t></a:r></a:p></a:txBody></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`
	chartFrame := `<p:graphicFrame><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rId3"/></a:graphicData></a:graphic></p:graphicFrame>`
	slideRels := relsNS + `<Relationship Id="rId2" Type="` + relURI + `notesSlide" Target="../notesSlides/notesSlide1.xml"/>` +
		`<Relationship Id="rId3" Type="` + relURI + `chart" Target="../charts/chart1.xml"/></Relationships>`
	notes := `<p:notes ` + ns + `><p:cSld><p:spTree>` +
		`<p:sp><p:nvSpPr><p:cNvPr id="2" name="スライド イメージ プレースホルダー 1"/><p:cNvSpPr/><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp>` +
		`<p:sp><p:nvSpPr><p:cNvPr id="3" name="ノート プレースホルダー 2"/><p:cNvSpPr/><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>ここで領収書の原本が必要なことを強調する。</a:t></a:r></a:p></p:txBody></p:sp>` +
		`<p:sp><p:nvSpPr><p:cNvPr id="4" name="スライド番号プレースホルダー 3"/><p:cNvSpPr/><p:nvPr><p:ph type="sldNum" idx="5"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:fld type="slidenum"><a:t>2</a:t></a:fld></a:p></p:txBody></p:sp>` +
		`</p:spTree></p:cSld></p:notes>`
	chart := `<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart>` +
		`<c:title><c:tx><c:rich><a:p><a:r><a:t>部署別の出張件数</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart>` +
		`<c:ser><c:tx><c:strRef><c:strCache><c:pt idx="0"><c:v>2025年度</c:v></c:pt></c:strCache></c:strRef></c:tx>` +
		`<c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>営業部</c:v></c:pt><c:pt idx="1"><c:v>開発部</c:v></c:pt></c:strCache></c:strRef></c:cat>` +
		`<c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>42</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>` +
		`<c:ser><c:tx><c:v>2026年度</c:v></c:tx><c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>営業部</c:v></c:pt><c:pt idx="1"><c:v>開発部</c:v></c:pt></c:strCache></c:strRef></c:cat></c:ser>` +
		`</c:barChart><c:catAx><c:title><c:tx><c:rich><a:p><a:r><a:t>部署</a:t></a:r></a:p></c:rich></c:tx></c:title></c:catAx></c:plotArea></c:chart></c:chartSpace>`
	data := pptxDeck(t, []string{sp("新人研修"), sp("経費精算") + table + chartFrame},
		"ppt/slides/_rels/slide2.xml.rels", slideRels, "ppt/notesSlides/notesSlide1.xml", notes, "ppt/charts/chart1.xml", chart)
	txt := extractBytes(t, "deck.pptx", data, Options{})
	for s, want := range map[string]string{
		"領収書の原本": "スライド2 ノート", "部署別の出張件数": "スライド2 グラフ", "営業部\t開発部": "スライド2 グラフ",
		"2025年度\t2026年度": "スライド2 グラフ", "宿泊\t12,000円": "スライド2", "部署": "スライド2 グラフ",
	} {
		if got := lineOf(t, txt, s).Label(); got != want {
			t.Errorf("%s is at %q, want %q", s, got, want)
		}
	}
	if !slices.Contains(txt.Lines, "区分\t上限") {
		t.Errorf("the table's header row is not a line:\n%s", txt)
	}
	if slices.Contains(txt.Lines, "2") {
		t.Errorf("the notes page's slide number is read:\n%s", txt)
	}
}

// oleFile is an OLE compound file whose directory holds streams of
// these names (empty streams), in 512-byte sectors: the FAT in sector 0,
// the directory from sector 1.
func oleFile(names ...string) []byte {
	entries := append([]string{"Root Entry"}, names...)
	dirSectors := (len(entries) + 3) / 4
	data := make([]byte, 512*(2+dirSectors))
	copy(data, oleSignature)
	le := binary.LittleEndian
	le.PutUint16(data[24:], 0x3E)
	le.PutUint16(data[26:], 3)
	le.PutUint16(data[28:], 0xFFFE)
	le.PutUint16(data[30:], 9)
	le.PutUint16(data[32:], 6)
	le.PutUint32(data[44:], 1)
	le.PutUint32(data[48:], 1)
	le.PutUint32(data[56:], 4096)
	le.PutUint32(data[60:], 0xFFFFFFFE)
	le.PutUint32(data[68:], 0xFFFFFFFE)
	for i := 0; i < 109; i++ {
		le.PutUint32(data[76+4*i:], 0xFFFFFFFF)
	}
	le.PutUint32(data[76:], 0)
	fat := data[512:1024]
	for i := range 128 {
		le.PutUint32(fat[4*i:], 0xFFFFFFFF)
	}
	le.PutUint32(fat[0:], 0xFFFFFFFD)
	for s := 1; s <= dirSectors; s++ {
		next := uint32(s + 1)
		if s == dirSectors {
			next = 0xFFFFFFFE
		}
		le.PutUint32(fat[4*s:], next)
	}
	for i, n := range entries {
		e := data[1024+128*i:]
		u := utf16.Encode([]rune(n))
		for j, c := range u {
			le.PutUint16(e[2*j:], c)
		}
		le.PutUint16(e[64:], uint16(2*len(u)+2))
		e[66] = 2
		if i == 0 {
			e[66] = 5
		}
	}
	return data
}

// TestOLEFiles: an Office Open XML file in an OLE container is protected
// by a password; an old binary Word file named .docx is an old format;
// another OLE file is neither.
func TestOLEFiles(t *testing.T) {
	for _, c := range []struct {
		name  string
		data  []byte
		want  error
		words string
	}{
		{"secret.xlsx", oleFile("\x06DataSpaces", "EncryptionInfo", "EncryptedPackage"), ErrEncrypted, "password"},
		{"old.docx", oleFile("WordDocument", "1Table", "\x05SummaryInformation"), ErrOldFormat, "Word 97–2003 (.doc) file named .docx; save it as .docx"},
		{"old.xlsx", oleFile("Workbook"), ErrOldFormat, "Excel 97–2003"},
		{"mail.pptx", oleFile("__substg1.0_0037001F"), ErrBroken, "OLE compound file"},
	} {
		_, err := Extract(context.Background(), c.name, "", c.data, Options{})
		if !errors.Is(err, c.want) || !strings.Contains(fmt.Sprint(err), c.words) {
			t.Errorf("%s: %v, want %v saying %q", c.name, err, c.want, c.words)
		}
	}
}

// TestTextBudget: a document that expands far beyond its bytes is
// refused with ErrTooMuchText, whatever is repeated: a shared string
// referenced by every row, a slide listed again and again, one huge
// paragraph. The sentence says how to raise the bound.
func TestTextBudget(t *testing.T) {
	var rows strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&rows, `<row r="%d"><c r="A%d" t="s"><v>0</v></c></row>`, i, i)
	}
	xlsxBomb := workbook(t, "", `<si><t>`+strings.Repeat("単価表", 1<<20/3)+`</t></si>`, [][3]string{{"S", "", rows.String()}})
	var ids strings.Builder
	ids.WriteString(`<p:presentation xmlns:p="p" xmlns:r="r"><p:sldIdLst>`)
	for i := range 200000 {
		fmt.Fprintf(&ids, `<p:sldId id="%d" r:id="rId1"/>`, 256+i)
	}
	ids.WriteString(`</p:sldIdLst></p:presentation>`)
	pptxBomb := officeZip(t, "ppt/presentation.xml", ids.String(),
		"ppt/_rels/presentation.xml.rels", relsNS+`<Relationship Id="rId1" Type="`+relURI+`slide" Target="slides/slide1.xml"/></Relationships>`,
		"ppt/slides/slide1.xml", `<p:sld xmlns:p="p" xmlns:a="a"><p:txBody><a:p><a:r><a:t>`+strings.Repeat("研修", 100)+`</a:t></a:r></a:p></p:txBody></p:sld>`)
	// One paragraph of 3 Mi characters, under a budget of 1 Mi (the
	// default's 16 Mi takes a paragraph of 48 MB).
	docxBomb := officeZip(t, "word/document.xml", `<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>`+strings.Repeat("規程 ", 1<<20)+`</w:t></w:r></w:p></w:body></w:document>`)
	for _, c := range []struct {
		name string
		data []byte
		max  int64
	}{{"shared.xlsx", xlsxBomb, 0}, {"slides.pptx", pptxBomb, 0}, {"paragraph.docx", docxBomb, 1 << 20}} {
		if len(c.data) > 1<<20 {
			t.Errorf("%s is %d bytes: not a small file", c.name, len(c.data))
		}
		_, err := Extract(context.Background(), c.name, "", c.data, Options{MaxText: c.max})
		if !errors.Is(err, ErrTooMuchText) || !strings.Contains(err.Error(), "(index.max_extracted_chars); raise that setting") {
			t.Errorf("%s: %v, want ErrTooMuchText", c.name, err)
		}
	}
	// Under a bound given, and over it by one character.
	doc := officeZip(t, "word/document.xml", `<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>あいう</w:t></w:r></w:p><w:p><w:r><w:t>えお</w:t></w:r></w:p></w:body></w:document>`)
	if _, err := Extract(context.Background(), "ok.docx", "", doc, Options{MaxText: 5}); err != nil {
		t.Errorf("5 characters under a budget of 5: %v", err)
	}
	if _, err := Extract(context.Background(), "over.docx", "", doc, Options{MaxText: 4}); !errors.Is(err, ErrTooMuchText) {
		t.Errorf("5 characters under a budget of 4: %v", err)
	}
}

// TestLongParagraphWrapped: a paragraph longer than a line may be is
// cut into lines after a sentence's end, and no character is lost.
func TestLongParagraphWrapped(t *testing.T) {
	para := strings.Repeat("出張旅費は規程に従って精算する。", 1000)
	doc := officeZip(t, "word/document.xml", `<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>`+para+`</w:t></w:r></w:p></w:body></w:document>`)
	txt := extractBytes(t, "long.docx", doc, Options{})
	if len(txt.Lines) < 4 || strings.Join(txt.Lines, "") != para {
		t.Fatalf("%d lines, joined equal: %v", len(txt.Lines), strings.Join(txt.Lines, "") == para)
	}
	for _, l := range txt.Lines {
		if n := utf8.RuneCountInString(l); n > maxLine || !strings.HasSuffix(l, "。") {
			t.Errorf("a line of %d characters ending %q", n, l[len(l)-6:])
		}
	}
}

// TestCacheRefusesOversizedAndOld: text kept by an older extractor, or
// more than the budget, is not returned.
func TestCacheRefusesOversizedAndOld(t *testing.T) {
	c := Cache{Dir: configtest.TempDir(t), MaxText: 10}
	sum := strings.Repeat("cd", 32)
	c.Put(sum, &Text{Format: "xlsx", Lines: []string{strings.Repeat("あ", 11)}, Locators: []Locator{{}}, Version: Version})
	if _, ok := c.Get(sum); ok {
		t.Error("text over the budget came from the cache")
	}
	c.Put(sum, &Text{Format: "xlsx", Lines: []string{"あ"}, Locators: []Locator{{}}, Version: "1"})
	if _, ok := c.Get(sum); ok {
		t.Error("text of another extractor version came from the cache")
	}
}
