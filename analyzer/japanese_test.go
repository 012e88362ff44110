package analyzer

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

type tok struct {
	term       string
	pos        int
	start, end int
}

func toks(ts []Token) []tok {
	out := make([]tok, len(ts))
	for i, t := range ts {
		out[i] = tok{t.Term, t.Position, t.Start, t.End}
	}
	return out
}

func TestTokensPinned(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []tok
	}{
		{"particles dropped, gaps kept", "有給休暇の申請", []tok{{"有給", 1, 0, 6}, {"休暇", 2, 6, 12}, {"申請", 4, 15, 21}}},
		{"full-width latin normalized before kagome", "ＰＡＴＨを設定", []tok{{"path", 1, 0, 12}, {"設定", 3, 15, 21}}},
		{"half-width katakana with voiced marks", "ｶﾀｶﾅとｶﾞｷﾞ", []tok{{"カタカナ", 1, 0, 12}, {"ガギ", 3, 15, 27}}},
		{"long vowel folded at word end", "コンピューター", []tok{{"コンピュータ", 1, 0, 21}}},
		{"base form of a verb", "ファイルをコピーした", []tok{{"ファイル", 1, 0, 12}, {"コピー", 3, 15, 24}}},
		{"identifiers whole and in parts", "snake_case_id と config.yaml",
			[]tok{{"snake_case_id", 1, 0, 13}, {"snake", 1, 0, 5}, {"case", 2, 6, 10}, {"id", 3, 11, 13}, {"config.yaml", 5, 18, 29}, {"config", 5, 18, 24}, {"yaml", 6, 25, 29}}},
		{"flags keep their word", "--preserve=mode", []tok{{"preserve", 1, 2, 10}, {"mode", 2, 11, 15}}},
		{"full-width digits and era", "令和６年度版", []tok{{"令和", 1, 0, 6}, {"6", 2, 6, 9}, {"年度", 3, 9, 15}, {"版", 4, 15, 18}}},
		{"mixed width on one line", "ＡＢＣとabc", []tok{{"abc", 1, 0, 9}, {"abc", 3, 12, 15}}},
		{"offsets continue over lines", "設定\nＰＡＴＨ", []tok{{"設定", 1, 0, 6}, {"path", 2, 7, 19}}},
		{"upper case folded", "README Makefile", []tok{{"readme", 1, 0, 6}, {"makefile", 2, 7, 15}}},
		{"particles only", "の", nil},
		{"particle を only", "を", nil},
		{"stop words only", "することができる", nil},
		{"english stop words", "the file of a user", []tok{{"file", 2, 4, 8}, {"user", 5, 14, 18}}},
	}
	a := Default()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := toks(a.Tokens(tt.in))
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("Tokens(%q)\n got %v\nwant %v", tt.in, got, tt.want)
			}
		})
	}
}

// A question's colloquial って after a noun is read as は where kagome
// would cut the noun into a verb (住宅手当って → 手当, not 手 当る); a
// verb's て form stays (取って, 手伝って), and offsets are the question's.
func TestQueryTokensColloquialTopic(t *testing.T) {
	a := Default()
	terms := func(ts []Token) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.Term)
		}
		return out
	}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"住宅手当ってもらえる？", []string{"住宅", "手当", "もらえる"}},
		{"通勤手当って月いくら？", []string{"通勤", "手当", "月"}},
		{"休暇を取ってもいい？", []string{"休暇", "取る"}},
		{"手伝ってもらえる？", []string{"手伝う"}},
		{"会議室って予約できる？", []string{"会議", "室", "予約"}},
		{"電車代って出る？", []string{"電車", "代", "出る"}},
		{"本を取ってきて", []string{"本", "取る"}},
	} {
		got := a.QueryTokens(tc.in)
		if !slices.Equal(terms(got), tc.want) {
			t.Errorf("QueryTokens(%q) = %v, want %v", tc.in, terms(got), tc.want)
		}
		for _, tk := range got {
			if strings.HasPrefix(tk.POS, "名詞") && tc.in[tk.Start:tk.End] != tk.Term {
				t.Errorf("QueryTokens(%q): %v selects %q", tc.in, tk, tc.in[tk.Start:tk.End])
			}
		}
	}
	if got := terms(a.Tokens("住宅手当ってもらえる？")); slices.Contains(got, "手当") {
		t.Errorf("Tokens now reads 住宅手当って as %v: the query side needs no reading of its own", got)
	}
}

