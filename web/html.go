package web

import (
	"strings"

	"golang.org/x/net/html"
)

// droppedElements are removed with their content.
var droppedElements = map[string]bool{
	"script": true, "style": true, "iframe": true, "object": true, "embed": true,
	"noscript": true, "template": true, "svg": true, "math": true, "frameset": true, "frame": true, "applet": true,
}

// activeElements are dropped and also flagged: a search snippet has no
// business carrying them.
var activeElements = map[string]bool{
	"script": true, "iframe": true, "object": true, "embed": true, "applet": true, "frame": true, "frameset": true,
}

// breakElements become a space so that words on either side stay apart.
var breakElements = map[string]bool{
	"br": true, "p": true, "div": true, "li": true, "tr": true, "td": true, "th": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"ul": true, "ol": true, "table": true, "section": true, "article": true, "hr": true,
}

// stripHTML turns markup into its text. Dropped elements lose their
// content; other tags, comments and doctypes vanish; entities are decoded.
func stripHTML(s string, f *Flags) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	if t, ok := stripSimple(s); ok {
		return t
	}
	return stripHTMLTokenizer(s, f)
}

// stripHTMLTokenizer is stripHTML by the HTML tokenizer.
func stripHTMLTokenizer(s string, f *Flags) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	b.Grow(len(s))
	skip, skipName := 0, ""
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			// io.EOF, or a tag cut off at the end, which is lost: good.
			return b.String()
		case html.TextToken:
			if skip == 0 {
				b.Write(z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			tag := string(name)
			if hasAttr && activeAttributes(z) {
				f.addPattern(PatternActiveHTML)
			}
			if activeElements[tag] {
				f.addPattern(PatternActiveHTML)
			}
			if droppedElements[tag] {
				if tt == html.StartTagToken && tag != "embed" && tag != "frame" {
					if skip == 0 {
						skipName = tag
						skip = 1
					} else if tag == skipName {
						skip++
					}
				}
				continue
			}
			if skip == 0 && breakElements[tag] {
				b.WriteByte(' ')
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			if skip > 0 && tag == skipName {
				skip--
				continue
			}
			if skip == 0 && breakElements[tag] {
				b.WriteByte(' ')
			}
		}
	}
}

// simpleMarkup is what search engines put in snippets (highlights, line
// breaks, common entities), with what the tokenizer makes of it.
var simpleMarkup = []struct{ from, to string }{
	{"<b>", ""}, {"</b>", ""}, {"<strong>", ""}, {"</strong>", ""}, {"<em>", ""}, {"</em>", ""},
	{"<i>", ""}, {"</i>", ""}, {"<mark>", ""}, {"</mark>", ""}, {"<span>", ""}, {"</span>", ""},
	{"<br>", " "}, {"<br/>", " "}, {"<br />", " "},
	{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&#x27;", "'"}, {"&apos;", "'"}, {"&nbsp;", "\u00a0"},
}

// stripSimple strips text whose markup is all simpleMarkup without the
// tokenizer; it reports false for anything else.
func stripSimple(s string) (string, bool) {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		j := strings.IndexAny(s[i:], "<&")
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(s[i : i+j])
		i += j
		if next := byte(' '); true {
			if i+1 < len(s) {
				next = s[i+1]
			}
			// Not a tag, not an entity: text, as the tokenizer reads it.
			literal := s[i] == '<' && (next == ' ' || next >= '0' && next <= '9' || next == '=' || next == '<') ||
				s[i] == '&' && !(isASCIILetter(next) || next >= '0' && next <= '9' || next == '#')
			if literal {
				b.WriteByte(s[i])
				i++
				continue
			}
		}
		found := false
		for _, m := range simpleMarkup {
			if strings.HasPrefix(s[i:], m.from) {
				b.WriteString(m.to)
				i += len(m.from)
				found = true
				break
			}
		}
		if !found {
			return "", false
		}
	}
	return b.String(), true
}

// activeAttributes reports event handlers and script URLs among the
// attributes of the current tag.
func activeAttributes(z *html.Tokenizer) bool {
	active := false
	for {
		k, v, more := z.TagAttr()
		key := strings.ToLower(string(k))
		if strings.HasPrefix(key, "on") && len(key) > 2 {
			active = true
		}
		val := strings.ToLower(strings.Join(strings.Fields(string(v)), ""))
		if strings.HasPrefix(val, "javascript:") || strings.HasPrefix(val, "vbscript:") || strings.HasPrefix(val, "data:text/html") {
			active = true
		}
		if !more {
			return active
		}
	}
}

// hasTagStart reports a '<' that a browser or Markdown renderer could read
// as the start of a tag, comment or declaration.
func hasTagStart(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '<' || i+1 >= len(s) {
			continue
		}
		c := s[i+1]
		if c == '/' || c == '!' || c == '?' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') {
			return true
		}
	}
	return false
}
