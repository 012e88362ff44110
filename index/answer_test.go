package index

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lwr/analyzer"
	"lwr/config/configtest"
)

// specialLeave is a rule shaped like the real ones: an article, a
// sentence that leads into an HTML table of days (row headers in <th>,
// styled cells over several lines), then another article.
const specialLeave = "# 就業規則\n\n## 第19条（年次有給休暇）\n年次有給休暇は、入社6か月後に10日を付与する。\n\n" +
	"## 第20条（慶弔休暇）\n社員が申請した場合は、次のとおり慶弔休暇を与える。\n\n" +
	"<table>\n<thead>\n<tr>\n<th>事由</th>\n<th style=\"width:30%\">休暇日数</th>\n</tr>\n</thead>\n<tbody>\n" +
	"<tr>\n<th scope=\"row\">本人が結婚したとき</th>\n<td style=\"text-align:center\">最大5日</td>\n</tr>\n" +
	"<tr>\n<th scope=\"row\">子女が結婚するとき</th>\n<td style=\"text-align:center\">最大2日</td>\n</tr>\n" +
	"<tr>\n<th scope=\"row\">配偶者が出産したとき</th>\n<td style=\"text-align:center\">最大2日</td>\n</tr>\n" +
	"</tbody>\n</table>\n\n" +
	"## 第21条（休職）\n業務外の傷病により欠勤が1か月を超えたときは休職を命じることがある。\n"

// The row that answers (本人, 5日) is shown with the header row and the
// sentence it stands under, never from the middle of the table; the
// answer reads as the row with its headers, without markup.
func TestAnswerIsTheRowOfAnHTMLTable(t *testing.T) {
	root := tree(t, map[string]string{"規程/就業規則.md": specialLeave, "メモ/雑談.md": "# 雑談\n\n結婚式の二次会の店を探している。\n"})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	res := find(t, ix, "自分が結婚したら休暇は何日もらえる？", SearchOptions{Limit: 3, MaxChars: 400})
	if len(res.Matches) == 0 || res.Matches[0].Path != "規程/就業規則.md" {
		t.Fatalf("matches %v", paths(res))
	}
	m := res.Matches[0]
	if !strings.Contains(m.Snippet, "本人が結婚したとき") || !strings.Contains(m.Snippet, "最大5日") || !strings.Contains(m.Snippet, "<th>事由</th>") {
		t.Errorf("snippet L%d-L%d lacks the row or its header:\n%s", m.StartLine, m.EndLine, m.Snippet)
	}
	lines := Lines(specialLeave)
	// It starts at the sentence, the table or its header row.
	switch first := strings.TrimSpace(lines[m.StartLine-1]); {
	case first == "社員が申請した場合は、次のとおり慶弔休暇を与える。", first == "<table>", first == "<thead>", first == "## 第20条（慶弔休暇）":
	case first == "<tr>" && strings.TrimSpace(lines[m.StartLine]) == "<th>事由</th>":
	default:
		t.Errorf("snippet starts at L%d %q, inside the table", m.StartLine, first)
	}
	if last := strings.TrimSpace(lines[m.EndLine-1]); last != "</tr>" && last != "</table>" && last != "</tbody>" {
		t.Errorf("snippet ends at L%d %q, inside a row", m.EndLine, last)
	}
	a := m.Answer
	if a == nil || a.Text != "本人が結婚したとき | 休暇日数: 最大5日" || a.Stated < 1 || a.Kind != "row" {
		t.Fatalf("answer %+v, want the 本人 row with its header", a)
	}
	if got := strings.Join(lines[a.StartLine-1:a.EndLine], "\n"); !strings.Contains(got, "本人が結婚したとき") || !strings.Contains(got, "最大5日") {
		t.Errorf("the answer's lines L%d-L%d are %q", a.StartLine, a.EndLine, got)
	}
}

