package index

import (
	"fmt"
	"strings"
	"testing"
)

// unitOf returns the unit that holds the first line with sub.
func unitOf(t *testing.T, s *structure, sub string) unit {
	t.Helper()
	for i, l := range s.lines {
		if strings.Contains(l, sub) {
			if k := s.of[i]; k >= 0 {
				return s.units[k]
			}
			t.Fatalf("line %d %q is in no unit", i+1, l)
		}
	}
	t.Fatalf("no line holds %q", sub)
	return unit{}
}

// plainOf is the plain text of the unit that holds sub.
func plainOf(t *testing.T, s *structure, sub string) string {
	t.Helper()
	for i, l := range s.lines {
		if strings.Contains(l, sub) && s.of[i] >= 0 {
			return s.plain(s.of[i])
		}
	}
	t.Fatalf("no unit holds %q", sub)
	return ""
}

// A rule's table written in HTML inside Markdown, as the real ones are: a
// header row of <th>, rows over several lines with a <th> row header and
// styled <td> cells. Each row is one unit that reads with its headers.
func TestStructureHTMLTable(t *testing.T) {
	text := "## 第20条（特別休暇）\n社員が申請した場合は、次のとおり特別休暇を与える。\n\n" +
		"<table>\n<thead>\n<tr>\n<th>事由</th>\n<th style=\"width:30%\">休暇日数</th>\n</tr>\n</thead>\n<tbody>\n" +
		"<tr>\n<th scope=\"row\">本人が結婚したとき</th>\n<td style=\"text-align:center\">最大5日</td>\n</tr>\n" +
		"<tr>\n<th scope=\"row\">子女が結婚するとき</th>\n<td style=\"text-align:center\">最大2日</td>\n</tr>\n" +
		"<tr><td>配偶者が出産したとき</td><td>最大2日</td></tr>\n" +
		"</tbody>\n</table>\n"
	s := structureOf(Lines(text))
	row := unitOf(t, s, "本人が結婚したとき")
	if row.kind != unitRow || row.header < 0 || s.lines[row.start] != "<tr>" || s.lines[row.end] != "</tr>" {
		t.Fatalf("本人's row is %s L%d-L%d (header %d)", row.kind, row.start+1, row.end+1, row.header)
	}
	for _, tc := range []struct{ sub, want string }{
		{"本人が結婚したとき", "本人が結婚したとき | 休暇日数: 最大5日"},
		{"子女が結婚するとき", "子女が結婚するとき | 休暇日数: 最大2日"},
		{"配偶者が出産したとき", "配偶者が出産したとき | 休暇日数: 最大2日"},
	} {
		if got := plainOf(t, s, tc.sub); got != tc.want {
			t.Errorf("row %s reads %q, want %q", tc.sub, got, tc.want)
		}
	}
	if h := s.units[row.header]; !h.head || s.plain(row.header) != "事由 | 休暇日数" {
		t.Errorf("header row %q (head %v)", s.plain(row.header), h.head)
	}
	if row.lead < 0 || !strings.Contains(s.text(row.lead), "次のとおり") {
		t.Errorf("the table's lead-in is %d", row.lead)
	}
	if row.heading < 0 || !strings.Contains(s.text(row.heading), "第20条") {
		t.Errorf("the row stands under %d, want the article", row.heading)
	}
}

