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
	_, err := Extract(context.Background(), "a.pdf", "a.pdf", nil, Options{PDFToText: tool, MaxText: 1 << 20})
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
