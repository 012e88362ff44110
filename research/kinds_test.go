package research

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lwr/config/configtest"
	"lwr/research/researchtest"
)

// conclusionOf researches a question over a folder of documents, web
// skipped, and returns the report's conclusion and its Markdown.
func conclusionOf(t *testing.T, files map[string]string, query string) (Conclusion, string) {
	t.Helper()
	root := configtest.TempDir(t)
	for rel, body := range files {
		researchtest.WriteFile(t, filepath.Join(root, filepath.FromSlash(rel)), body)
	}
	ix := openIndex(t, root)
	out, _, err := runIn(t, Options{Query: query, SourceRoot: root, Local: localOf(ix, root), SkipWeb: true, Timestamp: testNow()})
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(out.Finalized.Report)
	if err != nil {
		t.Fatal(err)
	}
	researchtest.CheckReport(t, md, root, true)
	return out.Report.Conclusion, string(md)
}

// The first key point of a question over a rule whose table is written in
// HTML is the row that answers, read with its headers, no markup shown.
func TestKeyPointOfAnHTMLTableRow(t *testing.T) {
	rule := "# 就業規則\n\n## 第20条（慶弔休暇）\n社員が申請した場合は、次のとおり慶弔休暇を与える。\n\n" +
		"<table>\n<thead>\n<tr>\n<th>事由</th>\n<th style=\"width:30%\">休暇日数</th>\n</tr>\n</thead>\n<tbody>\n" +
		"<tr>\n<th scope=\"row\">子女が結婚するとき</th>\n<td style=\"text-align:center\">最大2日</td>\n</tr>\n" +
		"<tr>\n<th scope=\"row\">本人が結婚したとき</th>\n<td style=\"text-align:center\">最大5日</td>\n</tr>\n" +
		"</tbody>\n</table>\n"
	c, md := conclusionOf(t, map[string]string{"規程/就業規則.md": rule}, "自分が結婚したら休暇は何日？")
	if len(c.Points) == 0 || c.Points[0].Text != "本人が結婚したとき | 休暇日数: 最大5日" {
		t.Fatalf("first point %+v", c.Points)
	}
	if strings.Contains(md[strings.Index(md, "### 要点"):], "<td") {
		t.Errorf("the key points show markup:\n%s", md[strings.Index(md, "### 要点"):])
	}
}

// Two editions of one rule, in folders named by year, no source
// preferences declared: the newest edition's point comes first, wherever
// the search ranked it, and the older one's is labelled 旧版.
func TestKeyPointsNewestEditionFirst(t *testing.T) {
	old := "# 旅費規程\n\n## 第6条（宿泊料）\n宿泊料は、1泊につき8,000円を上限として実費を支給する。宿泊料の上限は役職によらない。\n"
	cur := "# 旅費規程\n\n## 第6条（宿泊料）\n宿泊料は、1泊につき10,000円を上限とする。\n"
	c, _ := conclusionOf(t, map[string]string{"規程/2020/旅費規程.md": old, "規程/2024/旅費規程.md": cur}, "宿泊料の上限はいくら？")
	if len(c.Points) < 2 || c.Points[0].Where != "規程/2024/旅費規程.md" || !strings.Contains(c.Points[0].Text, "10,000円") {
		t.Fatalf("points %+v, want the 2024 edition's first", c.Points)
	}
	if p := c.Points[1]; p.Where != "規程/2020/旅費規程.md" || !slices.Contains(p.Labels, "旧版") {
		t.Errorf("the 2020 edition's point %+v, want it labelled 旧版", p)
	}
	// The two amounts conflict; the newer edition's is taken, the older
	// one's named as the old edition's.
	if len(c.Conflicts) == 0 {
		t.Fatal("no conflict between 8,000円 and 10,000円")
	}
	cf := c.Conflicts[0]
	if cf.Winner < 0 || cf.Sides[cf.Winner].Where != "規程/2024/旅費規程.md" || cf.Sides[1-cf.Winner].Class != "ローカル旧版" {
		t.Errorf("conflict %+v, want the 2024 edition's value taken over the old edition's", cf)
	}
	// A question that names the old edition's year wants its text: the
	// search's order stands (relevance ranks the 2020 edition first).
	c, _ = conclusionOf(t, map[string]string{"規程/2020/旅費規程.md": old, "規程/2024/旅費規程.md": cur}, "2020年の旅費規程では宿泊料の上限はいくらだった？")
	if len(c.Points) == 0 || c.Points[0].Where != "規程/2020/旅費規程.md" || !strings.Contains(c.Points[0].Text, "8,000円") {
		t.Errorf("points %+v, want the 2020 edition's first for a question that names 2020", c.Points)
	}
}

