package extract

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"lwr/config/configtest"
)

// squeeze drops white space: how a reader sees a justified heading.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// TestPDFReadingOrder reads PDFs shaped as Japanese rules are: a heading
// justified by spacing its characters, paragraphs wrapped mid-word, a
// table, a page or a section in two columns (one written by reportlab with
// a CID font, one by LibreOffice from a Word document). Each heading is
// one line, each paragraph's lines follow one another (a column is read
// down, then the next), a table keeps its rows, each line its page.
func TestPDFReadingOrder(t *testing.T) {
	needPDFToText(t)
	for _, c := range []struct {
		name     string
		headings map[string]int // heading (without spaces) → page
		paras    []string
		rows     []string
	}{
		{
			name:     "就業規則_二段組.pdf",
			headings: map[string]int{"第１章総則": 1, "第９章雑則": 2, "（届出）": 2},
			paras: []string{
				"第１条この規則は、株式会社サンプルの従業員の服務規律及び労働条件その他の就業に関する事項を定めるものである。",
				"第６０条この規則の改廃は、従業員の過半数を代表する者の意見を聴いて行う。",
				"（附則）この規則は、２０２４年４月１日から施行する。（届出）第６１条会社は、",
				"第６１条会社は、この規則を変更したときは、所轄の労働基準監督署長に届け出る。",
				"第６２条特別の事情があるときは、別に定める。",
			},
			rows: []string{"区分 日当 宿泊料", "役員 3,000円 15,000円", "嘱託 1,500円 10,000円"},
		},
		{
			name:     "就業規則_Word.pdf",
			headings: map[string]int{"第１章総則": 1, "（改廃）": 1, "（届出）": 1},
			paras: []string{
				"第２条この規則は、会社に雇用されるすべての従業員に適用する。ただし、パートタイム従業員の就業に関する事項については、別に定めるところによる。",
				"第６０条この規則の改廃は、従業員の過半数を代表する者の意見を聴いて行い、所轄の労働基準監督署長に届け出るものとする。",
				"る。（届出）第６１条会社は、この規則を変更したときは、変更後の規則を従業員に周知するとともに、その写しを各事業場に備え付ける。",
				"第６２条特別の事情があるときは、この規則の定めにかかわらず、会社と従業員代表との協議により別に定めることができる。",
			},
			rows: []string{"区分 日当 宿泊料", "役員 3,000円 15,000円", "一般社員 2,000円 12,000円"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			txt := fixture(t, c.name)
			for h, page := range c.headings {
				found := false
				for i, l := range txt.Lines {
					if squeeze(l) == h {
						found = true
						if txt.Locators[i].Page != page {
							t.Errorf("%s is on page %d, want %d", h, txt.Locators[i].Page, page)
						}
					}
				}
				if !found {
					t.Errorf("no line is the heading %s:\n%s", h, txt)
				}
			}
			all := squeeze(txt.String())
			for _, p := range c.paras {
				if !strings.Contains(all, p) {
					t.Errorf("the paragraph %s is not read in order:\n%s", p, txt)
				}
			}
			for _, r := range c.rows {
				lineOf(t, txt, r)
			}
		})
	}
}

// TestPDFTextBudget: pdftotext's output is read through the budget and
// the program is stopped past it, even one that would never end.
func TestPDFTextBudget(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the endless pdftotext is a shell script")
	}
	tool := filepath.Join(configtest.TempDir(t), "pdftotext")
	script := "#!/bin/sh\necho '<html><body><doc><page width=\"595\" height=\"842\"><flow><block><line>'\n" +
		"yes '<word xMin=\"72\" yMin=\"100\" xMax=\"90\" yMax=\"110\">有給休暇</word>'\n"
	if err := os.WriteFile(tool, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	// A small budget, and no timeout a loaded machine could reach first.
	_, err := Extract(context.Background(), "a.pdf", "a.pdf", nil, Options{PDFToText: tool, MaxText: 4 << 10, Timeout: time.Hour})
	if !errors.Is(err, ErrTooMuchText) {
		t.Fatalf("an endless PDF text: %v, want ErrTooMuchText", err)
	}
	// Within the budget the same words are read.
	needPDFToText(t)
	p := filepath.Join("testdata", "就業規則_二段組.pdf")
	if _, err := Extract(context.Background(), p, p, nil, Options{MaxText: 200}); !errors.Is(err, ErrTooMuchText) {
		t.Errorf("a PDF over a budget of 200 characters: %v", err)
	}
	if _, err := Extract(context.Background(), p, p, nil, Options{MaxText: 2000}); err != nil {
		t.Errorf("a PDF within a budget of 2,000 characters: %v", err)
	}
}

