package index

import (
	"slices"
	"testing"

	"lwr/config/configtest"
	"lwr/index/extract"
)

// TestPDFWordsAsTheOfficeWroteThem: full-text search finds in PDFs that an
// office wrote what the document says, as in the document itself: numbers
// and Latin words next to Japanese without the space the office set
// between them (3,000円, 令和7年4月1日, 第1条, 片道100km), a phrase
// wrapped onto a line that starts with a number (月額 / 5,000円とし), the
// text beside a text box and the box's own text, each wrapped over its
// lines; ranked search has the PDF first for words only it holds, and
// cites an article of it under its heading, as a Word document's.
func TestPDFWordsAsTheOfficeWroteThem(t *testing.T) {
	if !extract.PDFReadable() {
		t.Skip("pdftotext is not installed")
	}
	root := officeRoot(t)
	ix := openOffice(t, root, configtest.TempDir(t))
	defer ix.Close()
	mustBuild(t, ix, BuildOptions{})
	for _, c := range []struct{ q, file string }{
		{"3,000円", "旅費規程_枠.pdf"},
		{"12,000円", "旅費規程_枠.pdf"},
		{"令和7年4月1日", "旅費規程_枠.pdf"},
		{"第1条", "旅費規程_枠.pdf"},
		{"片道100km", "旅費規程_枠.pdf"},
		{"承認番号は1111", "旅費規程_枠.pdf"},
		{"Webフォーム", "旅費規程_枠.pdf"},
		{"支給に関し必要な事項", "旅費規程_枠.pdf"},
		{"海外出張旅費規程", "旅費規程_枠.pdf"},
		{"特急料金は別表第2による", "旅費規程_枠.pdf"},
		{"月額5,000円", "社内報.pdf"},
		{"から10月31日", "社内報.pdf"},
		{"勤務日ごとに開始と終了", "社内報.pdf"},
		{"開始と終了の時刻を書く", "社内報.pdf"},
	} {
		if got := paths(find(t, ix, c.q, SearchOptions{Mode: FullText})); !slices.Contains(got, c.file) {
			t.Errorf("full text %q: %v, want %s", c.q, got, c.file)
		}
	}
	for _, q := range []string{"令和7年4月1日施行", "承認番号は1111"} {
		if got := paths(find(t, ix, q, SearchOptions{})); len(got) == 0 || got[0] != "旅費規程_枠.pdf" {
			t.Errorf("ranked %q: %v, want 旅費規程_枠.pdf first", q, got)
		}
	}
	for _, m := range find(t, ix, "新幹線 片道", SearchOptions{}).Matches {
		if m.Path == "旅費規程_枠.pdf" {
			if m.Locator == nil || m.Locator.Heading != "第4条（交通費）" || m.Locator.Page != 1 {
				t.Errorf("the PDF's hit for 新幹線 片道 stands at %+v, want p.1 under 第4条（交通費）", m.Locator)
			}
			return
		}
	}
	t.Error("ranked 新幹線 片道 does not find 旅費規程_枠.pdf")
}
