package index

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"lwr/analyzer"
	"lwr/config/configtest"
)

func TestParseQuery(t *testing.T) {
	tests := []struct {
		in   string
		want string
		err  bool
	}{
		{"有給休暇 申請期限", "有給休暇 申請期限", false},
		{`有給休暇 "申請 期限"`, `有給休暇 "申請 期限"`, false},
		{"「申請期限」　有給", `"申請期限" 有給`, false},
		{`"unclosed phrase`, `"unclosed phrase"`, false},
		{"   ", "", true},
		{`""`, "", true},
	}
	for _, tt := range tests {
		q, err := ParseQuery(tt.in)
		if (err != nil) != tt.err {
			t.Errorf("ParseQuery(%q) err = %v", tt.in, err)
			continue
		}
		if err == nil && q.String() != tt.want {
			t.Errorf("ParseQuery(%q) = %s, want %s", tt.in, q, tt.want)
		}
	}
}

func TestQueryJSONRoundTrip(t *testing.T) {
	for _, in := range []string{"有給休暇 申請期限", `「申請"期限」 有給`, `"a b" c`} {
		q, err := ParseQuery(in)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(q)
		if err != nil {
			t.Fatal(err)
		}
		var back Query
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, q) {
			t.Errorf("%s: JSON %s reads back as %+v, want %+v", in, b, back, q)
		}
	}
	var m struct{ Mode Mode }
	if err := json.Unmarshal([]byte(`{"Mode":"fulltext"}`), &m); err != nil || m.Mode != FullText {
		t.Errorf("mode = %v, %v", m.Mode, err)
	}
	if err := json.Unmarshal([]byte(`{"Mode":"fuzzy"}`), &m); err == nil {
		t.Error("an unknown mode was accepted")
	}
}

// FuzzParseQuery checks what every caller relies on: no panic, words that
// are not empty, unquoted words without spaces, and a query that reads
// back the same from its String form and from JSON.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"有給休暇 申請期限", `有給休暇 "申請 期限"`, "「申請期限」　有給", `"unclosed`, `「a"b」`, "a「b c」d", "『』“”", "\u3000x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuery(s)
		if err != nil {
			if len(q.Words) != 0 {
				t.Fatalf("error with words: %+v", q)
			}
			return
		}
		for _, w := range q.Words {
			if w.Text == "" || strings.TrimSpace(w.Text) != w.Text {
				t.Fatalf("word %q is empty or not trimmed", w.Text)
			}
			if !w.Quoted && strings.IndexFunc(w.Text, unicode.IsSpace) >= 0 {
				t.Fatalf("unquoted word %q holds a space", w.Text)
			}
		}
		again, err := ParseQuery(q.String())
		if err != nil || !reflect.DeepEqual(again, q) {
			t.Fatalf("ParseQuery(%q).String() = %q reads back as %+v, %v", s, q.String(), again, err)
		}
		b, _ := json.Marshal(q)
		var back Query
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, q) {
			t.Fatalf("JSON %s reads back as %+v, %v", b, back, err)
		}
	})
}

func TestQueryBounds(t *testing.T) {
	at := strings.Repeat("申", MaxQueryChars)
	if _, err := ParseQuery(at); err != nil {
		t.Errorf("a query of %d characters: %v", MaxQueryChars, err)
	}
	_, err := ParseQuery(at + "請")
	if !errors.Is(err, ErrQueryTooLong) || !strings.HasPrefix(err.Error(), "query longer than 1000 characters") {
		t.Errorf("a query of %d characters: %v", MaxQueryChars+1, err)
	}
	root := tree(t, map[string]string{"a.md": "# 規程\n有給休暇の申請。\n"})
	ix := openTest(t, root, configtest.TempDir(t))
	mustBuild(t, ix, BuildOptions{})
	long := Query{Words: []Word{{Text: at}, {Text: "請"}}}
	if _, err := ix.Search(context.Background(), long, SearchOptions{}); !errors.Is(err, ErrQueryTooLong) {
		t.Errorf("Search of a query built past the bound: %v", err)
	}
	q := Query{Words: []Word{{Text: "有給休暇"}}}
	if _, err := ix.Search(context.Background(), q, SearchOptions{Synonyms: make([]string, MaxSynonyms+1)}); !errors.Is(err, ErrQueryTooLong) {
		t.Errorf("Search with %d synonyms: %v", MaxSynonyms+1, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ix.Search(ctx, q, SearchOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Search with its context ended: %v", err)
	}
}

// BenchmarkPlanLongQuery plans ranked queries of growing length (past
// MaxQueryChars, which Search refuses) with the embedded dictionary: the
// work grows with the query, not with its square.
func BenchmarkPlanLongQuery(b *testing.B) {
	dict, err := analyzer.LoadSynonyms("", nil)
	if err != nil {
		b.Fatal(err)
	}
	const base = "有休はいつからもらえるのか、申請の期限と付与日数を知りたい。"
	planRanked(Query{Words: []Word{{Text: base}}}, SearchOptions{Dictionary: dict}) // loads the dictionaries
	for _, n := range []int{MaxQueryChars, 16000, 130000} {
		text := []rune(strings.Repeat(base, n/len([]rune(base))+1))[:n]
		q := Query{Words: []Word{{Text: string(text)}}}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				planRanked(q, SearchOptions{Dictionary: dict})
			}
		})
	}
}

