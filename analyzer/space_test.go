package analyzer

import (
	"slices"
	"testing"
)

// TestFoldDropsSpacesBetweenJapanese: justified headings (雑 則, 総　則,
// 第１章　総　　則) fold to the words they spell; spaces next to Latin
// words, ASCII digits and punctuation stay.
func TestFoldDropsSpacesBetweenJapanese(t *testing.T) {
	// Fold keeps them: a folded query still splits into its words.
	if got := Fold("電子契約 押印"); got != "電子契約 押印" {
		t.Errorf("Fold = %q", got)
	}
	for _, c := range []struct{ in, want string }{
		{"雑 則", "雑則"},
		{"総　則", "総則"},
		{"第１章　総　　則", "第1章総則"},
		{"第 １ 章 総 則", "第1章総則"},
		{"（目 的）", "(目的)"},
		{"ｶﾀ ｶﾅ", "カタカナ"},
		{"quick brown fox", "quick brown fox"},
		{"PATH を 設定", "path を設定"},
		{"Ｗｏｒｄ　Ｅｘｃｅｌ", "word excel"},
		{"第 1 章", "第 1 章"},
		{"規程。 次に", "規程。 次に"},
		{"区分\t日当", "区分\t日当"},
		{"雑\n則", "雑\n則"},
		{" 雑則 ", " 雑則 "},
	} {
		if got := FoldText(c.in); got != c.want {
			t.Errorf("FoldText(%q) = %q, want %q", c.in, got, c.want)
		}
		f := foldMapped(c.in)
		if f.text != c.want {
			t.Errorf("foldMapped(%q) = %q, want %q", c.in, f.text, c.want)
		}
		if f.start != nil && (len(f.start) != len(f.text) || len(f.end) != len(f.text)) {
			t.Errorf("foldMapped(%q): maps of %d/%d bytes for %d", c.in, len(f.start), len(f.end), len(f.text))
		}
	}
}

// TestSpacedHeadingTokens: 「雑　則」 is analyzed as 雑則, its offsets
// those of the original text, space included.
func TestSpacedHeadingTokens(t *testing.T) {
	toks := Default().Tokens("第９章　雑　則")
	var terms []string
	for _, tk := range toks {
		terms = append(terms, tk.Term)
		if tk.Term == "雑則" && (tk.Start != len("第９章　") || tk.End != len("第９章　雑　則")) {
			t.Errorf("雑則 at %d:%d", tk.Start, tk.End)
		}
	}
	if !slices.Contains(terms, "雑則") {
		t.Errorf("terms %q lack 雑則", terms)
	}
	if got := Bigrams("雑 則"); !slices.Contains(got, "雑則") {
		t.Errorf("Bigrams(雑 則) = %q", got)
	}
	// Latin words keep their space: two words, not one.
	if got := Default().Tokens("quick brown"); len(got) != 2 {
		t.Errorf("quick brown: %v", got)
	}
}

func TestJoinLines(t *testing.T) {
	for _, c := range []struct{ in, want, folded string }{
		{"就業に関\nする事項", "就業に関 する事項", "就業に関する事項"},
		{"the quick  \n  brown fox", "the quick brown fox", "the quick brown fox"},
		{"段落一。\n\n段落二。", "段落一。\n\n段落二。", "段落一。\n\n段落二。"},
		{"行一\r\n行二\r\n", "行一 行二\r\n", "行一行二\r\n"},
		{"一行", "一行", "一行"},
	} {
		got := JoinLines(c.in)
		if got != c.want {
			t.Errorf("JoinLines(%q) = %q, want %q", c.in, got, c.want)
		}
		if f := FoldText(got); f != c.folded {
			t.Errorf("FoldText(JoinLines(%q)) = %q, want %q", c.in, f, c.folded)
		}
	}
	// A phrase wrapped over a line break has its bigrams.
	if got := Bigrams("就業に関\nする事項"); !slices.Contains(got, "関す") {
		t.Errorf("Bigrams = %q", got)
	}
}
