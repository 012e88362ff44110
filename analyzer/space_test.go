package analyzer

import (
	"slices"
	"testing"
)

// TestFoldDropsSpacesBetweenJapanese: justified headings (雑 則, 総　則,
// 第１章　総　　則) fold to the words they spell, and so do the spaces an
// office sets between Japanese and digits (令和 7 年); spaces next to Latin
// words, between two digits and next to punctuation stay.
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
		// Word's and LibreOffice's space between Japanese and digits.
		{"第 1 章", "第1章"},
		{"令和 7 年 4 月 1 日施行", "令和7年4月1日施行"},
		{"日当は 3,000 円", "日当は3,000円"},
		{"片道 100km 以上", "片道100km 以上"},
		{"承認番号は 1111 とする", "承認番号は1111とする"},
		{"第 1 2 条", "第1 2条"},
		{"Windows 10 の", "windows 10の"},
		{"1 2 3", "1 2 3"},
		{"規程 1 、", "規程1 、"},
		{"規程。 次に", "規程。 次に"},
		{"区分\t日当", "区分\t日当"},
		{"雑\n則", "雑\n則"},
		{" 雑則 ", " 雑則 "},
	} {
		if got := FoldText(c.in); got != c.want {
			t.Errorf("FoldText(%q) = %q, want %q", c.in, got, c.want)
		}
		f := foldMapped(c.in, true)
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
		// A line that starts or ends with a digit.
		{"手当は月額\n5,000円とし", "手当は月額 5,000円とし", "手当は月額5,000円とし"},
		{"10月15日から\n10月31日まで", "10月15日から 10月31日まで", "10月15日から10月31日まで"},
		{"承認番号は 1111\nとする", "承認番号は 1111 とする", "承認番号は1111とする"},
		{"version 2\n3 files", "version 2 3 files", "version 2 3 files"},
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