// Every token's offsets must select, in the original text, a string that
// folds to the token's surface: highlights and line numbers depend on it.
func TestOffsetsSelectOriginalText(t *testing.T) {
	inputs := []string{
		"ＰＡＴＨ環境変数とｶﾀｶﾅ、コンピューター（第３版）を参照。",
		"㈱みなと商事　令和６年度　～〜　ﾊﾞｯｸｱｯﾌﾟ手順\tＶｅｒ．１．２",
		"e\u0301tude ＡＢＣ ｱｲｳｴｵ 株式会社①②",
		strings.Repeat("長い行の分割を確かめる文章です。", 300),
	}
	a := Default()
	for _, in := range inputs {
		for _, tk := range a.Tokens(in) {
			if tk.Start < 0 || tk.End > len(in) || tk.Start >= tk.End {
				t.Fatalf("%q: token %v has bad offsets", in, tk)
			}
			orig := in[tk.Start:tk.End]
			if !strings.Contains(Fold(orig), strings.TrimSuffix(tk.Term, "ー")) && tk.Kind == KindLatin {
				t.Errorf("%q: token %v selects %q", in, tk, orig)
			}
			if Fold(orig) == "" {
				t.Errorf("%q: token %v selects nothing", in, tk)
			}
		}
	}
}

func TestQueryAndDocumentFormsMeet(t *testing.T) {
	pairs := []struct{ query, doc string }{
		{"コンピューター", "コンピュータの設定"},
		{"コンピュータ", "コンピューターの設定"},
		{"ＰＡＴＨ", "PATH を設定する"},
		{"ｶﾀｶﾅ", "カタカナで書く"},
		{"コピーした", "ファイルをコピーする"},
		{"snake_case_identifier", "値は snake_case_identifier に入る"},
		{"config.yaml", "設定は config.yaml に書く"},
		{"--preserve", "cp --preserve=all を使う"},
	}
	a := Default()
	for _, p := range pairs {
		docTerms := map[string]bool{}
		for _, tk := range a.Tokens(p.doc) {
			docTerms[tk.Term] = true
		}
		q := a.Tokens(p.query)
		if len(q) == 0 {
			t.Errorf("%q has no terms", p.query)
		}
		for _, tk := range q {
			if !docTerms[tk.Term] {
				t.Errorf("query %q term %q not among the terms of %q: %v", p.query, tk.Term, p.doc, a.Tokens(p.doc))
			}
		}
	}
}

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ＰＡＴＨ", "path"},
		{"ｶﾞｷﾞ", "ガギ"},
		{"〜と～", "~と~"},
		{"ABC def", "abc def"},
		{"①", "1"},
	}
	for _, tt := range tests {
		if got := Fold(tt.in); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFoldMappedAgreesWithFold(t *testing.T) {
	for _, s := range []string{"ＰＡＴＨとｶﾞｷﾞ〜①", "plain ascii", "MiXeD ケース ＡＢＣ", "e\u0301", "ｶﾞ"} {
		f := foldMapped(s, true)
		if f.text != Fold(s) {
			t.Errorf("foldMapped(%q) = %q, Fold = %q", s, f.text, Fold(s))
		}
		if f.start != nil && (len(f.start) != len(f.text) || len(f.end) != len(f.text)) {
			t.Errorf("foldMapped(%q): maps of %d/%d bytes for %d", s, len(f.start), len(f.end), len(f.text))
		}
	}
}

func TestBigrams(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"環境変数", []string{"環境", "境変", "変数", "数"}},
		{"ＰＡＴＨ 月", []string{"pa", "at", "th", "h", "月"}},
		{"a", []string{"a"}},
	}
	for _, tt := range tests {
		if got := Bigrams(tt.in); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("Bigrams(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if got := QueryBigrams("環境変数"); fmt.Sprint(got) != "[環境 境変 変数]" {
		t.Errorf("QueryBigrams = %v", got)
	}
	if got := QueryBigrams("月"); got != nil {
		t.Errorf("QueryBigrams(one char) = %v, want nil", got)
	}
}

func TestSynonymsExpand(t *testing.T) {
	s := DefaultSynonyms()
	got := s.Expand("環境変数の設定")
	want := map[string]bool{"environment variable": true, "env var": true, "configuration": true, "config": true, "コンフィグ": true}
	for _, w := range got {
		delete(want, w)
	}
	if len(want) > 0 {
		t.Errorf("Expand missed %v; got %v", want, got)
	}
	// An ASCII key must stand alone: "rapid" does not hold the word API.
	for _, w := range s.Expand("rapid growth") {
		if w == "インターフェース" {
			t.Errorf("ASCII key matched inside a word: %v", s.Expand("rapid growth"))
		}
	}
}

func ExampleAnalyzer_Tokens() {
	for _, t := range Default().Tokens("ファイルをコピーした") {
		fmt.Println(t.Term, t.Position, t.Start, t.End)
	}
	// Output:
	// ファイル 1 0 12
	// コピー 3 15 24
}

