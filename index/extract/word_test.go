package extract

import (
	"archive/zip"
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"
)

func wp(s string) string { return `<w:p><w:r><w:t>` + s + `</w:t></w:r></w:p>` }

func wordDoc(body string) string {
	return `<w:document ` + wordNS + `><w:body>` + body + `</w:body></w:document>`
}

// TestDocxTableRows: a table's row is one line of its cells,
// tab-separated, as Excel's and PowerPoint's are, located under the
// heading it stands under; a cell's paragraphs are joined by a space, a
// merged cell (gridSpan) leaves empty fields after it, an empty cell is
// an empty field, and a table in a cell is read in the cell.
func TestDocxTableRows(t *testing.T) {
	tc := func(ps ...string) string {
		var b strings.Builder
		for _, p := range ps {
			b.WriteString(wp(p))
		}
		return `<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>` + b.String() + `</w:tc>`
	}
	tr := func(cells ...string) string { return `<w:tr>` + strings.Join(cells, "") + `</w:tr>` }
	span := `<w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr>` + wp("出張区分") + `</w:tc>`
	nested := `<w:tc><w:tbl>` + tr(tc("日帰り"), tc("1,000円")) + `</w:tbl></w:tc>`
	doc := wordDoc(wp("第4条（宿泊料）") + wp("宿泊料は、1泊につき次の額を上限とする。") +
		`<w:tbl><w:tblPr/>` + tr(tc("区分"), tc("上限額"), tc("備考")) +
		tr(tc("一般従業員"), tc("12,000円"), tc()) +
		tr(tc("課長以上"), tc("15,000円"), tc("役員は", "別に定める")) +
		tr(span, tc("実費")) + tr(tc("日当"), nested, tc()) + `</w:tbl>` +
		wp("第5条（交通費）") + wp("交通費は実費とする。"))
	txt := extractBytes(t, "kitei.docx", officeZip(t, "word/document.xml", doc), Options{})
	want := []string{"第4条（宿泊料）", "宿泊料は、1泊につき次の額を上限とする。", "区分\t上限額\t備考", "一般従業員\t12,000円", "課長以上\t15,000円\t役員は 別に定める",
		"出張区分\t\t実費", "日当\t日帰り 1,000円", "第5条（交通費）", "交通費は実費とする。"}
	if !slices.Equal(txt.Lines, want) {
		t.Errorf("lines\n%q\nwant\n%q", txt.Lines, want)
	}
	if at := lineOf(t, txt, "課長以上"); at.Label() != "見出し「第4条（宿泊料）」" {
		t.Errorf("a row is at %q, want under its heading", at.Label())
	}
	if at := lineOf(t, txt, "交通費は"); at.Heading != "第5条（交通費）" {
		t.Errorf("the paragraph after the table is under %q", at.Heading)
	}
}

// numberingXML is a numbering part of abstract definitions (their
// levels as lvl elements) and the lists that use them (numId → abstract).
func numberingXML(abstracts map[string]string, lists ...string) string {
	var b strings.Builder
	b.WriteString(`<w:numbering ` + wordNS + `>`)
	for id, levels := range abstracts {
		b.WriteString(`<w:abstractNum w:abstractNumId="` + id + `">` + levels + `</w:abstractNum>`)
	}
	for i := 0; i+1 < len(lists); i += 2 {
		b.WriteString(`<w:num w:numId="` + lists[i] + `"><w:abstractNumId w:val="` + lists[i+1] + `"/></w:num>`)
	}
	b.WriteString(`</w:numbering>`)
	return b.String()
}

func lvl(ilvl, format, text, more string) string {
	return `<w:lvl w:ilvl="` + ilvl + `"><w:start w:val="1"/><w:numFmt w:val="` + format + `"/>` + more + `<w:lvlText w:val="` + text + `"/></w:lvl>`
}

// numbered is a paragraph of list numID at level ilvl.
func numbered(numID, ilvl, text string) string {
	return `<w:p><w:pPr><w:numPr><w:ilvl w:val="` + ilvl + `"/><w:numId w:val="` + numID + `"/></w:numPr></w:pPr><w:r><w:t>` + text + `</w:t></w:r></w:p>`
}

