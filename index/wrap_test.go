package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lwr/config/configtest"
	"lwr/index/extract"
)

// TestFullTextAcrossALineBreak: a phrase wrapped over two lines of a
// hard-wrapped paragraph is found in full-text mode; the match cites both
// lines and highlights the phrase on each; a blank line still parts.
func TestFullTextAcrossALineBreak(t *testing.T) {
	root := tree(t, map[string]string{
		"規程/休暇.md":  "# 休暇\n\n有給休暇の申請は、取得日の三日\n前までに所属長へ行う。\n",
		"notes.txt": "Use the quick\n  brown fox for tests.\n",
		"段落.md":     "# 段落\n\n取得日の三日\n\n前までに\n",
	})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	for _, c := range []struct {
		q, path, hl string
		from, to    int
	}{
		{"三日前", "規程/休暇.md", "三日\n前", 3, 4},
		{"所属長 日前", "規程/休暇.md", "", 3, 4},
		{`"quick brown"`, "notes.txt", "quick\n  brown", 1, 2},
	} {
		res := find(t, ix, c.q, SearchOptions{Mode: FullText, Limit: 10, MaxChars: 200})
		if got := paths(res); len(got) != 1 || got[0] != c.path {
			t.Errorf("%s: %q, want %s alone", c.q, got, c.path)
			continue
		}
		m := res.Matches[0]
		if m.StartLine > c.from || m.EndLine < c.to {
			t.Errorf("%s: lines %d-%d, want %d-%d within", c.q, m.StartLine, m.EndLine, c.from, c.to)
		}
		if c.hl == "" {
			continue
		}
		var hs []string
		for _, h := range m.Highlights {
			hs = append(hs, m.Snippet[h[0]:h[1]])
		}
		if len(hs) != 1 || hs[0] != c.hl {
			t.Errorf("%s: highlights %q in %q, want %q", c.q, hs, m.Snippet, c.hl)
		}
	}
}

// TestSpacedHeadings: 「雑 則」 and 「総　則」 (justified headings) are
// found as 雑則 and 総則 in both modes, and a spaced query finds them too.
func TestSpacedHeadings(t *testing.T) {
	root := tree(t, map[string]string{
		"規程/就業規則.md": "# 就業規則\n\n## 第１章　総　　則\n\nこの規則は従業員に適用する。\n\n## 第９章 雑 則\n\n細目は別に定める。\n",
		"メモ.txt":     "quick brown fox\n",
	})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	for _, mode := range []Mode{Ranked, FullText} {
		for _, q := range []string{"雑則", "総則", `"総 則"`} {
			if got := paths(find(t, ix, q, SearchOptions{Mode: mode, Limit: 10})); len(got) != 1 || got[0] != "規程/就業規則.md" {
				t.Errorf("%s %s: %q", mode, q, got)
			}
		}
		// Words of Latin script keep their spaces.
		if got := paths(find(t, ix, "quickbrown", SearchOptions{Mode: mode, Limit: 10})); len(got) != 0 {
			t.Errorf("%s quickbrown: %q", mode, got)
		}
	}
}

// TestPDFHeadingsAndWrappedPhrases: in a PDF of rules, a justified heading
// (第９章 雑則, on page 2) and a phrase wrapped over two of its lines are
// found by full-text search, cited with their page.
func TestPDFHeadingsAndWrappedPhrases(t *testing.T) {
	if !extract.PDFReadable() {
		if os.Getenv("LWR_TEST_REQUIRE_PDF") != "" {
			t.Fatal("pdftotext is not installed and LWR_TEST_REQUIRE_PDF is set")
		}
		t.Skip("pdftotext is not installed")
	}
	root := configtest.TempDir(t)
	for _, name := range []string{"就業規則_二段組.pdf", "就業規則_Word.pdf"} {
		b, err := os.ReadFile(filepath.Join("extract", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix := openOffice(t, root, configtest.TempDir(t))
	defer ix.Close()
	mustBuild(t, ix, BuildOptions{})
	for _, c := range []struct {
		q    string
		want []string
		page int // of the first file's match
	}{
		{"雑則", []string{"就業規則_Word.pdf", "就業規則_二段組.pdf"}, 0},
		{"就業に関する事項", []string{"就業規則_Word.pdf", "就業規則_二段組.pdf"}, 1},
		{"従業員の過半数", []string{"就業規則_Word.pdf", "就業規則_二段組.pdf"}, 0},
		{"届け出る", []string{"就業規則_Word.pdf", "就業規則_二段組.pdf"}, 0},
	} {
		res := find(t, ix, c.q, SearchOptions{Mode: FullText, Limit: 10, MaxChars: 400})
		got := paths(res)
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: %q, want %q", c.q, got, c.want)
			continue
		}
		for _, m := range res.Matches {
			if m.Locator == nil || m.Locator.Page == 0 || !strings.Contains(squeezed(m.Snippet), c.q) {
				t.Errorf("%s in %s: %+v", c.q, m.Path, m)
			}
		}
	}
	res := find(t, ix, "雑則", SearchOptions{Mode: FullText, Limit: 10})
	for _, m := range res.Matches {
		if m.Path == "就業規則_二段組.pdf" && m.Locator.Page != 2 {
			t.Errorf("雑則 in %s is on page %d, want 2", m.Path, m.Locator.Page)
		}
	}
}

func squeezed(s string) string { return strings.Join(strings.Fields(s), "") }