func BenchmarkTokens(b *testing.B) {
	text := strings.Repeat("ユーザーのパスワードを変更する場合は passwd コマンドを使う。設定ファイル /etc/login.defs を参照。\n", 50)
	a := Default()
	_ = a.Preload()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		a.Tokens(text)
	}
}

func TestSynonymEntriesRespectWordBoundaries(t *testing.T) {
	s := DefaultSynonyms()
	has := func(q, syn string) bool {
		for _, w := range s.Expand(q) {
			if w == syn {
				return true
			}
		}
		return false
	}
	if has("コマンドを実行する", "line") {
		t.Error("行 matched inside 実行")
	}
	if !has("コマンドを実行する", "execute") {
		t.Errorf("実行 not expanded: %v", s.Expand("コマンドを実行する"))
	}
	if !has("ルーティングテーブルを表示", "routing table") {
		t.Errorf("compound not expanded: %v", s.Expand("ルーティングテーブルを表示"))
	}
	es := s.Entries("ＰＡＴＨ 環境変数")
	found := false
	for _, e := range es {
		if "ＰＡＴＨ 環境変数"[e.Start:e.End] == "環境変数" {
			found = true
		}
	}
	if !found {
		t.Errorf("entry offsets do not point at 環境変数 in the original query: %+v", es)
	}
}

// A query that says a dictionary word twice, in two words of its group,
// has one entry: at the first, with where it says it again.
func TestSynonymEntriesSayItAgain(t *testing.T) {
	q := "会社を辞めるとき、退職金ってもらえる？"
	var again []string
	for _, e := range DefaultSynonyms().Entries(q) {
		if q[e.Start:e.End] == "退職" {
			for _, sp := range e.Again {
				again = append(again, q[sp[0]:sp[1]])
			}
		}
	}
	if !slices.Contains(again, "会社を辞める") {
		t.Errorf("退職's entry says again %q, want 会社を辞める among them", again)
	}
}

// A dictionary word matches the query in any inflection and spelling of
// its base forms, but a word whose ending the analyzer drops (取ってくる)
// matches only as written.
func TestSynonymEntriesMatchInflections(t *testing.T) {
	s := DefaultSynonyms()
	tests := []struct {
		query, syn string
		want       bool
	}{
		{"大きなファイルを分けたい", "分割", true},
		{"パソコンの電源を切ってから帰る", "シャットダウン", true},
		{"メモリーを増やしたい", "memory", true},
		{"有休を取りたい", "ダウンロード", false},
		{"有休を取りたい", "有給休暇", true},
		{"届け日はいつですか", "納期", true},
		{"電源を安全に切る", "シャットダウン", false},
		// A potential form stands for its verb: 休めますか is 休む.
		{"子どもが熱を出したとき休めますか", "休暇", true},
		{"パソコンを家に持って帰れる?", "持出", true}, // 持って帰る
		{"会社を辞められる", "退職", true},       // 辞める + られる
		// A negation the analyzer drops ends the word: 足りない in 足りなかった.
		{"今月の労働時間が足りなかった", "不足", true},
	}
	for _, tt := range tests {
		if got := slices.Contains(s.Expand(tt.query), tt.syn); got != tt.want {
			t.Errorf("%s → %s: %v, want %v (expanded %v)", tt.query, tt.syn, got, tt.want, s.Expand(tt.query))
		}
	}
}

func BenchmarkSynonymEntries(b *testing.B) {
	s := DefaultSynonyms()
	s.Entries("ユーザーのパスワードを変更したい")
	for b.Loop() {
		s.Entries("ログアウトしてもプログラムを動かし続けたい")
	}
}

// A question reads into tokens whose offsets select its own text, in
// order; without って it reads as Tokens reads it.
func FuzzQueryTokens(f *testing.F) {
	for _, s := range []string{"住宅手当ってもらえる？", "って", "ってってって", "手当って\n手当って", "休暇を取ってもいい？", "ｯﾃ手当ってＡＢＣ"} {
		f.Add(s)
	}
	a := Default()
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 300 {
			return
		}
		got := a.QueryTokens(s)
		prev := 0
		for _, tk := range got {
			if tk.Start < prev || tk.End < tk.Start || tk.End > len(s) {
				t.Fatalf("QueryTokens(%q): %v out of order or bounds", s, got)
			}
			prev = tk.Start
		}
		if !strings.Contains(s, "って") && fmt.Sprint(got) != fmt.Sprint(a.Tokens(s)) {
			t.Fatalf("QueryTokens(%q) = %v, Tokens %v", s, got, a.Tokens(s))
		}
	})
}
