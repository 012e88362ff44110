package index

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseDocumentTitleAndSummary(t *testing.T) {
	tests := []struct {
		name, rel, text  string
		sidecar          string
		title, summary   string
		leadHas, leadNot string
	}{
		{name: "markdown heading", rel: "規程/就業規則.md", text: "# 就業規則\n\n第1条 目的\n", title: "就業規則", leadHas: "第1条", leadNot: "# 就業規則"},
		{name: "front matter", rel: "a.md", text: "---\ntitle: 旅費規程\nsummary: 出張の日当と宿泊料\n---\n# 見出し\n本文\n", title: "旅費規程", summary: "出張の日当と宿泊料", leadHas: "本文"},
		{name: "heading in code fence ignored", rel: "b.md", text: "```\n# not a title\n```\n## 本当の見出し\n", title: "本当の見出し"},
		{name: "text file uses its name", rel: "メモ/議事録.txt", text: "# not markdown\n", title: "議事録.txt", leadHas: "# not markdown"},
		{name: "sidecar wins", rel: "手順/経費.md", text: "---\nsummary: 古い要約\n---\n# 経費\n", sidecar: "summary: 経費精算の流れ\n", title: "経費", summary: "経費精算の流れ"},
		{name: "empty", rel: "empty.md", text: "", title: "empty.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var side []byte
			if tt.sidecar != "" {
				side = []byte(tt.sidecar)
			}
			d := parseDocument(tt.rel, tt.text, "utf-8", side, nil)
			if d.Title != tt.title || d.Summary != tt.summary {
				t.Errorf("title %q summary %q, want %q %q", d.Title, d.Summary, tt.title, tt.summary)
			}
			if tt.leadHas != "" && !strings.Contains(d.Lead, tt.leadHas) {
				t.Errorf("lead %q lacks %q", d.Lead, tt.leadHas)
			}
			if tt.leadNot != "" && strings.Contains(d.Lead, tt.leadNot) {
				t.Errorf("lead %q has %q", d.Lead, tt.leadNot)
			}
			if len(d.Passages) == 0 {
				t.Error("no passages")
			}
		})
	}
}

func TestLines(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", []string{""}},
		{"a", []string{"a"}},
		{"a\n", []string{"a"}},
		{"a\r\nb\r\n", []string{"a", "b"}},
		{"a\n\nb", []string{"a", "", "b"}},
	}
	for _, tt := range tests {
		if got := Lines(tt.in); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("Lines(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Passages must cover every non-blank line exactly once, in order, hold the
// exact text of their lines, and respect the bounds.
func TestCutPassagesCoverLines(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		switch {
		case i%97 == 0:
			fmt.Fprintf(&b, "# 見出し %d\n", i)
		case i%13 == 0:
			b.WriteString("\n")
		case i == 200:
			b.WriteString(strings.Repeat("長い行", 2000) + "\n")
		default:
			fmt.Fprintf(&b, "行 %d の本文です。\n", i)
		}
	}
	lines := Lines(b.String())
	ps := cutPassages(lines, nil)
	next := 1
	for _, p := range ps {
		if p.Start < next || p.End < p.Start || p.End > len(lines) {
			t.Fatalf("passage %d-%d out of order (next %d)", p.Start, p.End, next)
		}
		for l := next; l < p.Start; l++ {
			if strings.TrimSpace(lines[l-1]) != "" {
				t.Fatalf("line %d is in no passage", l)
			}
		}
		if p.Text != strings.Join(lines[p.Start-1:p.End], "\n") {
			t.Fatalf("passage %d-%d text differs from its lines", p.Start, p.End)
		}
		if p.End-p.Start+1 > passageLines {
			t.Errorf("passage %d-%d longer than %d lines", p.Start, p.End, passageLines)
		}
		next = p.End + 1
	}
	for l := next; l <= len(lines); l++ {
		if strings.TrimSpace(lines[l-1]) != "" {
			t.Fatalf("line %d is in no passage", l)
		}
	}
}

func TestPassageID(t *testing.T) {
	id := passageID("研修/2024/a#b.md", 3, 41)
	p, s, e, ok := parsePassageID(id)
	if !ok || p != "研修/2024/a#b.md" || s != 3 || e != 41 {
		t.Errorf("parsePassageID(%q) = %q %d %d %v", id, p, s, e, ok)
	}
}

func FuzzParseDocument(f *testing.F) {
	f.Add("# 見出し\n本文\n\n---\n", "a.md")
	f.Add("---\ntitle: x\n---\n", "b.md")
	f.Add("\r\n\r\n", "c.txt")
	f.Fuzz(func(t *testing.T, text, rel string) {
		d := parseDocument(rel+".md", text, "utf-8", nil, nil)
		lines := Lines(text)
		for _, p := range d.Passages {
			if p.Start < 1 || p.End > len(lines) || p.Start > p.End {
				t.Fatalf("passage %d-%d outside %d lines", p.Start, p.End, len(lines))
			}
		}
	})
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte("有給休暇"))
	f.Add([]byte{0x82, 0xa0, 0x82, 0xa2})
	f.Add([]byte{0xff, 0xfe, 0x41, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		s, _, err := Decode(b)
		if err == nil && !isValidUTF8(s) {
			t.Fatalf("Decode returned invalid UTF-8 for %x", b)
		}
	})
}