// Two editions of a collection of guides, in folders named by edition,
// the newer one reorganised (its rule in another file): the newer
// edition's point comes first though the older one's file ranks higher,
// and the older one's is labelled 旧版.
func TestKeyPointsNewerCollectionFirst(t *testing.T) {
	files := map[string]string{
		"社内/guide_2020-04/rules/password.md": "# パスワード\n\n## 長さ\n\nパスワードの長さは8文字以上とする。パスワードの長さが足りない場合は登録できない。パスワードは英数字を混ぜる。\n",
		"社内/guide_2026-03/auth/login.md":     "# ログイン\n\n## パスワード\n\nパスワードは12文字以上とする。\n",
	}
	c, _ := conclusionOf(t, files, "パスワードの長さは何文字以上？")
	if len(c.Points) < 2 || c.Points[0].Where != "社内/guide_2026-03/auth/login.md" || !strings.Contains(c.Points[0].Text, "12文字") {
		t.Fatalf("points %+v, want the 2026-03 edition's first", c.Points)
	}
	if p := c.Points[1]; !slices.Contains(p.Labels, "旧版") {
		t.Errorf("the 2020-04 edition's point %+v, want it labelled 旧版", p)
	}
}

// A blank form named by the question's words (an ISSUE_TEMPLATE request
// for a side job) ranks first, and no point states the asked value: the
// rule's point comes before the form's, which only says what to submit.
func TestKeyPointsBlankFormAfterTheRule(t *testing.T) {
	var filler strings.Builder
	for i, topic := range []string{"服務", "出勤", "遅刻", "休日", "休暇", "賃金", "賞与", "退職", "解雇", "表彰", "懲戒", "安全", "衛生", "教育", "災害補償"} {
		fmt.Fprintf(&filler, "### 第%d条　%s\n\n1. 社員の%sについては、別に定めるところによる。\n2. 会社は、%sに関する事項を社員に周知する。\n\n", 20+i, topic, topic, topic)
	}
	rule := "# 就業規則\n\n### 第5条　採用手続\n\n1. 会社は、選考試験を行い、合格したものを採用する。\n\n" + filler.String() +
		"### 第12条　副業・兼業\n\n1. 社員は、勤務時間外において、他の会社等の業務に従事することができる。\n" +
		"2. 社員は、前項の業務に従事するにあたっては、事前に、会社に所定の届出を行うものとする。\n"
	form := "---\nname: 副業・兼業届\nabout: 副業・兼業の届出\ntitle: 副業・兼業届\nlabels: help wanted\n---\n\n## 副業・兼業の内容\n\n<!--\n勤務先と業務の内容を入力してください\n-->\n"
	c, _ := conclusionOf(t, map[string]string{"handbook/01_就業規則.md": rule, "handbook/ISSUE_TEMPLATE/02_副業・兼業届.md": form}, "副業してもいい？何か手続きっている？")
	if len(c.Points) < 2 || c.Points[0].Where != "handbook/01_就業規則.md" {
		t.Fatalf("points %+v, want the rule's first", c.Points)
	}
	if !strings.Contains(c.Points[0].Text, "届出") && !strings.Contains(c.Points[0].Text, "従事することができる") {
		t.Errorf("the rule's point %+v is not its side-job article", c.Points[0])
	}
}

