package deep

import (
	"slices"
	"strings"
	"testing"

	"lwr/index"
	"lwr/index/extract"
	"lwr/research"
)

// file is a document of lines and their locators (nil for a text file).
func file(lines []string, locs []extract.Locator) *index.File {
	return &index.File{Rel: "x", Abs: "/r/x", Lines: lines, Locators: locs}
}

func pages(ps ...int) []extract.Locator {
	var out []extract.Locator
	for _, p := range ps {
		out = append(out, extract.Locator{Page: p})
	}
	return out
}

// A unit of evidence never runs past its article, chapter, page, sheet,
// a row left empty, a part or a Word heading; its claims read as people
// read the lines.
func TestUnitBoundaries(t *testing.T) {
	pdf := []string{
		"国内出張旅費規程",  // 1
		"第 3 条（日当）", // 2
		"日当は、出張 1 日につき一般従業員 3,000 円、課長以上 4,000 円とする。", // 3
		"第 4 条（宿泊料）", // 4
		"宿泊料は、1 泊につき次の額を上限として実費を支給する。", // 5
		"一般従業員 12,000 円",       // 6
		"課長以上 15,000 円",        // 7
		"第 5 条（交通費）",           // 8
		"交通費は、実費を支給する。新幹線の利用は", // 9
		"片道 100km 以上の場合に限る。",   // 10
		"第３章 雑 則",              // 11
		"第 6 条（改廃）",            // 12
		"この規程の改廃は、取締役会の決議による。", // 13
	}
	sheet := func(name string, row int) extract.Locator { return extract.Locator{Sheet: name, Row: row} }
	xlsx := []string{"出張旅費単価表", "区分\t日当\t宿泊料\t備考", "一般従業員\t¥3,000\t¥12,000", "課長以上\t¥4,000\t¥15,000\t役員は別表", "嘱託\t\t¥10,000\t日当なし", "消費税率\t10%", "宿泊料は東京23区内は別途加算あり", "内部メモ", "仮単価 宿泊料 13,500円 案", "出張申請書"}
	xlsxLocs := []extract.Locator{sheet("単価表", 2), sheet("単価表", 4), sheet("単価表", 5), sheet("単価表", 6), sheet("単価表", 7), sheet("単価表", 9),
		{Sheet: "単価表", Row: 5, Part: "D5のコメント"}, {Sheet: "作業用", Row: 1, Hidden: true}, {Sheet: "作業用", Row: 2, Hidden: true}, sheet("申請書", 1)}
	heading := func(h string) extract.Locator { return extract.Locator{Heading: h} }
	docx := []string{"第3条（日当）", "日当は、出張1日につき3,000円とする。", "第4条（宿泊料）", "宿泊料は、1泊につき12,000円を上限とする。", "令和8年度に日当を改定する案を検討中。"}
	docxLocs := []extract.Locator{heading("第3条（日当）"), heading("第3条（日当）"), heading("第4条（宿泊料）"), heading("第4条（宿泊料）"), {Part: "コメント1"}}
	captioned := []string{"（目的）", "第１条 この規則は、従業員の就業に関する事項を定める", "ものである。", "（適用範囲）", "第２条 この規則は、すべての従業員に適用する。"}
	tests := []struct {
		name        string
		f           *index.File
		first, last int
		start, end  int
		claims      []string
	}{
		{name: "a PDF's spaced article, to its end", f: file(pdf, pages(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)), first: 3, last: 3, start: 2, end: 3,
			claims: []string{"日当は、出張 1 日につき一般従業員 3,000 円、課長以上 4,000 円とする。"}},
		{name: "a PDF's article with its amounts", f: file(pdf, pages(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)), first: 5, last: 5, start: 4, end: 7},
		{name: "an article up to a chapter", f: file(pdf, pages(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)), first: 9, last: 9, start: 8, end: 10},
		{name: "an article up to the end of its page", f: file(pdf, pages(1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2)), first: 5, last: 5, start: 4, end: 6},
		{name: "a sheet's table from its header to a row left empty", f: file(xlsx, xlsxLocs), first: 3, last: 3, start: 2, end: 5,
			claims: []string{"区分 | 日当 | 宿泊料 | 備考 / 一般従業員 | ¥3,000 | ¥12,000 / 課長以上 | ¥4,000 | ¥15,000 | 役員は別表 / 嘱託 |  | ¥10,000 | 日当なし"}},
		{name: "a sheet's line stops at the next sheet", f: file(xlsx, xlsxLocs), first: 9, last: 9, start: 9, end: 9, claims: []string{"仮単価 宿泊料 13,500円 案"}},
		{name: "a comment is not joined to rows", f: file(xlsx, xlsxLocs), first: 6, last: 6, start: 6, end: 6, claims: []string{"消費税率 | 10%"}},
		{name: "a Word heading ends an article", f: file(docx, docxLocs), first: 2, last: 2, start: 1, end: 2},
		{name: "a Word comment is not joined to the article", f: file(docx, docxLocs), first: 4, last: 4, start: 3, end: 4},
		{name: "an article under its caption", f: file(captioned, nil), first: 3, last: 3, start: 1, end: 3,
			claims: []string{"第１条 この規則は、従業員の就業に関する事項を定める / ものである。"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := unitOf(tc.f, tc.first, tc.last)
			if u.start != tc.start || u.end != tc.end || tc.claims != nil && !slices.Equal(u.claims, tc.claims) {
				t.Errorf("unit L%d-L%d %q, want L%d-L%d %q", u.start, u.end, u.claims, tc.start, tc.end, tc.claims)
			}
			for _, c := range u.claims {
				if strings.Contains(c, "\t") {
					t.Errorf("a claim holds a tab: %q", c)
				}
			}
		})
	}
	// What a hidden sheet says is marked as such.
	f := file(xlsx, xlsxLocs)
	e, ok := localEvidence(f, &research.Hit{Path: "tanka.xlsx"}, unitOf(f, 9, 9), nil, "宿泊料")
	if !ok || !slices.Contains(e.Labels, HiddenLabel) || !strings.Contains(e.Where, "(非表示)") || !strings.Contains(shownClaims(e)[0], "非表示シート") {
		t.Errorf("hidden sheet evidence %+v", e)
	}
}

// Evidence from a PDF whose Japanese text was laid out with spaces
// between characters (年 次 有 給 休 暇) is about the words it states,
// as the index reads it.
func TestEvidenceAboutSpacedText(t *testing.T) {
	e := Evidence{Title: "就 業 規 則", Claim: "年 次 有 給 休 暇 は 10 日 と す る。", Lines: []string{"第 21 条 （年 次 有 給 休 暇）", "年 次 有 給 休 暇 は 10 日 と す る。"}}
	if !about(e, []string{"有給", "休暇"}) {
		t.Errorf("evidence %q is not about 有給 休暇", e.Claim)
	}
	if about(e, []string{"育児", "休業"}) {
		t.Errorf("evidence %q is about 育児 休業", e.Claim)
	}
}
