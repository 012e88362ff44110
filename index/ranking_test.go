package index

import (
	"strconv"
	"strings"
	"testing"

	"lwr/analyzer"
	"lwr/config/configtest"
)

// A file that speaks of the words in two passages gets a share of its
// second-best passage's score (--explain says so); a file that mentions
// them once does not.
func TestSecondPassageCounts(t *testing.T) {
	filler := strings.Repeat("出張の手配は総務課が行う。\n", 8)
	root := tree(t, map[string]string{
		"once.md":  "# メモ\n\n宿泊料の上限は旅費規程による。\n",
		"twice.md": "# 旅費規程\n\n## 宿泊料\n\n宿泊料の上限は1泊10,000円とする。\n" + filler + "\n## 宿泊料の特例\n\n東京23区では宿泊料の上限に2,000円を加える。\n" + filler,
	})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	res := find(t, ix, "宿泊料の上限", SearchOptions{Limit: 5, MaxChars: 200, Explain: true})
	got := map[string]Match{}
	for _, m := range res.Matches {
		got[m.Path] = m
	}
	twice, once := got["twice.md"], got["once.md"]
	if twice.Path == "" || once.Path == "" {
		t.Fatalf("matches %v", paths(res))
	}
	if !strings.Contains(twice.Explain, "second-best passage") {
		t.Errorf("twice.md's explanation names no second passage:\n%s", twice.Explain)
	}
	best, err := strconv.ParseFloat(strings.Fields(twice.Explain)[0], 64)
	if err != nil || twice.Score <= best+1e-9 {
		t.Errorf("twice.md scores %.4f, its best passage %.4f (%v): the second adds nothing", twice.Score, best, err)
	}
	if strings.Contains(once.Explain, "second-best passage") {
		t.Errorf("once.md has one passage, yet:\n%s", once.Explain)
	}
}

// A snippet that starts inside a table starts at the table's header row,
// which names the columns of the amounts it shows; in ranked mode at the
// heading just above the table, which names what they are (日当).
func TestSnippetInATableShowsItsHeader(t *testing.T) {
	root := tree(t, map[string]string{"旅費規程.md": "# 旅費規程\n\n## 第6条（日当）\n日当は次の区分により支給する。\n\n" +
		"| 区分 | 宿泊出張 | 日帰り出張 |\n|---|---|---|\n| 役員 | 4,000円 | 2,000円 |\n| 部長 | 3,000円 | 1,500円 |\n| 課長 | 2,500円 | 1,200円 |\n| 一般社員 | 2,000円 | 1,000円 |\n\n" +
		"2　近距離外出については支給しない。\n"})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	for _, mode := range []Mode{Ranked, FullText} {
		res := find(t, ix, "一般社員", SearchOptions{Mode: mode, Limit: 3, MaxChars: 200})
		if len(res.Matches) != 1 {
			t.Fatalf("%s: %v", mode, paths(res))
		}
		m := res.Matches[0]
		first, head := 6, "| 区分 |"
		if mode == Ranked {
			first, head = 3, "## 第6条（日当）\n日当は次の区分により支給する。\n\n| 区分 |"
		}
		if m.StartLine != first || !strings.HasPrefix(m.Snippet, head) || !strings.Contains(m.Snippet, "| 一般社員 | 2,000円") {
			t.Errorf("%s: snippet L%d-L%d:\n%s", mode, m.StartLine, m.EndLine, m.Snippet)
		}
	}
}

