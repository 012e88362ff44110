package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"lwr/config/configtest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func fixture(t *testing.T, name string) *Text {
	t.Helper()
	p := filepath.Join("testdata", name)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	txt, err := Extract(context.Background(), name, p, data, Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(txt.Lines) != len(txt.Locators) {
		t.Fatalf("%s: %d lines, %d locators", name, len(txt.Lines), len(txt.Locators))
	}
	return txt
}

// lineOf returns the locator of the first line holding s.
func lineOf(t *testing.T, txt *Text, s string) Locator {
	t.Helper()
	for i, l := range txt.Lines {
		if strings.Contains(l, s) {
			return txt.Locators[i]
		}
	}
	t.Fatalf("no line holds %q:\n%s", s, txt)
	return Locator{}
}

func TestDocx(t *testing.T) {
	txt := fixture(t, "旅費規程.docx")
	if at := lineOf(t, txt, "一泊12,000円"); at.Heading != "第3条 宿泊料" || at.Label() != "見出し「第3条 宿泊料」" {
		t.Errorf("the 宿泊料 line is at %+v", at)
	}
	// A line break in a paragraph starts a line; tabs stay; a table's row
	// is a line of its cells.
	for _, want := range []string{"ただし特別区は14,000円。", "区分\t上限額", "日当\t2,000円", "交通費\t実費"} {
		if !slices.Contains(txt.Lines, want) {
			t.Errorf("no line %q in\n%s", want, txt)
		}
	}
	if at := lineOf(t, txt, "三日前"); at.Heading != "第4条 申請" {
		t.Errorf("the 申請 line is at %+v", at)
	}
}

func TestXlsx(t *testing.T) {
	txt := fixture(t, "単価表.xlsx")
	at := lineOf(t, txt, "トナー")
	if at.Sheet != "単価表" || at.Row != 4 || at.Label() != "シート「単価表」 行4" {
		t.Errorf("トナー is at %+v (the empty row 3 counts)", at)
	}
	if l := txt.Lines[slices.IndexFunc(txt.Lines, func(s string) bool { return strings.HasPrefix(s, "コピー用紙") })]; l != "コピー用紙\t450\t2026-04-01" {
		t.Errorf("the コピー用紙 row: %q", l)
	}
	if at := lineOf(t, txt, "税抜き"); at.Sheet != "備考" || at.Row != 12 {
		t.Errorf("the 備考 line is at %+v", at)
	}
}

// TestFormFixtures: a form as python-docx and openpyxl write it. Word: the
// text box in the middle of a paragraph once, in place, the text before
// it kept, headings typed as text, the header and footer. Excel: the
// row's columns kept with an empty cell, yen, percent and Japanese
// dates as shown, the note, the chart's title, the hidden sheet.
func TestFormFixtures(t *testing.T) {
	txt := fixture(t, "出張申請書.docx")
	i := slices.Index(txt.Lines, "申請者は、")
	if i < 0 || i+2 >= len(txt.Lines) || txt.Lines[i+1] != "記入例は裏面を参照すること" || txt.Lines[i+2] != "所属長の承認を得て提出する。" {
		t.Errorf("the paragraph with the text box:\n%s", txt)
	}
	if n := count(txt, "記入例は裏面を参照すること"); n != 1 {
		t.Errorf("the text box is read %d times", n)
	}
	for s, want := range map[string]string{"所属長の承認": "見出し「第1条（目的）」", "総務課に提出": "見出し「第2条（提出先）」", "様式第3号": "ヘッダー", "総務課": "見出し「第2条（提出先）」"} {
		if got := lineOf(t, txt, s).Label(); got != want {
			t.Errorf("%s is at %q, want %q", s, got, want)
		}
	}
	if !slices.Contains(txt.Lines, "総務課") || txt.Locators[slices.Index(txt.Lines, "総務課")].Part != "フッター" {
		t.Errorf("no footer line:\n%s", txt)
	}
	x := fixture(t, "経費申請.xlsx")
	for _, want := range []string{"費目\t金額\t数量\t備考\t税率", "宿泊費\t¥60,000\t\t領収書あり\t10%", "交通費\t¥12,340\t2\t\t10%", "申請日\t令和8年4月1日"} {
		if !slices.Contains(x.Lines, want) {
			t.Errorf("no line %q in\n%s", want, x)
		}
	}
	for s, want := range map[string]string{"上限は一泊": "シート「経費申請」 A2のコメント", "費目別の金額": "シート「経費申請」 グラフ", "換算レート": "シート「計算用」(非表示) 行1"} {
		if got := lineOf(t, x, s).Label(); got != want {
			t.Errorf("%s is at %q, want %q", s, got, want)
		}
	}
}

