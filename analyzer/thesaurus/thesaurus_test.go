package thesaurus

import (
	"slices"
	"testing"

	"lwr/analyzer"
)

// lookup analyzes q as the index does and looks it up.
func lookup(t testing.TB, q string) ([]string, []Match) {
	t.Helper()
	var terms []string
	var ts []Term
	toks := analyzer.Default().Tokens(q)
	for i, tk := range toks {
		terms = append(terms, tk.Term)
		ts = append(ts, Term{Text: tk.Term, Predicate: tk.POS == "動詞,自立" || tk.POS == "形容詞,自立", Joined: i > 0 && toks[i-1].End == tk.Start})
	}
	return terms, Default().Lookup(ts)
}

func texts(ws []Word) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Text)
	}
	return out
}

func TestLookup(t *testing.T) {
	for _, c := range []struct {
		q, from   string // the query, and the words the match stands for
		want, not []string
	}{
		{"スマホを忘れた", "スマホ", []string{"スマートフォン"}, nil},
		{"印鑑をなくした", "印鑑", []string{"印章", "判子"}, nil},
		{"パワハラの相談", "パワハラ", []string{"パワーハラスメント"}, nil},
		{"有休の申請", "有休", []string{"年次有給休暇", "有給休暇"}, nil},
		// 時短勤務 is one word of the group; 時短 alone is no trigger.
		{"時短勤務をしたい", "時短勤務", []string{"短時間勤務"}, nil},
		// A predicate finds predicates' groups: 消す → 消去; not 削除,
		// whose group has 消す as no trigger.
		{"ファイルを消す", "消す", []string{"消去"}, []string{"削除"}},
		{"有休申請", "有休申請", []string{"年次有給休暇申請"}, nil},
		// Expansion control 2 (忘れ物 is kept out of 遺失物's group).
		{"遺失物の届出", "遺失物", []string{"落とし物"}, []string{"忘れ物"}},
	} {
		terms, ms := lookup(t, c.q)
		var got *Match
		for i := range ms {
			if w := terms[ms[i].From:ms[i].To]; slices.Equal(w, termsOf(c.from)) {
				got = &ms[i]
			}
		}
		if got == nil {
			t.Errorf("%s: no match for %s in %v", c.q, c.from, ms)
			continue
		}
		for _, w := range c.want {
			if !slices.Contains(texts(got.Words), w) {
				t.Errorf("%s: %s lacks %s: %v", c.q, c.from, w, texts(got.Words))
			}
		}
		for _, w := range c.not {
			if slices.Contains(texts(got.Words), w) {
				t.Errorf("%s: %s has %s: %v", c.q, c.from, w, texts(got.Words))
			}
		}
	}
	// A word of one character triggers nothing (日 is 日産 in a group).
	if _, ms := lookup(t, "給料日"); len(ms) != 1 || ms[0].From != 0 || ms[0].To != 1 {
		t.Errorf("給料日: %+v", ms)
	}
	// The same lexeme comes first.
	_, ms := lookup(t, "スマホ")
	if len(ms) != 1 || !ms[0].Words[0].Variant {
		t.Errorf("スマホ: %+v", ms)
	}
	// 時短 alone triggers nothing (expansion control 1) but its other group.
	_, ms = lookup(t, "時短")
	for _, m := range ms {
		if slices.Contains(texts(m.Words), "パートタイム") {
			t.Errorf("時短 expanded through a group where it is no trigger: %v", texts(m.Words))
		}
	}
}

func termsOf(w string) []string {
	var out []string
	for _, tk := range analyzer.Default().Tokens(w) {
		out = append(out, tk.Term)
	}
	return out
}

// The embedded file was made with the analyzer as it is: every 97th
// word's stored terms are what the analyzer gives now (go generate
// ./analyzer/thesaurus rewrites the file when it does not).
func TestTermsCurrent(t *testing.T) {
	th := Default()
	if th.Len() < 60000 {
		t.Fatalf("%d words; the embedded file is incomplete", th.Len())
	}
	for i := 0; i < th.Len(); i += 97 {
		m := th.members[i]
		if got := termsOf(m.text); !slices.Equal(got, splitTerms(m.terms)) {
			t.Fatalf("%s: stored terms %q, the analyzer gives %q; run go generate ./analyzer/thesaurus", m.text, m.terms, got)
		}
	}
}

func splitTerms(s string) []string {
	var out []string
	for _, f := range slices.Collect(func(yield func(string) bool) {
		start := 0
		for i := 0; i <= len(s); i++ {
			if i == len(s) || s[i] == ' ' {
				if !yield(s[start:i]) {
					return
				}
				start = i + 1
			}
		}
	}) {
		out = append(out, f)
	}
	return out
}

func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	var ts []Term
	for _, tk := range analyzer.Default().Tokens("出張のホテル代の上限はいくらですか") {
		ts = append(ts, Term{Text: tk.Term})
	}
	Default()
	b.ReportAllocs()
	for b.Loop() {
		Default().Lookup(ts)
	}
}