// A list item that states the answer is shown with the sentence that says
// what the list is.
func TestAnswerIsAListItemWithItsLeadIn(t *testing.T) {
	rule := "# 慶弔休暇規程\n\n## 第3条（休暇の日数）\n" +
		"1. 社員が申請した場合は、次のとおり慶弔休暇を与える。\n" +
		"1. 本人が結婚したとき・・・5日\n" +
		"2. 子が結婚するとき・・・2日\n" +
		"3. 父母が死亡したとき・・・5日\n" +
		"4. 祖父母が死亡したとき・・・3日\n\n" +
		"## 第4条（申請）\n休暇を取る社員は、事前に所属長へ申請する。\n"
	root := tree(t, map[string]string{"規程/慶弔休暇規程.md": rule})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	for _, tc := range []struct{ query, item string }{
		{"親が亡くなったら何日休める？", "3. 父母が死亡したとき・・・5日"},
		{"子どもが結婚するときの休みは何日？", "2. 子が結婚するとき・・・2日"},
	} {
		res := find(t, ix, tc.query, SearchOptions{Limit: 1, MaxChars: 300})
		if len(res.Matches) != 1 {
			t.Fatalf("%s: %v", tc.query, paths(res))
		}
		m := res.Matches[0]
		if !strings.Contains(m.Snippet, "次のとおり慶弔休暇を与える") || !strings.Contains(m.Snippet, tc.item) {
			t.Errorf("%s: snippet L%d-L%d lacks the lead-in or %s:\n%s", tc.query, m.StartLine, m.EndLine, tc.item, m.Snippet)
		}
		if m.Answer == nil || m.Answer.Text != tc.item {
			t.Errorf("%s: answer %+v, want %s", tc.query, m.Answer, tc.item)
		}
	}
}

// A form's example value (（例）宿泊費 5,000円) is no answer to what the
// rule's limit is: the rule comes first, and the form's example line does
// not count as stating the value.
func TestFormExampleIsNoAnswer(t *testing.T) {
	root := tree(t, map[string]string{
		"規程/旅費規程.md": "# 旅費規程\n\n## 第1条（目的）\nこの規程は、出張の旅費について定める。\n\n## 第6条（宿泊料）\n宿泊料は、1泊につき10,000円を上限として実費を支給する。\n",
		"様式/出張旅費精算書の記入例.md": "# 出張旅費精算書 記入例\n\n## 宿泊料の欄\n（例）宿泊料 5,000円（1泊）\n" +
			"宿泊料の欄には、領収書の金額を記入する。\n出張旅費精算書の宿泊料の上限の欄は空欄でよい。\n",
	})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	res := find(t, ix, "出張の宿泊料の上限はいくら？", SearchOptions{Limit: 2, MaxChars: 300})
	if len(res.Matches) != 2 || res.Matches[0].Path != "規程/旅費規程.md" {
		t.Fatalf("matches %v, want the rule first", paths(res))
	}
	if a := res.Matches[0].Answer; a == nil || !strings.Contains(a.Text, "10,000円") || a.Stated < 1 {
		t.Errorf("the rule's answer is %+v", a)
	}
	form := res.Matches[1]
	if form.Kind != KindForm {
		t.Errorf("the form is of kind %q", form.Kind)
	}
	if a := form.Answer; a != nil && a.Stated >= 1 {
		t.Errorf("the form's answer %+v states the value", a)
	}
}

