package report_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"lwr/research/report"
)

func TestText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{name: "plain Japanese", in: "200万円以下（税込）", want: "200万円以下（税込）"},
		{name: "newline and tab", in: "a\nb\tc\r", want: `a\nb\tc\r`},
		{name: "markdown link", in: "[x](https://e)", want: "［x］(https://e)"},
		{name: "html", in: "<b>", want: "＜b＞"},
		{name: "table and code", in: "a|b`c`", want: "a｜b｀c｀"},
		{name: "quote and backslash", in: `"\`, want: `\"\\`},
		{name: "bidi and zero width", in: "a\u202eb\u200bc\ufeff", want: `a\u202Eb\u200Bc\uFEFF`},
		{name: "line separator", in: "a\u2028b", want: `a\u2028b`},
		{name: "control", in: "a\x00b\x1b", want: `a\u0000b\u001B`},
		{name: "ideographic space kept", in: "版数　第2版", want: "版数　第2版"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := report.Text(tt.in); got != tt.want {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func ExampleText() {
	fmt.Println(report.Text("[開く](javascript:x) <b>|`\n"))
	// Output:
	// ［開く］(javascript:x) ＜b＞｜｀\n
}

// URL percent-encodes what could end a Markdown link target or break a
// line, and keeps the rest (the two escapers of an earlier version
// disagreed on the parentheses).
func TestURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://www.example.go.jp/keiyaku/youryou.html", "https://www.example.go.jp/keiyaku/youryou.html"},
		{"https://example.go.jp/a?b=<c>&d=[e]|f", "https://example.go.jp/a?b=%3Cc%3E&d=%5Be%5D%7Cf"},
		{"https://e.jp/a_(b)", "https://e.jp/a_%28b%29"},
		{"https://e.jp/a b\n\"`", "https://e.jp/a%20b%0A%22%60"},
		{"https://e.jp/\u202e\u200bx", "https://e.jp/%E2%80%AE%E2%80%8Bx"},
		{"https://例え.jp/パス", "https://例え.jp/パス"},
	}
	for _, tt := range tests {
		got := report.URL(tt.in)
		if got != tt.want {
			t.Errorf("URL(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if strings.ContainsAny(got, "()<>[]|` \n\"") {
			t.Errorf("URL(%q) = %q keeps an unsafe character", tt.in, got)
		}
	}
}

// TestInlineRendersAsText renders hostile lines of web text after "> ",
// as the report places a snippet, through a CommonMark renderer with
// GitHub's extensions: each stays one paragraph of text in the quote.
func TestInlineRendersAsText(t *testing.T) {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	for _, line := range []string{
		"## 4. 結論", "# 見出し", "###### 六", "- 項目", "+ 項目", "* 項目", "1. 番号", "12) 番号", "> 引用",
		"---", "***", "___", "===", "~~~", "```", "    字下げのコード", "| 表 | 列 |", ": 定義",
		"<script>alert(1)</script>", "<b>太字</b>", "<!-- コメント -->",
		"[リンク](https://evil.example/x)", "![画像](https://evil.example/i.png)", "[参照]: https://evil.example",
		"詳しくは https://evil.example/x を参照", "www.evil.example で公開", "連絡先 someone@evil.example まで",
		"[^1] 脚注", "\\# エスケープ済み", "&lt;script&gt;",
	} {
		var out bytes.Buffer
		if err := md.Convert([]byte("> "+report.Inline(line)+"\n"), &out); err != nil {
			t.Fatal(err)
		}
		html := strings.TrimSpace(out.String())
		inner, ok := strings.CutPrefix(html, "<blockquote>\n<p>")
		inner, ok2 := strings.CutSuffix(inner, "</p>\n</blockquote>")
		if !ok || !ok2 || strings.Contains(inner, "<") && !strings.HasPrefix(strings.TrimPrefix(inner, "<"), "em>") && !strings.Contains(inner, "<strong>") {
			t.Errorf("%q renders as\n%s", line, html)
		}
		for _, bad := range []string{"<a ", "<img", "<h", "<li", "<hr", "<pre", "<code", "<table", "<script", "<b>", "<!--"} {
			if strings.Contains(html, bad) {
				t.Errorf("%q renders %s: %s", line, bad, html)
			}
		}
	}
}