// Tables a word processor exports, <td> cells only: the header is read
// from the cells themselves. A first row of labels over rows of numbers
// heads its columns, a row under it whose first cell is empty goes on
// naming them (the name spanning the empty cells to its right), and a
// table two rows across is keyed by its first row. A table of label and
// sentence pairs has no header.
func TestStructureTDOnlyTables(t *testing.T) {
	td := func(rows ...[]string) string {
		var b strings.Builder
		b.WriteString("<table>\n")
		for _, r := range rows {
			b.WriteString("  <tr>\n")
			for _, c := range r {
				b.WriteString("    <td>" + c + "</td>\n")
			}
			b.WriteString("  </tr>\n")
		}
		return b.String() + "</table>\n\n"
	}
	text := "## 比例付与\n\n" +
		td([]string{"週所定労働日数", "１年間の所定労働日数", "勤続年数", "", ""},
			[]string{"", "", "６か月", "１年 ６か月", "２年 ６か月"},
			[]string{"４日", "169日～216日", "7日", "8日", "9日"},
			[]string{"３日", "121日～168日", "5日", "6日", "6日"}) +
		td([]string{"勤続 期間", "1年 6ヶ月", "2年 6ヶ月", "3年 6ヶ月"},
			[]string{"日数", "11日", "12日", "14日"}) +
		td([]string{"けん責", "始末書を提出させて将来を戒める。"},
			[]string{"減給", "減給は1回の額が平均賃金の1日分の5割を超えない。"}) +
		td([]string{"始業時刻", "１０時００分"}, []string{"終業時刻", "１９時００分"}) +
		td([]string{"チェック", "項目", "期限"}, []string{"", "書類提出", "3日以内"}, []string{"", "面談", "7日以内"}, []string{"✓", "研修", "30日以内"})
	s := structureOf(Lines(text))
	for _, tc := range []struct{ sub, want string }{
		{"121日～168日", "３日 | １年間の所定労働日数: 121日～168日 | 勤続年数 ６か月: 5日 | 勤続年数 １年 ６か月: 6日 | 勤続年数 ２年 ６か月: 6日"},
		{"11日", "日数 | 1年 6ヶ月: 11日 | 2年 6ヶ月: 12日 | 3年 6ヶ月: 14日"},
		{"将来を戒める", "けん責 | 始末書を提出させて将来を戒める。"},
		{"減給は1回", "減給 | 減給は1回の額が平均賃金の1日分の5割を超えない。"},
		{"１９時", "終業時刻 | １９時００分"},
		// Data rows with an empty first cell are no header.
		{"書類提出", "項目: 書類提出 | 期限: 3日以内"},
		{"面談", "項目: 面談 | 期限: 7日以内"},
	} {
		if got := plainOf(t, s, tc.sub); got != tc.want {
			t.Errorf("row %s reads %q, want %q", tc.sub, got, tc.want)
		}
	}
	for _, sub := range []string{"週所定労働日数", "６か月", "勤続 期間"} {
		if u := unitOf(t, s, sub); !u.head || u.header >= 0 {
			t.Errorf("the row of %s is not a header (head %v, header %d)", sub, u.head, u.header)
		}
	}
	for _, sub := range []string{"けん責", "始業時刻"} {
		if u := unitOf(t, s, sub); u.head {
			t.Errorf("the row of %s is taken for a header", sub)
		}
	}
}

// Markdown and reStructuredText list-tables: rows with their column
// headers, the header row marked as such.
func TestStructureMarkdownAndRSTTables(t *testing.T) {
	md := "| 区分 | 宿泊出張 | 日帰り出張 |\n|---|---|---|\n| 役員 | 4,000円 | 2,000円 |\n| **一般社員** | 2,000円 | [1,000円](#note) |\n"
	s := structureOf(Lines(md))
	if got := plainOf(t, s, "一般社員"); got != "一般社員 | 宿泊出張: 2,000円 | 日帰り出張: 1,000円" {
		t.Errorf("Markdown row reads %q", got)
	}
	rst := ".. list-table:: 注意すべきリンク・テキストの文言の例\n   :header-rows: 1\n\n   *  -  NG\n      -  OK\n   *  -  ○○は「こちら」\n      -  「○○はこちら」\n\n次の段落。\n"
	s = structureOf(Lines(rst))
	row := unitOf(t, s, "○○は「こちら」")
	if row.kind != unitRow || row.end-row.start != 1 {
		t.Fatalf("list-table row is %s L%d-L%d", row.kind, row.start+1, row.end+1)
	}
	if got := plainOf(t, s, "○○は「こちら」"); got != "○○は「こちら」 | OK: 「○○はこちら」" {
		t.Errorf("list-table row reads %q", got)
	}
	if row.lead < 0 || !strings.Contains(s.text(row.lead), "文言の例") {
		t.Errorf("list-table row's lead is %d, want its caption", row.lead)
	}
	if u := unitOf(t, s, "次の段落"); u.kind != unitText {
		t.Errorf("the paragraph after the list-table is %s", u.kind)
	}
}

// A list item reads with its lead-in: the sentence before the list, a
// parent item, or an item at the same indentation that ends in 次のとおり
// (1. …次のとおり then 1. 本人が…).
func TestStructureListLeadIn(t *testing.T) {
	text := "# 就業規則\n\n## 第20条（慶弔休暇）\n" +
		"1. 社員が申請した場合は、次のとおり慶弔休暇を与える。\n" +
		"1. 本人が結婚したとき・・・5日\n" +
		"2. 子が結婚するとき・・・2日\n" +
		"   結婚式の日を含む。\n\n" +
		"以下のことに気を付けて報告するようにしてください。\n\n" +
		"- 発生した事象について正確に記載する\n" +
		"  - 「エラーが発生しました」ではわかりません。\n" +
		"- 正確な用語を利用する\n"
	s := structureOf(Lines(text))
	for _, tc := range []struct{ item, lead string }{
		{"本人が結婚したとき", "次のとおり"},
		{"子が結婚するとき", "次のとおり"},
		{"発生した事象", "気を付けて"},
		{"エラーが発生しました", "発生した事象"},
		{"正確な用語", "気を付けて"},
	} {
		u := unitOf(t, s, tc.item)
		if u.kind != unitItem || u.lead < 0 || !strings.Contains(s.text(u.lead), tc.lead) {
			t.Errorf("item %s: %s with lead %d, want the lead-in holding %s", tc.item, u.kind, u.lead, tc.lead)
		}
	}
	if u := unitOf(t, s, "子が結婚するとき"); s.lines[u.end] != "   結婚式の日を含む。" {
		t.Errorf("the item's continuation line is not in it: L%d-L%d", u.start+1, u.end+1)
	}
}