func TestVerticalPageInPopplerOrder(t *testing.T) {
	// Two columns of vertical writing, right to left as pdftotext orders
	// them: each word is tall and narrow.
	words := []pdfWord{
		{x0: 500, y0: 100, x1: 512, y1: 300, text: "縦書きの一行目", line: 0},
		{x0: 480, y0: 100, x1: 492, y1: 300, text: "縦書きの二行目", line: 1},
	}
	if got := pageLines(words); len(got) != 2 || got[0] != "縦書きの一行目" || got[1] != "縦書きの二行目" {
		t.Errorf("pageLines = %q", got)
	}
}

// following reports whether the lines of txt hold want one after another.
func following(txt *Text, want ...string) bool {
	for i := range txt.Lines {
		if i+len(want) <= len(txt.Lines) && slices.Equal(txt.Lines[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// TestPDFAutomaticSpacing: the space an office sets between Japanese and
// digits or Latin letters, which pdftotext makes a word break, is not a
// space of the text (令和7年, 3,000円, 第1条, 100km, Webフォーム); a typed
// space, wider, stays (様式は Excel で).
func TestPDFAutomaticSpacing(t *testing.T) {
	needPDFToText(t)
	txt := fixture(t, "旅費規程_枠.pdf")
	for _, want := range []string{"令和7年4月1日施行", "第1条（目的）", "第3条（宿泊料）", "第4条（交通費）", "一般従業員 12,000円"} {
		if !slices.Contains(txt.Lines, want) {
			t.Errorf("no line %q in\n%s", want, txt)
		}
	}
	for _, want := range []string{
		"日当は、出張1日につき一般従業員3,000円、課長以上4,000円",
		"様式は Excel で作成し、申請はWebフォームで行う。",
		"片道100km以上",
		"番号は1111とする。",
	} {
		lineOf(t, txt, want)
	}
}

// TestPDFTextBox: a text box the text flows around (LibreOffice frames
// right and left of their paragraphs; a box with a border and a line pitch
// of its own drawn by reportlab) is read as lines of its own after the
// paragraph beside it, between empty lines; the paragraph's lines follow
// one another.
func TestPDFTextBox(t *testing.T) {
	needPDFToText(t)
	for _, c := range []struct {
		name  string
		order [][]string
	}{
		{"旅費規程_枠.pdf", [][]string{
			{"第1条（目的）",
				"この規程は、従業員が業務のため国内に出張する場合の旅費の支",
				"給に関し必要な事項を定める。",
				"",
				"注意：海外出張は別規程（海外出張",
				"旅費規程）による。",
				"",
				"第2条（日当）"},
			{"第4条（交通費）",
				"交通費は、最も経済的かつ合理的な経路および方法により計算した実費",
				"を支給する。新幹線の利用は片道100km以上の場合に限り、出張の承認",
				"番号は1111とする。",
				"",
				"参考：新幹線の特急料金は別",
				"表第2による。",
				"",
				"第5条（改廃）"},
		}},
		{"社内報.pdf", [][]string{
			{"（在宅勤務の記録）",
				"在宅勤務をした者は、勤務日ごとに",
				"開始と終了の時刻を勤務表に記録し、",
				"月末に所属長へ提出する。記録のない",
				"日は在宅勤務手当の対象としない。",
				"",
				"記入例：勤務日",
				"ごとに開始と終",
				"了の時刻を書く。",
				""},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			txt := fixture(t, c.name)
			for _, want := range c.order {
				if !following(txt, want...) {
					t.Errorf("the lines\n%s\ndo not follow one another in\n%s", strings.Join(want, "\n"), txt)
				}
			}
		})
	}
}

// TestPDFTableCellsAreNoBox: the cells of a table stand apart as a text
// box does, but share their row's line: each row is a line, whether the
// cells' words stand on one foot, a little apart by their fonts (Latin
// and Japanese, the same in every row), or a row holds several cells.
func TestPDFTableCellsAreNoBox(t *testing.T) {
	row := func(y float64, dy float64, cells ...string) []pdfWord {
		var out []pdfWord
		x := 72.0
		for k, c := range cells {
			w := 10.5 * float64(len([]rune(c)))
			d := 0.0
			if k > 0 {
				d = dy
			}
			out = append(out, pdfWord{x0: x, y0: y + d, x1: x + w, y1: y + 13.65 + d, text: c})
			x += w + 8
		}
		return out
	}
	for _, c := range []struct {
		name string
		rows [][]pdfWord
		want []string
	}{
		{"one foot", [][]pdfWord{
			row(100, 0, "一般従業員の宿泊料の上限額", "一泊につき一万二千円とする"),
			row(110.5, 0, "課長以上の宿泊料の上限額は", "一泊につき一万五千円とする"),
		}, []string{"一般従業員の宿泊料の上限額 一泊につき一万二千円とする", "課長以上の宿泊料の上限額は 一泊につき一万五千円とする"}},
		{"fonts apart", [][]pdfWord{
			row(100, 0.8, "一般従業員の宿泊料の上限額", "一泊につき一万二千円とする"),
			row(110.5, 0.8, "課長以上の宿泊料の上限額は", "一泊につき一万五千円とする"),
		}, []string{"一般従業員の宿泊料の上限額 一泊につき一万二千円とする", "課長以上の宿泊料の上限額は 一泊につき一万五千円とする"}},
		// A header of a form: a label's cell and the cells beside it,
		// centred on their rows in fonts of other sizes.
		{"several cells", [][]pdfWord{
			{{x0: 40, y0: 42.9, x1: 100, y1: 55.9, text: "案件名称"}, {x0: 118, y0: 40.4, x1: 218, y1: 53.4, text: "サンプル案件"},
				{x0: 327, y0: 40.4, x1: 347, y1: 53.4, text: "工程"}, {x0: 383, y0: 40.4, x1: 423, y1: 53.4, text: "要件定義"}},
			{{x0: 40, y0: 54.5, x1: 100, y1: 67.5, text: "システム"}, {x0: 118, y0: 54.5, x1: 198, y1: 67.5, text: "サンプル基盤"},
				{x0: 327, y0: 54.5, x1: 367, y1: 67.5, text: "成果物名"}, {x0: 383, y0: 54.5, x1: 463, y1: 67.5, text: "コーディング規約"}},
		}, []string{"案件名称 サンプル案件 工程 要件定義", "システム サンプル基盤 成果物名 コーディング規約"}},
	} {
		var words []pdfWord
		for _, r := range c.rows {
			words = append(words, r...)
		}
		if got := pageLines(words); !slices.Equal(got, c.want) {
			t.Errorf("%s: pageLines = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestPDFSpacedArticleNumber: an article's number typed with spaces
// around it (half an em, wider than an office's automatic spacing) reads
// as the article's heading, 第4条（宿泊料）; a number farther apart, or
// not between 第 and its unit, keeps its spaces.
func TestPDFSpacedArticleNumber(t *testing.T) {
	line := func(gap float64, texts ...string) []pdfWord {
		var out []pdfWord
		x := 72.0
		for _, s := range texts {
			w := 0.0
			for _, r := range s {
				if r < 0x80 {
					w += 5.25
				} else {
					w += 10.5
				}
			}
			out = append(out, pdfWord{x0: x, y0: 100, x1: x + w, y1: 113.65, text: s})
			x += w + gap
		}
		return out
	}
	for _, c := range []struct {
		words []pdfWord
		want  string
	}{
		{line(5.25, "第", "4", "条（宿泊料）"), "第4条（宿泊料）"},
		{line(5.25, "第", "12", "章", "旅費"), "第12章 旅費"},
		{line(5.25, "附則", "第", "3", "項"), "附則 第3項"},
		{line(12, "第", "4", "条（宿泊料）"), "第 4 条（宿泊料）"},
		{line(5.25, "第", "4", "回の会議"), "第 4 回の会議"},
		{line(5.25, "合計", "4", "条"), "合計 4 条"},
	} {
		if got := pageLines(c.words); len(got) != 1 || got[0] != c.want {
			t.Errorf("pageLines = %q, want %q", got, c.want)
		}
	}
}

// TestPDFHeadings: each line of a PDF stands under the last line before
// it that reads as a heading (第1章 総則, 第3条（宿泊料）), from page to
// page, as a Word document without heading styles does.
func TestPDFHeadings(t *testing.T) {
	needPDFToText(t)
	txt := fixture(t, "旅費規程_枠.pdf")
	for line, want := range map[string]Locator{
		"国内出張旅費規程": {Page: 1},
		"宿泊料は、1泊につき次の額を上限として実費を支給する。": {Page: 1, Heading: "第3条（宿泊料）"},
		"一般従業員 12,000円":    {Page: 1, Heading: "第3条（宿泊料）"},
		"注意：海外出張は別規程（海外出張": {Page: 1, Heading: "第1条（目的）"},
		"第5条（改廃）":          {Page: 1, Heading: "第5条（改廃）"},
	} {
		if got := lineOf(t, txt, line); got != want {
			t.Errorf("%s: at %+v, want %+v", line, got, want)
		}
	}
	txt = fixture(t, "就業規則_二段組.pdf")
	for line, want := range map[string]Locator{
		"ときは、所轄の労働基準監督署長に届け":  {Page: 2, Heading: "第６１条"},
		"この規則は、２０２４年４月１日から施行": {Page: 2, Heading: "第６０条"},
	} {
		if got := lineOf(t, txt, line); got != want {
			t.Errorf("%s: at %+v, want %+v", line, got, want)
		}
	}
}