// A file whose best answer holds few of the question's words matched the
// others elsewhere (its title and purpose name 出産 and 配偶者, its 5日 is a
// nursing leave's): it keeps that share of its score, below the file whose
// item holds them all (妻が出産したとき・・・3日).
func TestAnswerWithTheQuestionsWordsRanksItsFile(t *testing.T) {
	care := "# 育児・介護休業規程\n\n" +
		"本規程は、妊娠、出産、育児又は介護を行う従業員及びその配偶者の休業と休暇について定める。配偶者の出産に伴う出生時育児休業を含む。\n\n" +
		"## 出生時育児休業\n\n配偶者が出産した従業員は、子の出生後8週間以内に4週間まで出生時育児休業をすることができる。\n\n" +
		"## 子の看護休暇\n\n小学校就学前の子を養育する従業員は、1年間につき5日を限度として、子の看護休暇を取得することができる。\n\n" +
		"## 介護休暇\n\n要介護状態にある家族を介護する従業員は、1年間につき5日を限度として、介護休暇を取得することができる。\n"
	rules := "# 就業規則\n\n## 第39条　特別休暇\n\n1. 会社は、社員に夏季休暇を与える。\n\n" +
		"## 第40条　慶弔休暇\n\n1. 社員が申請した場合は、次のとおり慶弔休暇を与える。\n" +
		"    1. 本人が結婚したとき・・・5日\n    2. 妻が出産したとき・・・3日\n    3. 配偶者、子又は父母が死亡したとき・・・5日\n\n" +
		"## 第41条　休職\n\n1. 社員が業務外の傷病により欠勤し、3か月を経過しても治らないときは休職とする。\n"
	root := tree(t, map[string]string{"育児介護休業規程.md": care, "就業規則.md": rules})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	res := find(t, ix, "奥さんが出産するとき、休みって何日もらえる？", SearchOptions{Limit: 5, MaxChars: 400, Explain: true, Dictionary: analyzer.DefaultSynonyms()})
	if len(res.Matches) < 2 || res.Matches[0].Path != "就業規則.md" {
		for _, m := range res.Matches {
			t.Logf("%s %.3f\n%s", m.Path, m.Score, m.Explain)
		}
		t.Fatalf("matches %v: want 就業規則.md first, its item states 妻が出産したとき・・・3日", paths(res))
	}
	if a := res.Matches[0].Answer; a == nil || !strings.Contains(a.Text, "妻が出産したとき") {
		t.Errorf("就業規則.md's answer %+v, want the item 妻が出産したとき・・・3日", a)
	}
	care0 := res.Matches[1]
	if !strings.Contains(care0.Explain, "share of the question's words its answer holds") {
		t.Errorf("育児介護休業規程.md's explanation names no share of the words:\n%s", care0.Explain)
	}
}

// A rule writes the word without its okurigana (届出, 取扱): the question's
// 届け出 and 取り扱い find it nearly as the word, above a page that has the
// other words alone.
func TestOkuriganaSpellingsMatch(t *testing.T) {
	root := tree(t, map[string]string{
		"兼業規程.md": "# 兼業規程\n\n## 第3条　届出\n\n社員が兼業するときは、事前に会社へ届出を行う。\n",
		"メモ.md":   "# メモ\n\n兼業について会社の考え方をまとめた。兼業の相談は人事課へ。兼業の事例集あり。\n",
	})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	res := find(t, ix, "兼業の届け出", SearchOptions{Limit: 5, MaxChars: 200, Explain: true})
	if len(res.Matches) == 0 || res.Matches[0].Path != "兼業規程.md" {
		t.Fatalf("matches %v, want 兼業規程.md first (届出 is 届け出)", paths(res))
	}
	if !strings.Contains(res.Plan, "synonym body:届出^0.64") {
		t.Errorf("plan gives 届出 no variant's weight:\n%s", res.Plan)
	}
}

// A question that names a language in Latin letters (Ruby) is answered by
// the style guide whose name holds it, not by another language's guide
// that never names it, however well that one's words match.
func TestNamedScopeOutranksAnotherLanguage(t *testing.T) {
	root := tree(t, map[string]string{
		"styleguide/ruby.ja.md":  "# Ruby スタイルガイド\n\n## インデント\n\n- **[MUST]** 1レベルのインデントに2つの空白を使用する。水平タブを使用してはならない。\n",
		"styleguide/swift.ja.md": "# Swift スタイルガイド\n\n## コードスタイル\n\n- **[MUST]** インデントにはソフトタブを使い、幅は4スペースにすること\n- **[MUST]** ファイル終端は改行すること\n",
	})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	res := find(t, ix, "Rubyのインデントってスペース何個？タブはダメ？", SearchOptions{Limit: 3, MaxChars: 400, Explain: true})
	if len(res.Matches) < 2 || res.Matches[0].Path != "styleguide/ruby.ja.md" {
		t.Fatalf("matches %v, want the Ruby guide first", paths(res))
	}
	if !strings.Contains(res.Matches[1].Explain, "never names ruby") {
		t.Errorf("the Swift guide's explain lacks the scope it misses:\n%s", res.Matches[1].Explain)
	}
}

// だめ frames the question (変えないとだめ？) as 大丈夫 does: a rule that
// answers it never writes the word, and still holds every content word
// in its own text (OwnMatch), which the source preferences need to put
// the preferred edition first.
func TestFrameWordIsNoContentWord(t *testing.T) {
	root := tree(t, map[string]string{
		"規程/情報セキュリティ規程.md": "# 情報セキュリティ規程\n\n## 第5条（パスワード）\n\nパスワードの定期的な変更は求めない。漏えいのおそれがあるときは直ちに変更する。\n",
	})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	res := find(t, ix, "パスワードって定期的に変えないとだめ？", SearchOptions{Limit: 3, MaxChars: 400})
	if len(res.Matches) != 1 || !res.Matches[0].OwnMatch {
		t.Fatalf("matches %+v, want the rule, its own text holding the question's content words", res.Matches)
	}
}