// TestDocxNumbering: automatically numbered paragraphs start with their
// numbers as Word shows them — 第1条, 第1章 (through the heading style),
// （１）, ①, ア, イ (iroha), 第十一条, 1.2. — counted as Word counts
// (levels below restart, a list that restarts with startOverride, lists
// of one definition counting on), on the paragraph's first line of text;
// articles so numbered are the headings of their lines; bullets show
// nothing.
func TestDocxNumbering(t *testing.T) {
	abstracts := map[string]string{
		"1": lvl("0", "decimal", "第%1章", `<w:suff w:val="space"/><w:pStyle w:val="Heading1"/>`),
		"2": lvl("0", "decimal", "第%1条", `<w:suff w:val="nothing"/>`) + lvl("1", "decimalFullWidth", "（%2）", "") + lvl("2", "decimalEnclosedCircle", "%3", `<w:suff w:val="nothing"/>`),
		"3": lvl("0", "decimal", "%1.", "") + lvl("1", "decimal", "%1.%2.", ""),
		"4": lvl("0", "aiueoFullWidth", "%1", `<w:suff w:val="nothing"/>`) + lvl("1", "irohaFullWidth", "%2", `<w:suff w:val="nothing"/>`),
		"5": lvl("0", "japaneseCounting", "第%1条", `<w:suff w:val="nothing"/>`),
		"6": lvl("0", "bullet", "・", ""),
	}
	numbering := numberingXML(abstracts, "1", "1", "2", "2", "3", "3", "4", "4", "5", "5", "6", "6", "7", "3") +
		"" // list 7 uses definition 3 again and restarts below
	numbering = strings.Replace(numbering, `<w:num w:numId="7"><w:abstractNumId w:val="3"/></w:num>`,
		`<w:num w:numId="7"><w:abstractNumId w:val="3"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>`, 1)
	styles := `<w:styles ` + wordNS + `><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style></w:styles>`
	heading := func(s string) string {
		return `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>` + s + `</w:t></w:r></w:p>`
	}
	body := heading("総則") + numbered("2", "0", "（目的）この規則は労働条件を定める。") + numbered("2", "1", "正社員") + numbered("2", "1", "契約社員") +
		numbered("2", "2", "丸数字") + numbered("2", "0", "（労働時間）労働時間は1日8時間とする。") + numbered("2", "1", "始業") +
		// After a page break, the number starts the line of text.
		strings.Replace(numbered("2", "0", "（休憩）休憩は1時間とする。"), `<w:r><w:t>`, `<w:r><w:br w:type="page"/></w:r><w:r><w:t>`, 1) +
		heading("雑則") + numbered("3", "0", "目的") + numbered("3", "1", "範囲") + numbered("3", "1", "定義") + numbered("3", "0", "附則") +
		numbered("7", "0", "別表") + numbered("4", "0", "甲") + numbered("4", "0", "乙") + numbered("4", "1", "丙") + numbered("6", "0", "箇条書き")
	for range 10 {
		body += numbered("5", "0", "（漢数字）")
	}
	// A paragraph numbered in a revision formerly: its old numPr is not
	// read.
	body += `<w:p><w:pPr><w:pPrChange w:id="1"><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr></w:pPr></w:pPrChange></w:pPr><w:r><w:t>番号なし</w:t></w:r></w:p>`
	data := officeZip(t, "word/document.xml", wordDoc(body), "word/numbering.xml", numbering, "word/styles.xml", styles)
	txt := extractBytes(t, "shugyo.docx", data, Options{})
	want := []string{"第1章 総則", "第1条（目的）この規則は労働条件を定める。", "（１） 正社員", "（２） 契約社員", "①丸数字",
		"第2条（労働時間）労働時間は1日8時間とする。", "（１） 始業", "", "第3条（休憩）休憩は1時間とする。", "第2章 雑則", "1. 目的", "1.1. 範囲", "1.2. 定義", "2. 附則", "1. 別表",
		"ア甲", "イ乙", "イ丙", "箇条書き"}
	for i := range 10 {
		want = append(want, "第"+[]string{"一", "二", "三", "四", "五", "六", "七", "八", "九", "十"}[i]+"条（漢数字）")
	}
	want = append(want, "番号なし")
	if !slices.Equal(txt.Lines, want) {
		t.Errorf("lines\n%q\nwant\n%q", txt.Lines, want)
	}
	for s, want := range map[string]string{"この規則は労働条件": "第1条（目的）", "正社員": "第1条（目的）", "始業": "第2条（労働時間）", "休憩は1時間": "第3条（休憩）", "範囲": "第2章 雑則"} {
		if got := lineOf(t, txt, s).Heading; got != want {
			t.Errorf("%s is under %q, want %q", s, got, want)
		}
	}
	for _, c := range []struct {
		v      int
		format string
		want   string
	}{
		{11, "japaneseCounting", "十一"}, {20, "japaneseCounting", "二十"}, {105, "japaneseCounting", "百五"}, {2026, "japaneseCounting", "二千二十六"},
		{10000, "japaneseCounting", "一万"}, {3, "japaneseLegal", "参"}, {12, "decimalFullWidth", "１２"}, {21, "decimalEnclosedCircle", "㉑"},
		{47, "aiueoFullWidth", "ア"}, {2, "iroha", "ﾛ"}, {4, "lowerRoman", "iv"}, {28, "upperLetter", "BB"}, {3, "ideographTraditional", "丙"},
		{7, "decimalZero", "07"}, {2, "ordinal", "2nd"}, {5, "none", ""}, {3, "decimalEnclosedParen", "⑶"},
	} {
		if got := listNumber(c.v, c.format, 0); got != c.want {
			t.Errorf("listNumber(%d, %s) = %q, want %q", c.v, c.format, got, c.want)
		}
	}
}