// Two organisations' folders with rules of their own: each one's answer
// line is among the first points, each cited from its own folder.
func TestKeyPointsOnePerOrganisation(t *testing.T) {
	files := map[string]string{
		"A社/就業規則.md":    "# 就業規則\n\n## 第20条（結婚休暇）\n本人が結婚したときは、結婚休暇として5日を与える。\n結婚休暇の申請は所属長に行う。\n",
		"A社/結婚休暇の手引.md": "# 結婚休暇の手引\n\n結婚休暇は5日。結婚休暇の日数は就業規則第20条による。結婚休暇を取るときは早めに申請する。\n",
		"B社/就業規則.md":    "# 就業規則\n\n## 第18条（特別休暇）\n本人が結婚したときは、特別休暇として3日を与える。\n",
	}
	c, _ := conclusionOf(t, files, "結婚休暇は何日もらえる？")
	if len(c.Points) < 2 {
		t.Fatalf("points %+v", c.Points)
	}
	orgs := map[string]string{}
	for _, p := range c.Points[:2] {
		orgs[strings.Split(p.Where, "/")[0]] = p.Text
	}
	if !strings.Contains(orgs["A社"], "5日") || !strings.Contains(orgs["B社"], "3日") {
		t.Errorf("the first two points %+v, want A社's 5日 and B社's 3日", c.Points[:2])
	}
}

// When no document states the asked value, the conclusion says 資料に明記なし
// first and labels the points 関連, never passing a line that only names
// the question's words off as the answer.
func TestKeyPointsNotStated(t *testing.T) {
	files := map[string]string{
		"規程/ハラスメント防止規程.md": "# ハラスメント防止規程\n\n## 第3条（禁止行為）\n結婚や出産を理由とする嫌がらせをしてはならない。\n",
		"規程/就業規則.md":       "# 就業規則\n\n## 第20条（結婚休暇）\n本人が結婚したときは、結婚休暇を与える。日数は別に定める。\n",
	}
	c, md := conclusionOf(t, files, "結婚休暇は何日？")
	if c.NotStated == nil {
		t.Fatalf("no 資料に明記なし: points %+v", c.Points)
	}
	for _, p := range c.Points {
		if !slices.Contains(p.Labels, "関連") {
			t.Errorf("point %+v is not labelled 関連", p)
		}
	}
	points := md[strings.Index(md, "### 要点"):]
	if first := strings.Split(strings.TrimSpace(strings.TrimPrefix(points, "### 要点")), "\n")[0]; !strings.HasPrefix(first, "- 資料に明記なし") {
		t.Errorf("the first key point is %q", first)
	}
	// The same question over a rule that states it has no such notice.
	files["規程/就業規則.md"] = "# 就業規則\n\n## 第20条（結婚休暇）\n本人が結婚したときは、結婚休暇として5日を与える。\n"
	if c, _ := conclusionOf(t, files, "結婚休暇は何日？"); c.NotStated != nil || len(c.Points) == 0 || !strings.Contains(c.Points[0].Text, "5日") {
		t.Errorf("notice %+v, points %+v", c.NotStated, c.Points)
	}
	// A sample project's requirements state it too, though the search
	// weighs a sample's values less than a rule's.
	sample := map[string]string{"Sample_Project/README.md": "# サンプルプロジェクト（プロジェクト管理システム）\n\n### 性能要件\n\n- 画面システムは応答時間３秒以内。\n- それ以上に時間がかかると想定される機能は、ディレード処理とする。\n"}
	if c, _ := conclusionOf(t, sample, "プロジェクト管理システムの画面って、何秒以内に応答すればいい？"); c.NotStated != nil || len(c.Points) == 0 || !strings.Contains(c.Points[0].Text, "３秒") {
		t.Errorf("sample: notice %+v, points %+v", c.NotStated, c.Points)
	}
}

// A clause that leads into a case each (常勤正社員の場合 25,000円, 上記以外の
// 場合 …), the question naming none: the point is the clause with its
// cases, not the case the others leave out alone. A question that names a
// condition gets the case's own line.
func TestKeyPointLeadInWithItsCases(t *testing.T) {
	rule := "# 賃金規程\n\n### 第16条　通勤手当\n\n1. 通勤手当は、次のとおり算定し、支給する。\n" +
		"\t1. 通勤手当は、次条による住宅手当との合算額が次の上限額を超えないように支給する。合算額が上限額を超える場合は通勤手当の支給を優先する。\n" +
		"\t\t* 常勤正社員の場合 ・・・ `25,000円`\n" +
		"\t\t* 上記以外の場合 ・・・ `1,250円 × 月平均所定労働日数`\n" +
		"\t2. 公共交通機関を利用して通勤する場合、次のとおり算定する。\n" +
		"\t    * 会社が合理的であると認めた通勤経路・方法に限り、交通費を実費支給する。\n\n" +
		"### 第17条　住宅手当\n\n1. 住宅手当は、月額10,000円とする。\n"
	files := map[string]string{"rules/002_賃金規程.md": rule}
	c, _ := conclusionOf(t, files, "通勤手当って月いくらまで出るの？")
	if len(c.Points) == 0 {
		t.Fatal("no points")
	}
	p := c.Points[0]
	if p.Line != 6 || p.EndLine != 8 || !strings.Contains(p.Text, "25,000円") || !strings.Contains(p.Text, "上記以外") || strings.Contains(p.Text, "公共交通機関") {
		t.Errorf("first point %+v, want L6-L8: the clause with both cases", p)
	}
	c, _ = conclusionOf(t, files, "パートだと通勤手当って月いくらまで出るの？")
	if len(c.Points) == 0 || c.Points[0].Line != 8 || c.Points[0].EndLine > 8 {
		t.Errorf("points %+v, want the case of everyone else (L8) first", c.Points)
	}
}