// A converted rule whose every paragraph is a list item (pandoc's
// "3.  ### （育児休業の期間等）" above its clauses): the title item stands
// over its clauses as a heading does, a clause does not.
func TestStructureTitleItemIsAHeading(t *testing.T) {
	text := "1.  # 育児休業制度\n\n" +
		"    3.  ### （育児休業の期間等）\n\n" +
		"        1.  #### 育児休業の期間は、原則として、子が1歳に達するまでを限度とする。\n\n" +
		"        2.  #### 本条第1項にかかわらず、会社は、育児休業開始予定日の指定を行うことができる。\n\n" +
		"            1.  ##### 出産予定日前に子が出生したこと\n"
	s := structureOf(Lines(text))
	clause := unitOf(t, s, "育児休業の期間は")
	title := unitOf(t, s, "（育児休業の期間等）")
	found := false
	for _, h := range s.trail(s.of[clause.start]) {
		found = found || s.units[h].start == title.start
	}
	if !found {
		t.Errorf("the clause's trail %v lacks its title item L%d", s.trail(s.of[clause.start]), title.start+1)
	}
	sub := s.of[unitOf(t, s, "出産予定日前").start]
	for _, h := range s.trail(sub) {
		if strings.Contains(s.text(h), "本条第1項") {
			t.Errorf("a clause (L%d) stands in the trail of its sub-item as a title", s.units[h].start+1)
		}
	}
}

// Headings of every kind the real documents use, an article title as a
// heading, front matter as one unit, a table of contents and code apart.
func TestStructureHeadingsAndKinds(t *testing.T) {
	text := "---\ntitle: Gitの使い方\ntime: 1.5時間\n---\n\n# 目次\n\n- [1.はじめに](#no1)\n- [2.命名](#no2)\n\n" +
		"### <a name=\"no1-3\">1.3.Javaバージョン</a>\n\n本規約はJava 17をベースに作成しています。\n\n" +
		"リンク\n--------------------------\n\nこれらのガイドラインは、リンクに関するものです。\n\n" +
		"第4条（USBメモリ等の利用）\n私物のUSBメモリは使用しない。\n\n" +
		"```console\n$ git switch fix\n```\n"
	s := structureOf(Lines(text))
	if u := unitOf(t, s, "time: 1.5時間"); u.kind != unitText || !u.meta || u.start != 1 || u.end != 2 {
		t.Errorf("front matter is %s L%d-L%d meta %v", u.kind, u.start+1, u.end+1, u.meta)
	}
	if u := unitOf(t, s, "[1.はじめに]"); u.kind != unitLinks {
		t.Errorf("a table of contents' item is %s", u.kind)
	}
	for _, h := range []string{"1.3.Javaバージョン", "リンク", "第4条（USBメモリ等の利用）"} {
		if u := unitOf(t, s, h); u.kind != unitHeading {
			t.Errorf("%s is %s, want a heading", h, u.kind)
		}
	}
	if got := plainOf(t, s, "1.3.Javaバージョン"); got != "1.3.Javaバージョン" {
		t.Errorf("the heading reads %q", got)
	}
	if u := unitOf(t, s, "私物のUSBメモリ"); u.heading < 0 || !strings.Contains(s.text(u.heading), "第4条") {
		t.Errorf("the article's text stands under %d", u.heading)
	}
	if u := unitOf(t, s, "git switch fix"); u.kind != unitCode || s.lines[u.start] != "```console" {
		t.Errorf("the code block is %s from %q", u.kind, s.lines[u.start])
	}
}

// A passage cut for its length is never cut inside a table row or a list
// item that runs over several lines.
func TestCutPassagesKeepRowsWhole(t *testing.T) {
	var b strings.Builder
	b.WriteString("# 休暇日数表\n\n<table>\n")
	for i := range 40 {
		fmt.Fprintf(&b, "<tr>\n<th>事由%d</th>\n<td>%d日</td>\n</tr>\n", i, i%5+1)
	}
	b.WriteString("</table>\n")
	lines := Lines(b.String())
	s := structureOf(lines)
	for _, p := range cutPassages(lines, nil) {
		if k := s.of[p.Start-1]; k >= 0 && s.units[k].start != p.Start-1 {
			t.Errorf("passage L%d-L%d starts inside the unit L%d-L%d", p.Start, p.End, s.units[k].start+1, s.units[k].end+1)
		}
		if k := s.of[p.End-1]; k >= 0 && s.units[k].end != p.End-1 {
			t.Errorf("passage L%d-L%d ends inside the unit L%d-L%d", p.Start, p.End, s.units[k].start+1, s.units[k].end+1)
		}
	}
}