// TestTimeFramesAreNotTheTopic: 前 of 研修の前に says when, not what the
// question is about; the same noun that names a thing stays a word.
func TestTimeFramesAreNotTheTopic(t *testing.T) {
	tests := []struct {
		q, word string
		content bool
	}{
		{"Git研修の前に入れておくツール", "前", false},
		{"休暇の間に連絡してもいい？", "間", false},
		{"前の版と何が違う？", "前", true},
		// The asker's now and manner: no rule writes 今月 or ちょっと.
		{"フレックスで今月の労働時間がちょっと足りなかった", "今月", false},
		{"フレックスで今月の労働時間がちょっと足りなかった", "ちょっと", false},
		{"たまにカフェで仕事してもいい？", "たまに", false},
		{"当月の労働時間が足りない", "当月", true},
	}
	for _, tt := range tests {
		p := planRanked(Query{Words: []Word{{Text: tt.q}}}, SearchOptions{})
		k, ok := p.termIndex[tt.word]
		if !ok {
			t.Errorf("%q: no word %q in %v", tt.q, tt.word, p.terms)
			continue
		}
		if got := slices.Contains(p.content, tt.word); got != tt.content {
			t.Errorf("%q: %q a content word = %v, want %v (weight %g)", tt.q, tt.word, got, tt.content, p.weights[k])
		}
		if !tt.content && p.weights[k] != wAffix {
			t.Errorf("%q: %q weighs %g, want %g", tt.q, tt.word, p.weights[k], wAffix)
		}
	}
}

// Words that only say again a word the question holds elsewhere (会社を
// 辞める beside 退職金) weigh as little as a gloss; said once, they weigh
// as words.
func TestRestatedWordsWeighLess(t *testing.T) {
	opts := SearchOptions{Dictionary: analyzer.DefaultSynonyms()}
	weight := func(q, word string) (float64, bool) {
		p := planRanked(Query{Words: []Word{{Text: q}}}, opts)
		k, ok := p.termIndex[word]
		if !ok {
			t.Fatalf("%q: no word %q in %v", q, word, p.terms)
		}
		return p.weights[k], slices.Contains(p.content, word)
	}
	w, content := weight("会社を辞めるとき、退職金ってもらえる？", "会社")
	if w > wGloss || content {
		t.Errorf("会社 of 会社を辞める beside 退職金 weighs %g (content %v), want at most %g", w, content, wGloss)
	}
	if w, _ := weight("会社を辞めるとき、退職金ってもらえる？", "退職"); w < 0.5 {
		t.Errorf("退職 weighs %g", w)
	}
	if w, content := weight("会社を辞めるときの手続きは？", "会社"); w <= wGloss || !content {
		t.Errorf("会社 of 会社を辞める alone weighs %g (content %v)", w, content)
	}
	// Two words of one group set side by side are both the question's.
	if w, _ := weight("評価と査定の違いは？", "評価"); w <= wGloss {
		t.Errorf("評価 beside 査定 weighs %g", w)
	}
	// A question of no noun keeps every word (its content words are its
	// terms).
	p := planRanked(Query{Words: []Word{{Text: "返す？戻す？"}}}, opts)
	if !slices.Equal(p.terms, []string{"返す", "戻す"}) {
		t.Errorf("terms %q, want 返す 戻す", p.terms)
	}
}
