package report

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"lwr/analyzer/lazyre"
)

// Text makes text from documents, policy files, paths and the web safe to
// show in Markdown, HTML and one-line messages: it is data, never
// instructions. Backslash and double quote are escaped with a backslash;
// newline, tab and carriage return become \n, \t, \r; other control
// characters, line and paragraph separators and invisible format
// characters (zero-width, bidi controls, BOM) become \uXXXX; and < > [ ] |
// ` become their full-width forms ＜ ＞ ［ ］ ｜ ｀, so no link, tag, table
// cell or code span can form.
func Text(s string) string {
	clean := true
	for _, r := range s {
		if needsEscape(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '<':
			b.WriteRune('＜')
		case '>':
			b.WriteRune('＞')
		case '[':
			b.WriteRune('［')
		case ']':
			b.WriteRune('］')
		case '|':
			b.WriteRune('｜')
		case '`':
			b.WriteRune('｀')
		case utf8.RuneError:
			b.WriteString(`\uFFFD`)
		default:
			if invisible(r) {
				if r > 0xFFFF {
					fmt.Fprintf(&b, `\U%08X`, r)
				} else {
					fmt.Fprintf(&b, `\u%04X`, r)
				}
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Inline is Text for a line of text from outside (a web title or
// snippet) placed in the report's Markdown, also where it starts a line
// (after "> "): no line of it can become a heading, list item, thematic
// break, quote, code block, table, link or HTML. On top of Text, a
// leading block marker (# - + * = _ ~ : or "1." / "1)") is escaped with a
// backslash, and what GitHub's Markdown turns into links by itself is
// broken: "://" becomes "：//", "www." and the @ of an e-mail address
// their full-width forms.
func Inline(s string) string {
	s = Text(s)
	lead := strings.TrimLeft(s, " ")
	indent := s[:len(s)-len(lead)]
	if len(indent) >= 4 {
		indent = "" // an indented code block
	}
	if lead != "" {
		switch lead[0] {
		case '#', '-', '+', '*', '=', '_', '~', ':':
			lead = `\` + lead
		default:
			if i := strings.IndexFunc(lead, func(r rune) bool { return r < '0' || r > '9' }); i > 0 && i <= 9 && (lead[i] == '.' || lead[i] == ')') {
				lead = lead[:i] + `\` + lead[i:]
			}
		}
	}
	s = indent + lead
	if strings.Contains(s, "://") {
		s = strings.ReplaceAll(s, "://", "：//")
	}
	return autolinkRe.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasSuffix(m, ".") {
			return m[:len(m)-1] + "．" // www.
		}
		return strings.Replace(m, "@", "＠", 1)
	})
}

// autolinkRe finds what GitHub's Markdown links without markup: "www."
// at a word start, and the @ of an e-mail address.
var autolinkRe = lazyre.New(`(?i)(?:^|[^a-z0-9_.-])www\.|[a-z0-9._+-]@[a-z0-9-]`)

func needsEscape(r rune) bool {
	switch r {
	case '\\', '"', '<', '>', '[', ']', '|', '`', utf8.RuneError:
		return true
	}
	return invisible(r)
}

// invisible: control characters, separators other than the space, and
// format characters (zero-width, bidi controls, BOM, tags).
func invisible(r rune) bool {
	if r < 0x80 {
		return r < 0x20 || r == 0x7f
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) ||
		(unicode.Is(unicode.Zs, r) && r != '\u3000' && r != '\u00a0')
}

// urlUnsafe are the ASCII characters a URL shown in Markdown or a one-line
// message must not carry as they are: they could end a link target, start
// markup or break the line.
const urlUnsafe = "()<>[]\"`|\\{}^"

// URL makes a URL (already checked to be https) safe as a Markdown link
// target and in a one-line message: spaces, control and invisible
// characters and the characters of urlUnsafe are percent-encoded; other
// characters, non-ASCII letters included, stay as they are.
func URL(u string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(u, "\uFFFD") {
		if r <= ' ' || r == 0x7f || r < utf8.RuneSelf && strings.ContainsRune(urlUnsafe, r) || r >= utf8.RuneSelf && (invisible(r) || r == utf8.RuneError) {
			var buf [utf8.UTFMax]byte
			for _, c := range buf[:utf8.EncodeRune(buf[:], r)] {
				fmt.Fprintf(&b, "%%%02X", c)
			}
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// PathTarget is a path (absolute, forward slashes) as a Markdown link
// target: as it is, or in <…> when it holds characters that would end the
// target.
func PathTarget(p string) string {
	if strings.ContainsAny(p, " ()<>\t") {
		return "<" + strings.NewReplacer("<", "%3C", ">", "%3E").Replace(p) + ">"
	}
	return p
}

// fence returns a code fence longer than any backtick run in s.
func fence(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// QuoteBlock is text cited as it is: in a fenced block that no line of it
// can close.
func QuoteBlock(text string) string {
	f := fence(text)
	return fmt.Sprintf("%stext\n%s\n%s\n", f, strings.TrimRight(text, "\n"), f)
}

// Cut shortens text to n characters, marking the cut with "…".
func Cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
