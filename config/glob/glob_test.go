package glob

import (
	"runtime"
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern string
		match   []string
		not     []string
	}{
		{"drafts", []string{"drafts/x.md", "drafts/sub/x.md", "規程/drafts/a.md", "drafts"}, []string{"drafts.md", "mydrafts/x.md", "規程/x.md"}},
		{"drafts/", []string{"drafts/x.md", "a/drafts/b/c.md"}, []string{"drafts", "a/drafts"}},
		{"/drafts", []string{"drafts/x.md", "drafts"}, []string{"規程/drafts/a.md"}},
		{"drafts/*", []string{"drafts/x.md", "drafts/sub/x.md"}, []string{"drafts", "規程/drafts/a.md"}},
		{"drafts/**", []string{"drafts/x.md", "drafts/sub/x.md"}, []string{"drafts", "x/drafts/a.md"}},
		{"*.bak", []string{"a.bak", "規程/旧/b.bak"}, []string{"a.bak.md", "bak"}},
		{"規程/**/旧*.md", []string{"規程/旧版.md", "規程/2024/旧規程.md", "規程/a/b/旧.md"}, []string{"規程/新.md", "研修/旧.md"}},
		{"**/tmp", []string{"tmp/a.md", "a/b/tmp/c.md", "tmp"}, []string{"tmpx/a.md"}},
		{"規程/就業規則.md", []string{"規程/就業規則.md"}, []string{"規程/就業規則.md.bak", "x/規程/就業規則.md"}},
		{"研修/202[45]/*.md", []string{"研修/2024/契約.md", "研修/2025/a.md"}, []string{"研修/2026/a.md", "研修/2024/a.txt"}},
		{"./規程", []string{"規程/a.md"}, []string{"x/規程/a.md"}},
		{"?.md", []string{"a.md", "x/b.md"}, []string{"ab.md"}},
		{"**", []string{"a.md", "x/y/z.md"}, nil},
		// NFC: a decomposed ガ in the pattern matches the composed one.
		{"カ\u3099イド", []string{"ガイド/a.md"}, nil},
	}
	for _, tt := range tests {
		p, err := Compile(tt.pattern)
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.pattern, err)
			continue
		}
		for _, m := range tt.match {
			if !p.Match(m) {
				t.Errorf("%q does not match %s", tt.pattern, m)
			}
		}
		for _, m := range tt.not {
			if p.Match(m) {
				t.Errorf("%q matches %s", tt.pattern, m)
			}
		}
	}
	if runtime.GOOS == "windows" {
		if p, _ := Compile("規程/README.md"); !p.Match("規程/readme.md") {
			t.Error("names compare without case on Windows")
		}
		if p, err := Compile(`規程\旧\*.md`); err != nil || !p.Match("規程/旧/a.md") {
			t.Errorf("a backslash is a separator on Windows: %v", err)
		}
	}
}

func TestCompileRefuses(t *testing.T) {
	for p, want := range map[string]string{
		"":           "empty",
		"  ":         "empty",
		`規程\旧.md`:    "backslash",
		"C:/資料/a.md": "drive letter",
		"~/資料":       "~",
		"!drafts":    "re-include",
		"a//b":       "doubled slash",
		"a/../b":     `".."`,
		"a/b**/c":    `"**" inside`,
		"a/[b":       `"[" class`,
		"a\x00b":     "control",
		"/":          "names no file",
	} {
		if strings.Contains(p, `\`) && runtime.GOOS == "windows" {
			continue // a separator there (TestMatch)
		}
		err := Check(p)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check(%q) = %v; want an error saying %s", p, err, want)
		}
	}
}

func TestLiteral(t *testing.T) {
	for p, want := range map[string]bool{"規程/a.md": true, "/a.md": true, "a.md": false, "規程/*.md": false} {
		if c, _ := Compile(p); c.Literal() != want {
			t.Errorf("%q: Literal() = %v, want %v", p, !want, want)
		}
	}
}

func BenchmarkMatch(b *testing.B) {
	p, _ := Compile("規程/**/旧*.md")
	for b.Loop() {
		p.Match("規程/2024/部署/課/旧規程.md")
	}
}