func TestPptx(t *testing.T) {
	txt := fixture(t, "新人研修.pptx")
	if at := lineOf(t, txt, "人事部"); at.Slide != 1 {
		t.Errorf("人事部 is on slide %d, want 1 (the presentation's order, not the zip's)", at.Slide)
	}
	if at := lineOf(t, txt, "領収書"); at.Slide != 2 || at.Label() != "スライド2" {
		t.Errorf("領収書 is at %+v", at)
	}
}

func needPDFToText(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("LWR_TEST_REQUIRE_PDF") != "" {
			t.Fatal("pdftotext is not installed and LWR_TEST_REQUIRE_PDF is set")
		}
		t.Skip("pdftotext is not installed (Poppler); the tests that read PDFs need it")
	}
}

func TestPDF(t *testing.T) {
	needPDFToText(t)
	txt := fixture(t, "情報セキュリティ研修.pdf")
	if at := lineOf(t, txt, "USBメモリの使用は原則として禁止する。"); at.Page != 2 || at.Label() != "p.2" {
		t.Errorf("the USB line is at %+v, want page 2", at)
	}
	if at := lineOf(t, txt, "第1章"); at.Page != 1 {
		t.Errorf("第1章 is at %+v", at)
	}
}

func TestRefusals(t *testing.T) {
	for _, c := range []struct {
		name string
		want error
		pdf  bool
	}{
		{"暗号化.pdf", ErrEncrypted, true},
		{"スキャン.pdf", ErrNoText, true},
		{"壊れた.pdf", ErrBroken, true},
		{"古い規程.doc", ErrOldFormat, false},
	} {
		if c.pdf {
			needPDFToText(t)
		}
		p := filepath.Join("testdata", c.name)
		data, _ := os.ReadFile(p)
		_, err := Extract(context.Background(), c.name, p, data, Options{})
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	// A docx that is no zip, and one that unpacks beyond the bound.
	if _, err := Extract(context.Background(), "x.docx", "", []byte("not a zip"), Options{}); !errors.Is(err, ErrBroken) {
		t.Errorf("not a zip: %v", err)
	}
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	w, _ := z.Create("word/document.xml")
	w.Write(bytes.Repeat([]byte(" "), 2<<20))
	z.Close()
	if _, err := Extract(context.Background(), "bomb.docx", "", b.Bytes(), Options{MaxUnpacked: 1 << 20}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a zip bomb: %v", err)
	}
	// pdftotext missing: the sentence says what to install.
	_, err := Extract(context.Background(), "a.pdf", "a.pdf", nil, Options{PDFToText: filepath.Join(configtest.TempDir(t), "no-such-pdftotext")})
	if err == nil {
		t.Error("a missing pdftotext gave no error")
	}
}

func TestGarbledIsRefused(t *testing.T) {
	if s := unreadableShare([]string{"普通の文章です。", "\ue000\ue001\ue002\ufffd"}); s < 0.2 {
		t.Errorf("share %v", s)
	}
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	w, _ := z.Create("word/document.xml")
	w.Write([]byte(`<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>` + strings.Repeat("\ue000", 50) + `本文</w:t></w:r></w:p></w:body></w:document>`))
	z.Close()
	if _, err := Extract(context.Background(), "g.docx", "", b.Bytes(), Options{}); !errors.Is(err, ErrGarbled) {
		t.Errorf("a garbled docx: %v", err)
	}
}

func TestCache(t *testing.T) {
	c := Cache{Dir: configtest.TempDir(t)}
	sum := strings.Repeat("ab", 32)
	if _, ok := c.Get(sum); ok {
		t.Fatal("an empty cache had the text")
	}
	want := &Text{Format: "docx", Lines: []string{"a", "b"}, Locators: []Locator{{Heading: "h"}, {Heading: "h"}}, Version: Version}
	c.Put(sum, want)
	got, ok := c.Get(sum)
	if !ok || got.String() != want.String() || got.Locators[1].Heading != "h" {
		t.Errorf("Get = %+v, %v", got, ok)
	}
}

func TestXlsxParts(t *testing.T) {
	// Phonetic guides (furigana) are not the cell's text.
	ss, err := sharedStrings([]byte(`<sst><si><t>単価</t></si><si><r><t>東京</t></r><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si></sst>`))
	if err != nil || ss.len() != 2 || ss.at(0) != "単価" || ss.at(1) != "東京" {
		t.Errorf("shared strings %+v, %v", ss, err)
	}
	for _, c := range []struct {
		id   int
		code string
		want bool
	}{{14, "", true}, {31, "", true}, {0, "", false}, {176, "yyyy/m/d", true}, {177, `"円"#,##0`, false}, {178, "[$-411]ge.m.d", true}, {179, "0.00", false}, {180, "[Red]0", false}} {
		code := c.code
		if code == "" {
			code = builtinFormats[c.id]
		}
		if got := isDateCode(code); got != c.want {
			t.Errorf("isDateCode(%d, %q) = %v", c.id, code, got)
		}
	}
	for _, c := range []struct {
		f    float64
		want string
	}{{46113, "2026-04-01"}, {46113.5625, "2026-04-01 13:30"}, {0.75, "18:00"}} {
		if got := serialDate(c.f, false); got != c.want {
			t.Errorf("serialDate(%v) = %s, want %s", c.f, got, c.want)
		}
	}
	if got := (cellReader{}).value("", "0.10000000000000001", "", "", 0); got != "0.1" {
		t.Errorf("a number shows as %s", got)
	}
}

// TestGeneratedFixtures writes the fixtures anew with the Python
// libraries (testdata/make.py) and reads each: the committed files are
// what the generator writes, and real python-docx, openpyxl and reportlab
// output is read.
func TestGeneratedFixtures(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import docx, openpyxl, reportlab").Run(); err != nil {
		if os.Getenv("LWR_TEST_REQUIRE_PDF") != "" {
			t.Fatalf("python3-docx, python3-openpyxl or python3-reportlab is missing: %v", err)
		}
		t.Skip("python3-docx, python3-openpyxl and python3-reportlab are not installed")
	}
	needPDFToText(t)
	dir := configtest.TempDir(t)
	if out, err := exec.Command(py, filepath.Join("testdata", "make.py"), dir).CombinedOutput(); err != nil {
		t.Fatalf("make.py: %v\n%s", err, out)
	}
	for name, want := range map[string]string{
		"旅費規程.docx": "宿泊料の上限は一泊12,000円とする。", "単価表.xlsx": "トナー\t12800\t2025-10-01",
		"新人研修.pptx": "初日は人事部で受付を行う。", "情報セキュリティ研修.pdf": "パスワードは12文字以上とする。",
		"経費申請.xlsx": "宿泊費\t¥60,000\t\t領収書あり\t10%", "出張申請書.docx": "申請者は、",
	} {
		p := filepath.Join(dir, name)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		txt, err := Extract(context.Background(), name, p, data, Options{})
		if err != nil || !slices.Contains(txt.Lines, want) {
			t.Errorf("%s: %v; want the line %q in\n%v", name, err, want, txt)
		}
	}
}

// TestDocxHeadingByStyleName: Word in Japanese may give 見出し 1 the id
// "1"; styles.xml says what it is.
func TestDocxHeadingByStyleName(t *testing.T) {
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	w, _ := z.Create("word/document.xml")
	w.Write([]byte(`<w:document xmlns:w="w"><w:body>
<w:p><w:pPr><w:pStyle w:val="1"/></w:pPr><w:r><w:t>第1条 目的</w:t></w:r></w:p>
<w:p><w:r><w:t>この規程は目的を定める。</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="a3"/></w:pPr><w:r><w:t>本文の段落。</w:t></w:r></w:p></w:body></w:document>`))
	w, _ = z.Create("word/styles.xml")
	w.Write([]byte(`<w:styles xmlns:w="w"><w:style w:styleId="1"><w:name w:val="heading 1"/></w:style><w:style w:styleId="a3"><w:name w:val="List Paragraph"/></w:style></w:styles>`))
	z.Close()
	txt, err := Extract(context.Background(), "j.docx", "", b.Bytes(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if at := lineOf(t, txt, "本文の段落"); at.Heading != "第1条 目的" {
		t.Errorf("the paragraph is under %+v, want 第1条 目的", at)
	}
}