// A blank form (an ISSUE_TEMPLATE request whose title is the question's
// word) follows the rule that says what holds, though its short title
// outscores the rule's article; a question about the form itself, and a
// guide to filling one in, keep their rank.
func TestBlankFormFollowsTheRule(t *testing.T) {
	rule := "# 福利厚生規程\n\n### 第1条　目的\n\n1. この規程は、社員の福利厚生について定める。\n\n" +
		"### 第4条　書籍購入\n\n1. 会社は、社員が自己学習のために購入する書籍の代金を支給する。\n2. 上限は、1事業年度につき20,000円までとする。\n\n" +
		"### 第5条　機材購入補助\n\n1. 機材購入補助は、社員が業務のために購入する機材の代金の全額又は一部を補助するものである。\n" +
		"2. 機材購入補助を希望する者は、購入日から6か月以内に申請を行い、承認を得なければならない。\n" +
		"3. 補助額の上限は、1事業年度につき40,000円までとする。\n"
	form := "---\nname: 補助申請\nabout: 補助制度の利用\ntitle: 補助申請\nlabels: help wanted\n---\n\n" +
		"## 使用する補助制度\n\n<!--\n書籍購入補助申請\n機材購入補助申請\nのいずれかを入力してください\n-->\n\n" +
		"## 金額\n\n<!--\n補助申請する金額を入力してください\n-->\n"
	root := tree(t, map[string]string{
		"handbook/04_福利厚生規程.md":              rule,
		"handbook/ISSUE_TEMPLATE/41_補助申請.md": form,
		"handbook/アンケート/記入方法.md":             "# アンケート記入方法\n\n## 回答方法\n\nアンケートの回答は、所定のファイルをコピーして記入し、pull requestで提出する。\n",
	})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	res := find(t, ix, "仕事用のモニターを自腹で買ったんだけど、補助って出る？いくらまで？", SearchOptions{Limit: 2, MaxChars: 300})
	if len(res.Matches) != 2 || res.Matches[0].Path != "handbook/04_福利厚生規程.md" || res.Matches[1].Kind != KindForm {
		t.Fatalf("matches %v, want the rule, then the form", paths(res))
	}
	if a := res.Matches[0].Answer; a == nil || !strings.Contains(a.Text, "40,000円") {
		t.Errorf("the rule's answer is %+v", a)
	}
	res = find(t, ix, "補助申請のテンプレートには何を書けばいい？", SearchOptions{Limit: 2, MaxChars: 300})
	if len(res.Matches) == 0 || res.Matches[0].Path != "handbook/ISSUE_TEMPLATE/41_補助申請.md" {
		t.Errorf("a question about the form: matches %v, want the form first", paths(res))
	}
	if !BlankForm("handbook/ISSUE_TEMPLATE/41_補助申請.md", "補助申請") || BlankForm("handbook/アンケート/記入方法.md", "アンケート記入方法") {
		t.Error("BlankForm: want the template a form and the guide to filling one in not")
	}
}

// Snippets are their lines exactly: the first line's indentation kept, a
// line longer than the budget shown whole, never cut inside.
func TestSnippetIsItsLinesExactly(t *testing.T) {
	long := "    " + strings.Repeat("長い説明文です。", 60) + "パスワードは12文字以上とする。"
	root := tree(t, map[string]string{
		"a.md": "# 設定\n\n    インデントされた行: パスワードの桁数\n    次の行\n",
		"b.md": "# 長い行\n\n" + long + "\n",
	})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	for _, mode := range []Mode{Ranked, FullText} {
		res := find(t, ix, "パスワード", SearchOptions{Mode: mode, Limit: 5, MaxChars: 120})
		for _, m := range res.Matches {
			var text string
			switch m.Path {
			case "a.md":
				text = "# 設定\n\n    インデントされた行: パスワードの桁数\n    次の行\n"
			case "b.md":
				text = "# 長い行\n\n" + long + "\n"
			}
			if want := strings.Join(Lines(text)[m.StartLine-1:m.EndLine], "\n"); m.Snippet != want {
				t.Errorf("%s %s:%d-%d: snippet %q, want the lines %q", mode, m.Path, m.StartLine, m.EndLine, m.Snippet, want)
			}
		}
	}
}

// A gloss in brackets (臨時社員（有期契約）) says again what the word before
// it names: a definition that holds the gloss's words but not what is
// asked of them (住宅手当) does not outrank the rule that answers.
func TestQuestionGlossSaysTheWordAgain(t *testing.T) {
	work := "# 就業規則\n\n## 第1章　総則\n\n### 第2条　社員の区分\n\n1. 社員の区分は、次のとおりとする。\n" +
		"\t* 正社員 ・・・ 期間の定めのない労働契約により雇用された者\n" +
		"\t* 臨時社員 ・・・ 有期労働契約により雇用され、正社員に該当しない者\n" +
		"\t* 嘱託社員 ・・・ 定年後に有期労働契約により再雇用された者\n"
	wage := "# 賃金規程\n\n## 第2章　正社員の賃金\n\n### 第17条　住宅手当\n\n1. 住宅手当は、月額10,000円とする。\n\n" +
		"## 第3章　臨時社員及び嘱託社員の賃金\n\n### 第21条　本章の適用範囲\n\n1. 本章は、臨時社員及び嘱託社員に適用する。\n\n" +
		"### 第28条　住宅手当\n\n1. 住宅手当は、支給しない。\n"
	root := tree(t, map[string]string{"rules/001_就業規則.md": work, "rules/002_賃金規程.md": wage})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	res := find(t, ix, "臨時社員（有期契約）でも住宅手当ってもらえる？", SearchOptions{Limit: 2, MaxChars: 300})
	if len(res.Matches) == 0 || res.Matches[0].Path != "rules/002_賃金規程.md" {
		t.Fatalf("matches %v, want the wage rule first", paths(res))
	}
	for _, tc := range []struct {
		q    string
		at   string
		want bool
	}{
		{"臨時社員（有期契約）でも住宅手当", "有期", true},
		{"臨時社員（有期契約）でも住宅手当", "住宅", false},
		{"電子帳票の出力形式（PDF・Excel）の方針", "PDF", false},
		{"再認証の間隔（アイドルタイムアウト）", "アイドル", false},
		{"（注意）有期契約", "有期", false},
	} {
		if got := glossed(tc.q, strings.Index(tc.q, tc.at)); got != tc.want {
			t.Errorf("glossed(%q at %s) = %v, want %v", tc.q, tc.at, got, tc.want)
		}
	}
}