// TestDocxHiddenAndContents: text formatted hidden (w:vanish) is left
// out, as Word shows and prints the page; a table of contents — a TOC
// field, a TOC style, a content control of one, or lines typed with a
// tab or dot leader and a page number — gives no headings.
func TestDocxHiddenAndContents(t *testing.T) {
	hidden := `<w:p><w:r><w:t>見える文。</w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t>隠した注記。</w:t></w:r><w:r><w:rPr><w:vanish w:val="0"/></w:rPr><w:t>戻した文。</w:t></w:r></w:p>`
	field := `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \o "1-3" \h \z \u </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>` +
		`<w:r><w:t>第1章 総則</w:t></w:r><w:r><w:tab/></w:r><w:r><w:t>1</w:t></w:r></w:p>` +
		`<w:p><w:r><w:t>第2条（目次の条）</w:t></w:r><w:r><w:tab/></w:r><w:r><w:t>2</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`
	sdt := `<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/><w:docPartUnique/></w:docPartObj></w:sdtPr><w:sdtContent>` + wp("第9章 目次の章") + `</w:sdtContent></w:sdt>`
	styled := `<w:p><w:pPr><w:pStyle w:val="TOC1"/></w:pPr><w:r><w:t>第8章 スタイルの目次</w:t></w:r></w:p>`
	typed := wp("第1章　総則\t1") + wp("第2章　賃金……………5") + wp("第3章 服務 ・・・・ 12")
	doc := wordDoc(wp("就業規則") + wp("目次") + field + sdt + styled + typed + wp("第1章　総則") + hidden + wp("第2章　賃金") + wp("賃金は月末に支払う。"))
	txt := extractBytes(t, "toc.docx", officeZip(t, "word/document.xml", doc), Options{})
	if !slices.Contains(txt.Lines, "見える文。戻した文。") || count(txt, "隠した注記") != 0 {
		t.Errorf("hidden text is read:\n%s", txt)
	}
	for _, l := range []string{"第1章 総則\t1", "第2条（目次の条）\t2", "第9章 目次の章", "第8章 スタイルの目次", "第1章　総則\t1", "第3章 服務 ・・・・ 12"} {
		if !slices.Contains(txt.Lines, l) {
			t.Errorf("the table of contents' line %q is not read:\n%s", l, txt)
		}
	}
	for i, l := range txt.Lines {
		h := txt.Locators[i].Heading
		if strings.Contains(h, "\t") || strings.Contains(h, "目次の") || strings.Contains(h, "スタイル") || strings.Contains(h, "…") || strings.Contains(h, "服務") {
			t.Errorf("line %q is under %q, a table of contents' line", l, h)
		}
	}
	if at := lineOf(t, txt, "見える文"); at.Heading != "第1章　総則" {
		t.Errorf("the body's line is under %q, want 第1章　総則", at.Heading)
	}
	if at := lineOf(t, txt, "月末に支払う"); at.Heading != "第2章　賃金" {
		t.Errorf("the body's line is under %q, want 第2章　賃金", at.Heading)
	}
}

// TestPptxHiddenSlide: a hidden slide is read and located as hidden, as
// a hidden sheet is.
func TestPptxHiddenSlide(t *testing.T) {
	sp := func(s string) string {
		return `<p:sp><p:txBody><a:p><a:r><a:t>` + s + `</a:t></a:r></a:p></p:txBody></p:sp>`
	}
	data := pptxDeck(t, []string{sp("表紙"), sp("予備の資料")})
	data = officeZip(t, rezip(t, data, "ppt/slides/slide2.xml", func(s string) string {
		return strings.Replace(s, "<p:sld ", `<p:sld show="0" `, 1)
	})...)
	txt := extractBytes(t, "deck.pptx", data, Options{})
	if got := lineOf(t, txt, "予備の資料").Label(); got != "スライド2(非表示)" {
		t.Errorf("the hidden slide's line is at %q, want スライド2(非表示)", got)
	}
	if got := lineOf(t, txt, "表紙").Label(); got != "スライド1" {
		t.Errorf("the shown slide's line is at %q", got)
	}
}

// rezip is the parts of an Office file (name, content pairs) with one
// part changed by f.
func rezip(t *testing.T, data []byte, name string, f func(string) string) []string {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, zf := range z.File {
		r, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if zf.Name == name {
			s = f(s)
		}
		parts = append(parts, zf.Name, s)
	}
	return parts
}
