package index

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode"
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