// A chapter's heading lists several topics (採用、休職及び副業等): the
// article of one of them that the question names (第12条 副業・兼業) states
// the answer, not another article under the chapter whose own title holds
// the question's other word (第5条 採用手続). The rules are real ones
// (testdata/realrules, see its SOURCES.md).
func TestChapterHeadingNamesLessThanTheArticle(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "testdata", "realrules", "docs"))
	if err != nil {
		t.Fatal(err)
	}
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	res := find(t, ix, "副業してもいい？何か手続きっている？", SearchOptions{Limit: 3, MaxChars: 300, Dictionary: analyzer.DefaultSynonyms()})
	for _, m := range res.Matches {
		if m.Path != "tuqulore/01_就業規則.md" {
			continue
		}
		if a := m.Answer; a == nil || a.StartLine < 72 || a.EndLine > 80 {
			t.Errorf("answer %+v, want a clause of 第12条 (L73-L79)", a)
		}
		return
	}
	t.Errorf("matches %v, want tuqulore/01_就業規則.md among the first 3", paths(res))
}

// sickLeave is a rule shaped like the real ones: a condition on the
// length of service in one article, the lengths of leave by service in
// the next, and the number of times by service after them.
const sickLeave = "# 就業規則\n\n### 第18条　休職\n" +
	"1. 従業員が次のいずれかに該当するときは、休職を命ずることがある。\n" +
	"    1. 業務外の傷病による欠勤が1か月を超え、なお療養を要するとき\n" +
	"2. 前項の傷病等を原因とする休職に限り、次の各号が適用される。\n" +
	"    1. 勤続年数が1年以上の正社員のみを対象とする。\n" +
	"    2. 本人は、医療機関による診断書を事前に提出しなければならない。\n\n" +
	"### 第19条　休職期間\n" +
	"1. 休職期間は、次のとおりとする。\n" +
	"    1. 前条1項1号により休職するとき\n" +
	"        * 勤続1年以上3年未満 ・・・ 3か月以内\n" +
	"        * 勤続3年以上 ・・・ 6か月以内\n" +
	"2. 同一の事由による休職は、原則として次の回数を限度とする。\n" +
	"    * 勤続10年未満 ・・・ 通算2回\n" +
	"    * 勤続10年以上 ・・・ 通算3回\n" +
	"3. 休職期間中は、賃金を支給しない。\n"

// The question's own length of service (勤続2年) is the condition the
// answer depends on, not the answer: the line whose range holds it and
// that states a limit (3か月以内) answers どのくらいまで, not the line
// that only says who may take the leave (勤続年数が1年以上) nor the count
// of times (通算2回).
func TestAnswerIsTheLimitNotTheCondition(t *testing.T) {
	a := firstAnswer(t, "規程/就業規則.md", sickLeave, "病気で長く休むことになりそう。勤続2年だと休職ってどのくらいまでできる？")
	if a == nil || !strings.Contains(a.Text, "3か月以内") {
		t.Fatalf("answer %+v, want the line of 勤続1年以上3年未満 ・・・ 3か月以内", a)
	}
}

func TestExceptionLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"        2.  #### 本条第1項にかかわらず、日雇従業員からの申出は拒むことができる。", true},
		{"２　前項の規定にかかわらず、会社は休職を命ずることがある。", true},
		{"４　第１項の定めにかかわらず、", true},
		{"3 前2項にかかわらず、", true},
		{"2. 前項によらず、新卒者が月初に入社する場合、入社月の賃金を日割りせずに支給することがある。", true},
		{"年齢によらず支給する。", false},
		{"1. 育児休業の期間は、子が1歳に達するまでとする。", false},
		{"天候にかかわらず出社する。", false},
	} {
		if got := exceptionLine.MatchString(tc.line); got != tc.want {
			t.Errorf("exceptionLine(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

// firstAnswer searches a folder of one file and returns its first hit's
// answer (nil for none).
func firstAnswer(t *testing.T, path, body, query string) *Answer {
	t.Helper()
	root := tree(t, map[string]string{path: body})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	res := find(t, ix, query, SearchOptions{Limit: 3, MaxChars: 400})
	if len(res.Matches) == 0 {
		t.Fatalf("%s: no match", query)
	}
	return res.Matches[0].Answer
}

// shortHours is a rule shaped like the real ones: the rule of a shorter
// day, then a clause that makes an exception to it and names the hours
// and the day too.
const shortHours = "# 育児介護休業規程\n\n9.  # 所定労働時間の短縮措置等\n\n    1.  ### (育児短時間勤務)\n\n" +
	"        1.  #### 3歳に満たない子を養育する従業員は、申し出ることにより、所定労働時間を以下のように変更することができる。\n\n" +
	"            1.  #### 所定労働時間を午前9時から午後4時まで（うち休憩時間は、午前12時から午後1時までの1時間とする。）の6時間とする（1歳に満たない子を育てる女性従業員は更に別途30分ずつ2回の育児時間を請求することができる。）。\n\n" +
	"        2.  #### 本条第1項にかかわらず、日雇従業員及び1日の所定労働時間が6時間以下である従業員からの育児短時間勤務の申出は拒むことができる。\n\n" +
	"        3.  #### 申出をしようとする者は、1回につき、1か月以上1年以内の期間について、短縮を開始しようとする日の1か月前までに申し出なければならない。\n"

// The rule answers before the clause that makes an exception to it
// (本条第1項にかかわらず …), though the exception holds more of the
// question's words.
func TestAnswerIsTheRuleBeforeItsException(t *testing.T) {
	a := firstAnswer(t, "規程/育児介護休業規程.md", shortHours, "子どもが3歳になるまで時短勤務ってできる？1日何時間勤務になる？")
	if a == nil || !strings.Contains(a.Text, "午後4時まで") {
		t.Fatalf("answer %+v, want the rule of the 6時間 day", a)
	}
	// The heading marks a converter writes after the item's number are no
	// part of what the answer reads.
	if !strings.HasPrefix(a.Text, "1. 所定労働時間を") {
		t.Errorf("answer reads %q", a.Text)
	}
}

// acronyms is a style guide's rule followed by the code it shows as good
// and bad, then another rule whose words the question shares.
const acronyms = "# Java\n\n### 名前における頭字語 (アクロニム)\n\n- **[MUST]** 頭字語や略語は単語として扱うこと。\n\n" +
	"```java\n// good\nXmlHttpRequest\ngetCustomerId\n\n// bad\nXMLHTTPRequest\ngetCustomerID\n```\n\n" +
	"### TODOのスタイル\n\n- **[MUST]** TODOにはすべて大文字のTODOにコロンを続けたものにすること。\n"

// The rule a code example illustrates answers a question that quotes the
// example's identifiers, not another rule that shares a word of it.
func TestAnswerIsTheRuleItsExampleShows(t *testing.T) {
	a := firstAnswer(t, "style/java.ja.md", acronyms, "getCustomerID とか XMLHTTPRequest みたいに、略語を全部大文字で書いちゃっていい？")
	if a == nil || !strings.Contains(a.Text, "頭字語や略語は単語として扱うこと") {
		t.Fatalf("answer %+v, want the rule on acronyms", a)
	}
}

// redirect is a guide's code block whose comment states the answer, in
// the middle of the block.
const redirect = "# 一般的な処理に関する実装方法\n\n##### 完了画面表示の実装方法\n\n実装はActionクラスで行います。\n\n" +
	"```java\n    @OnDoubleSubmission\n    public HttpResponse create(HttpRequest request, ExecutionContext context) {\n        //中略 登録処理\n\n" +
	"        //ステータスコード303を指定してリダイレクト(ステータスコードを指定しない場合302になる)\n" +
	"        return new HttpResponse(303, \"redirect://completionOfCreation\");\n    }\n\n" +
	"    public HttpResponse completionOfCreation(HttpRequest request, ExecutionContext context) {\n        //完了画面の表示\n" +
	"        return new HttpResponse(\"/WEB-INF/view/project/completionOfCreation.jsp\");\n    }\n```\n"

// The answer in a long code block is its comment that states it, with the
// line it comments on, not the block's first lines.
func TestAnswerInCodeIsItsCommentedLine(t *testing.T) {
	a := firstAnswer(t, "pg/実装方法.md", redirect, "完了画面にリダイレクトするとき、ステータスコードってデフォルトのままでいいの？")
	lines := Lines(redirect)
	if a == nil || a.Kind != "code" {
		t.Fatalf("answer %+v, want the code block", a)
	}
	if got := strings.TrimSpace(lines[a.StartLine-1]); !strings.HasPrefix(got, "//ステータスコード303") || a.EndLine != a.StartLine+1 {
		t.Errorf("answer L%d-L%d starts %q, want the comment on 303 and the line under it", a.StartLine, a.EndLine, got)
	}
	if !strings.Contains(a.Text, "303") || strings.Contains(a.Text, "OnDoubleSubmission") {
		t.Errorf("answer reads %q", a.Text)
	}
}

// settings is a guide's yaml block: a key that opens more lines than an
// answer holds, under a fence that names the language.
var settings = "# 設定ファイル\n\n認証の設定は次のとおり書きます。\n\n" +
	"```yaml\npassword_policy:\n  min_length: 12\n  require_digit: true\n  require_symbol: true\n  history: 5\n  max_age_days: 90\n" +
	strings.Repeat("  # 予約\n", 8) + "session:\n  timeout: 30\n```\n"

// A block's answer is never its fence (```yaml names the language the
// question names), and a key that opens a block gives at most
// maxBlockLines of it.
func TestAnswerInCodeIsNotItsFence(t *testing.T) {
	a := firstAnswer(t, "guide/設定.md", settings, "yamlでpassword_policyはどう書く？")
	lines := Lines(settings)
	if a == nil || a.Kind != "code" {
		t.Fatalf("answer %+v, want the code block", a)
	}
	if got := strings.TrimSpace(lines[a.StartLine-1]); got != "password_policy:" {
		t.Errorf("answer L%d-L%d starts %q, want password_policy:", a.StartLine, a.EndLine, got)
	}
	if n := a.EndLine - a.StartLine + 1; n < 6 || n > maxBlockLines {
		t.Errorf("answer L%d-L%d holds %d lines, want its settings, at most %d", a.StartLine, a.EndLine, n, maxBlockLines)
	}
	a = firstAnswer(t, "guide/設定.md", settings, "yamlの例は？")
	if a == nil || a.Kind != "code" || strings.HasPrefix(strings.TrimSpace(lines[a.StartLine-1]), "```") {
		t.Errorf("answer %+v, want code lines, not the fence", a)
	}
}

// childcareLeave is a childcare-leave rule shaped like the real ones
// (a converted document: articles as title items, clauses under them):
// the leave and the narrower leave at birth each have their own article
// on how to apply, and the rule's form is 受け取る'd in a later clause.
const childcareLeave = "# 育児介護休業規程\n\n" +
	"1.  # 育児休業制度\n\n" +
	"    1.  ### （育児休業の申出の手続等）\n\n" +
	"        1.  #### 育児休業をすることを希望する従業員は、原則として育児休業開始予定日の1か月前までに育児休業申出書を人事部に提出することにより申し出るものとする。\n\n" +
	"        2.  #### 申出の日後に申出に係る子が出生したときは、申出者は、出生後2週間以内に人事部に育児休業対象児出生届を提出しなければならない。\n\n" +
	"2.  # 出生時育児休業制度\n\n" +
	"    1.  ### （出生時育児休業の申出の手続等）\n\n" +
	"        1.  #### 出生時育児休業をすることを希望する従業員は、原則として出生時育児休業開始予定日の2週間前までに出生時育児休業申出書を人事部に提出することにより申し出るものとする。\n\n" +
	"        2.  #### 会社は、出生時育児休業申出書を受け取るに当たり、必要最小限度の証明書の提出を求めることがある。\n\n" +
	"        3.  #### 申出の日後に申出に係る子が出生したときは、出生時育休申出者は、出生後2週間以内に人事部に出生時育児休業対象児出生届を提出しなければならない。\n"

// A question of 育児休業 (or 育休) is answered by the article that names
// it, not by the narrower 出生時育児休業's article: a heading that names
// the question's compound only inside a longer one does not say the
// passage is about it. 取る of 取りたい is not the 取る of 受け取る.
func TestNarrowerCompoundHeadingNamesLess(t *testing.T) {
	root := tree(t, map[string]string{"規程/06_育児介護休業規程.md": childcareLeave})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	for _, c := range []struct {
		q    string
		line int
	}{
		{"育休を取りたいんだけど、いつまでにどこへ申し出ればいい？", 7},
		{"育児休業の申出後に子が出生した場合、何をいつまでに提出しなければならないか。", 9},
		{"出生時育児休業の申出はいつまで？", 15},
	} {
		if a := answerOf(t, ix, c.q); a.StartLine != c.line {
			t.Errorf("%s: answer L%d-L%d %q, want L%d", c.q, a.StartLine, a.EndLine, a.Text, c.line)
		}
	}
}

// A heading that names the question's compound only inside a longer one
// (出生時育児休業) is the narrower thing's only when another heading of
// the file names the compound alone; a file of 出生時育児休業 alone keeps
// its headings' credit for 育児休業.
func TestNarrowedHeadingNeedsAnotherThatNamesItAlone(t *testing.T) {
	p := planRanked(Query{Words: []Word{{Text: "育児休業の申出はいつまで？"}}}, SearchOptions{})
	for _, c := range []struct {
		lines []string
		want  bool
	}{
		{[]string{"# 規程", "", "### 第9条　育児休業の申出", "1. 1か月前までに申し出る。", "", "### 第10条　出生時育児休業の申出", "1. 2週間前までに申し出る。"}, true},
		{[]string{"# 規程", "", "### 第10条　出生時育児休業の申出", "1. 2週間前までに申し出る。"}, false},
	} {
		s := structureOf(c.lines)
		ch := newChooser(s, &p, "規程", nil)
		h := slices.IndexFunc(s.units, func(u unit) bool { return strings.Contains(s.lines[u.start], "出生時") })
		i := slices.IndexFunc(ch.words, func(w cword) bool {
			return slices.ContainsFunc(w.forms, func(f form) bool { return f.text == "育児" })
		})
		if h < 0 || i < 0 {
			t.Fatalf("heading %d, word %d: want both", h, i)
		}
		if got := ch.narrowed(i, h); got != c.want {
			t.Errorf("%d headings: narrowed = %v, want %v", strings.Count(strings.Join(c.lines, "\n"), "###"), got, c.want)
		}
	}
}

func TestInCompoundVerb(t *testing.T) {
	for _, c := range []struct {
		text, verb string
		want       bool
	}{
		{"申出書を受け取るに当たり", "取る", true},
		{"預金を引き出す", "出す", true},
		{"休暇を取る", "取る", false},
		{"休暇が取れる", "取れる", false},
		{"取るものとする", "取る", false},
		{"書類を提出し、取る", "取る", false},
		{"必ず届け出る", "届け出る", false},
		{"予め届け出る", "届け出る", false},
		{"記録し及び保存する", "保存する", false},
		{"少し取る", "取る", false},
		{"早く取る", "取る", false},
	} {
		a := strings.Index(c.text, c.verb)
		if got := inCompoundVerb(c.text, a); got != c.want {
			t.Errorf("inCompoundVerb(%q at %q) = %v, want %v", c.text, c.verb, got, c.want)
		}
	}
}

// shortTimeRule is a rule shaped like the real ones: a clause lists the
// reasons one may work short hours, the next refers to it (第1項の規定に
// より, or 前項の規定により) and states when to apply, a third states
// another deadline for another kind of worker.
const shortTimeRule = "# 短時間正社員就業規則\n\n### 第3条　利用事由\n" +
	"1. 次のいずれかの事由により短時間正社員制度の利用を希望し、かつ会社が認めた場合には、短時間正社員として勤務させることがある。\n" +
	"  1. 家族の介護のため\n  2. 自己啓発のため\n  3. その他会社が認めた場合\n" +
	"2. 第1項の規定により短時間正社員勤務を希望する従業員は、原則30日前までに会社に申出をすることとする。\n" +
	"3. 臨時社員のうち短時間正社員への転換を希望する従業員は、原則申出日より2か月以内で期日を指定する。\n"

// A clause that refers to another (第1項の規定により, 前項の規定により)
// holds that clause's words and its items': the deadline to work short
// hours for a family's care is the clause after the list of reasons, not
// another worker's.
func TestClauseHoldsTheClauseItRefersTo(t *testing.T) {
	for _, ref := range []string{"第1項", "前項"} {
		doc := strings.Replace(shortTimeRule, "第1項", ref, 1)
		root := tree(t, map[string]string{"規程/短時間正社員就業規則.md": doc})
		ix := openTest(t, root, configtest.TempDir(t))
		mustBuild(t, ix, BuildOptions{})
		if a := answerOf(t, ix, "家族の介護があるから短時間正社員に切り替えたい。いつまでに申し出ればいい？"); a.StartLine != 8 {
			t.Errorf("%s: answer L%d-L%d %q, want L8", ref, a.StartLine, a.EndLine, a.Text)
		}
	}
}

func TestClauseNumber(t *testing.T) {
	for s, want := range map[string]int{"1": 1, "２": 2, "12": 12, "一": 1, "十": 10, "十二": 12, "二十三": 23, "a": 0, "": 0} {
		if got := clauseNumber(s); got != want {
			t.Errorf("clauseNumber(%q) = %d, want %d", s, got, want)
		}
	}
	for line, want := range map[string]int{"２　前項の申出は": 2, "3. 臨時社員": 3, "（2）経理": 2, "- 項目": 0} {
		if got := itemNumber(line); got != want {
			t.Errorf("itemNumber(%q) = %d, want %d", line, got, want)
		}
	}
}

// A peripheral a question names (キーボード) is the 機材 a rule writes: of
// two articles of one benefits rule, the equipment one answers.
func TestPeripheralIsTheRulesEquipment(t *testing.T) {
	doc := "# 福利厚生規程\n\n### 第4条　書籍購入補助\n\n1. 書籍購入補助は、社員が自己学習のために購入する書籍の代金を補助するものである。\n" +
		"2. 購入した書籍の所有権は、購入した者本人に帰属する。\n\n### 第5条　機材購入補助\n\n" +
		"1. 機材購入補助は、社員が生産性向上のために購入する機材の代金を補助するものである。\n" +
		"2. 購入した機材の所有権は、購入した者本人に帰属する。\n"
	root := tree(t, map[string]string{"規程/04_福利厚生規程.md": doc})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	if a := answerOf(t, ix, "会社の補助で買ったキーボードって、辞めるときに返さないといけない？"); a.StartLine < 9 {
		t.Errorf("answer L%d-L%d %q, want a clause of 第5条 (L9-L12)", a.StartLine, a.EndLine, a.Text)
	}
}

func TestWordAtNumber(t *testing.T) {
	for _, c := range []struct {
		text, word string
		want       bool
	}{
		{"午後10時から", "10", true},
		{"月額10,000円まで", "10", false},
		{"月額1,000円まで", "000", false},
		{"バージョン3.6以降", "3", false},
		{"1, 2, 3", "2", true},
	} {
		a := strings.Index(c.text, c.word)
		if got := wordAt(c.text, a, a+len(c.word)); got != c.want {
			t.Errorf("wordAt(%q, %q) = %v, want %v", c.text, c.word, got, c.want)
		}
	}
}

// answerOf is the answer of the first hit of q, with the default
// synonyms; the test stops when there is none.
func answerOf(t *testing.T, ix *Index, q string) *Answer {
	t.Helper()
	res := find(t, ix, q, SearchOptions{Limit: 1, MaxChars: 400, Dictionary: analyzer.DefaultSynonyms()})
	if len(res.Matches) != 1 || res.Matches[0].Answer == nil {
		t.Fatalf("%s: matches %+v, want a hit with an answer", q, res.Matches)
	}
	return res.Matches[0].Answer
}
