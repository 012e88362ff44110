package index

import (
	"strconv"
	"strings"
	"testing"

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