// An answer that holds only part of the question (a child-care leave's
// days for a question about a wife's childbirth) follows one that holds
// all of it, wherever the search ranked the two files.
func TestKeyPointsWholeAnswerFirst(t *testing.T) {
	var care strings.Builder
	care.WriteString("# 育児介護休業規程\n\n")
	for i, topic := range []string{"育児休業", "出生時育児休業", "介護休業", "子の看護休暇", "介護休暇"} {
		fmt.Fprintf(&care, "## 第%d条（%s）\n\n1. 出産した従業員及び出産予定の従業員は、%sを取得することができる。\n2. %sの休暇の日数は、1年間につき5日を限度とする。\n\n", i+1, topic, topic, topic)
	}
	var work strings.Builder
	work.WriteString("# 就業規則\n\n")
	for i, topic := range []string{"服務", "出勤", "遅刻", "休日", "賃金", "賞与", "退職", "解雇", "表彰", "懲戒", "安全", "衛生"} {
		fmt.Fprintf(&work, "## 第%d条（%s）\n\n1. 社員の%sについては、別に定めるところによる。\n2. 会社は、%sに関する事項を社員に周知する。\n\n", 20+i, topic, topic, topic)
	}
	work.WriteString("## 第40条（特別休暇）\n\n1. 社員が次の各号に該当するときは、特別休暇を与える。\n    1. 本人が結婚するとき・・・5日\n    2. 妻が出産するとき・・・3日\n")
	files := map[string]string{"rules/06_育児介護休業規程.md": care.String(), "rules/01_就業規則.md": work.String()}
	c, _ := conclusionOf(t, files, "奥さんが出産するとき、休みって何日もらえる？")
	if len(c.Points) == 0 || c.Points[0].Where != "rules/01_就業規則.md" || !strings.Contains(c.Points[0].Text, "3日") {
		t.Errorf("points %+v, want the rule of a wife's childbirth (3日) first", c.Points)
	}
}

// Rows alike under a clause (役員 7,500円, 一般社員 2,500円), the question
// naming neither: the point is the clause with its rows, and stops before
// the next clause.
func TestKeyPointClauseWithItsRows(t *testing.T) {
	rule := "# 出張旅費規程\n\n### 第13条　日当\n\n" +
		"1. 日当は、出張先が遠隔地（勤務地からの移動距離が60km以上であることが目安）であると会社が認めた場合のみ支給する。\n" +
		"2. 日当は、次の計算式で算出した額を支給する。\n" +
		"\t* 役員 ・・・ 7,500円 × 出張日数\n" +
		"    * 一般社員 ・・・ 2,500円 × 出張日数\n" +
		"3. 日当計算の際の発着時間及び所要時間は、次のとおりとする。\n" +
		"    * 勤務地から出張する場合、勤務地を出発した時間を出発時間とする。\n"
	c, _ := conclusionOf(t, map[string]string{"rules/004_出張旅費規程.md": rule}, "出張の日当っていくら出る？")
	if len(c.Points) == 0 {
		t.Fatal("no points")
	}
	if p := c.Points[0]; p.Line != 6 || p.EndLine != 8 || !strings.Contains(p.Text, "2,500円") || strings.Contains(p.Text, "発着時間") {
		t.Errorf("first point %+v, want L6-L8: the clause with both rows", p)
	}
}
