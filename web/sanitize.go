package web

import (
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/idna"
	"golang.org/x/text/unicode/norm"
)

// Flags are the aggregate findings of sanitizing (SPEC §6.3, seed 004).
type Flags struct {
	// SuspiciousPatterns lists the categories of prompt-injection text,
	// active HTML and unsafe URL schemes that were found and removed.
	SuspiciousPatterns []string `json:"suspicious_patterns"`
	// HadInvisibleChars is set when zero-width, bidi-control, other
	// format or control characters were removed.
	HadInvisibleChars bool `json:"had_invisible_chars"`
	// FilteredUnsafeURLs counts results dropped because their URL was not
	// a plain https:// URL to a public host.
	FilteredUnsafeURLs int `json:"filtered_unsafe_urls"`
	// DroppedResults counts results dropped because a provider returned
	// more than MaxResults, or returned entries that could not be read.
	DroppedResults int `json:"dropped_results"`
	// QueryMismatch is set when a provider reports it searched for a
	// different query than it was asked (compared after NFKC; case and
	// inner space differences count, as in seed 004: over-detect).
	QueryMismatch bool `json:"query_mismatch"`
}

// Suspicious-pattern categories.
const (
	PatternIgnoreInstructions = "ignore_instructions" // "ignore previous instructions", 前の指示を無視
	PatternRoleMarker         = "role_marker"         // "system:", "new instructions:", システム:
	PatternChatTemplate       = "chat_template"       // <|im_start|>, [INST], <<SYS>>
	PatternRolePlay           = "role_play"           // "you are now", "pretend to be", あなたは今から
	PatternActiveHTML         = "active_html"         // script/iframe/object/embed, on* handlers, javascript: in markup
	PatternUnsafeURLScheme    = "unsafe_url_scheme"   // javascript:, data:, file:, vbscript:, blob: … result URLs; script URLs in text
)

// Merge adds o's findings to f.
func (f *Flags) Merge(o Flags) {
	for _, p := range o.SuspiciousPatterns {
		f.addPattern(p)
	}
	f.HadInvisibleChars = f.HadInvisibleChars || o.HadInvisibleChars
	f.FilteredUnsafeURLs += o.FilteredUnsafeURLs
	f.DroppedResults += o.DroppedResults
	f.QueryMismatch = f.QueryMismatch || o.QueryMismatch
}

func (f *Flags) addPattern(p string) {
	if !slices.Contains(f.SuspiciousPatterns, p) {
		f.SuspiciousPatterns = append(f.SuspiciousPatterns, p)
		slices.Sort(f.SuspiciousPatterns)
	}
}

// Verdict is the safety verdict that the report shows.
type Verdict string

// The verdicts.
const (
	Safe    Verdict = "安全"
	Caution Verdict = "注意"
	Review  Verdict = "要確認"
)

func (v Verdict) String() string { return string(v) }

// Verdict sums the flags up (seed 004, with one documented difference):
//
//   - 要確認 (Review) when any suspicious pattern was found — injection
//     text, active HTML, a script URL in the text, or a result URL with a
//     javascript:, data:, file:, vbscript:, blob: or other non-web scheme —
//     or when QueryMismatch is set;
//   - 注意 (Caution) when invisible characters were removed, results were
//     dropped over the limit or unreadable, or results were filtered for a
//     URL that is merely not https:// (http://, ftp://, a private or local
//     host, user information);
//   - 安全 (Safe) otherwise.
//
// Seed 004 makes every filtered URL 要確認; lwr keeps that for dangerous
// schemes (they are also recorded as the unsafe_url_scheme pattern) but
// treats plain http:// links, common in ordinary results, as 注意.
// String lists the flags that are set, e.g. "suspicious_patterns=…
// had_invisible_chars filtered_unsafe_urls=2"; "" when none is.
func (f Flags) String() string {
	var parts []string
	if len(f.SuspiciousPatterns) > 0 {
		parts = append(parts, "suspicious_patterns="+strings.Join(f.SuspiciousPatterns, ","))
	}
	if f.HadInvisibleChars {
		parts = append(parts, "had_invisible_chars")
	}
	if f.FilteredUnsafeURLs > 0 {
		parts = append(parts, fmt.Sprintf("filtered_unsafe_urls=%d", f.FilteredUnsafeURLs))
	}
	if f.DroppedResults > 0 {
		parts = append(parts, fmt.Sprintf("dropped_results=%d", f.DroppedResults))
	}
	if f.QueryMismatch {
		parts = append(parts, "query_mismatch")
	}
	return strings.Join(parts, " ")
}

func (f Flags) Verdict() Verdict {
	switch {
	case len(f.SuspiciousPatterns) > 0 || f.QueryMismatch:
		return Review
	case f.HadInvisibleChars || f.DroppedResults > 0 || f.FilteredUnsafeURLs > 0:
		return Caution
	}
	return Safe
}

// QueryMismatch reports whether a provider's reported query differs from
// the asked one after NFKC and trimming. An empty report is no mismatch.
func QueryMismatch(asked, reported string) bool {
	if strings.TrimSpace(reported) == "" {
		return false
	}
	n := func(s string) string { return strings.TrimSpace(norm.NFKC.String(strings.ToValidUTF8(s, "\uFFFD"))) }
	return n(asked) != n(reported)
}

// SanitizeText cleans one piece of text from outside so that it can be
// cached, stored and rendered: invalid UTF-8 is repaired; invisible,
// bidi-control and other format and control characters are removed (flag
// HadInvisibleChars); the text is NFKC-normalized; script, style, iframe,
// object and embed elements are dropped with their content and every other
// tag and comment is stripped, entities decoded (repeated until stable, so
// escaped markup cannot survive); prompt-injection phrases in English and
// Japanese are replaced with [REMOVED] (flag SuspiciousPatterns); runs of
// white space become one space; the text is cut to maxRunes characters
// (≤ 0 means MaxSnippetRunes).
func SanitizeText(s string, maxRunes int) (string, Flags) {
	var f Flags
	if maxRunes <= 0 {
		maxRunes = MaxSnippetRunes
	}
	return sanitizeText(s, maxRunes, &f), f
}

// sanitizePasses bounds the clean-until-stable loop.
const sanitizePasses = 4

func sanitizeText(s string, maxRunes int, f *Flags) string {
	// Bound the work: nothing past this many bytes can survive the cut.
	if limit := maxRunes*4*8 + 1024; len(s) > limit {
		s = s[:limit]
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	// Clean the text; while markup or entities remain, strip them and
	// clean what that produced (entities may decode to invisible or
	// full-width characters, removed tags may join injection text).
	for pass := 0; ; pass++ {
		if inv, stable := classify(s); inv >= 0 {
			s = norm.NFKC.String(removeInvisibleFrom(s, inv, f))
		} else if !stable {
			s = norm.NFKC.String(s)
		}
		s = replacePatterns(collapseSpace(s), f)
		if pass == sanitizePasses || !strings.ContainsAny(s, "<&") {
			break
		}
		t := stripHTML(s, f)
		if t == s {
			break
		}
		s = t
	}
	if hasTagStart(s) {
		// Markup that did not settle in sanitizePasses: drop the brackets.
		s = replacePatterns(collapseSpace(strings.NewReplacer("<", "", ">", "").Replace(s)), f)
	}
	// s is collapsed: every pass collapses before replacing, and neither
	// a replacement nor an unchanged strip adds space.
	if t := truncateRunes(s, maxRunes); t != s {
		s = t
		// Cutting can complete a word boundary ("forget all|x"): look again.
		if r := replacePatterns(s, f); r != s {
			s = truncateRunes(r, maxRunes)
		}
	}
	return s
}

// isInvisible reports characters that render as nothing or reorder text:
// zero-width and joiner characters, bidi embeddings, overrides and isolates,
// soft hyphen, BOM, tag characters (all of Unicode's Cf), Hangul fillers,
// the combining grapheme joiner, and C0/C1 controls other than tab and
// line breaks.
func isInvisible(r rune) bool {
	switch r {
	case '\t', '\n', '\r':
		return false
	case 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0:
		return true
	}
	if r < 0x20 || (r >= 0x7F && r <= 0x9F) {
		return true
	}
	if r < 0xAD || (r > 0x206F && r < 0xFEFF) {
		// No format character lives here (kana and kanji included).
		return false
	}
	return unicode.Is(unicode.Cf, r)
}

func removeInvisible(s string, f *Flags) string {
	i := strings.IndexFunc(s, isInvisible)
	if i < 0 {
		return s
	}
	return removeInvisibleFrom(s, i, f)
}

// removeInvisibleFrom removes invisible characters from s, the first of
// which is at i.
func removeInvisibleFrom(s string, i int, f *Flags) string {
	f.HadInvisibleChars = true
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if !isInvisible(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func nfkc(s string) string {
	if stableUnderNFKC(s) {
		return s
	}
	return norm.NFKC.String(s)
}

// classify scans s once: the offset of its first invisible character
// (-1 for none), and whether NFKC certainly leaves it as it is.
func classify(s string) (invisible int, stable bool) {
	stable = true
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7F {
				return i, false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !nfkcStableRune(r) {
			if isInvisible(r) {
				return i, false
			}
			stable = false
		}
		i += n
	}
	return -1, stable
}

// stableUnderNFKC is a fast check for the common case: text made only of
// printable ASCII, white space and the kana, kanji and punctuation of
// ordinary Japanese, each of which NFKC leaves as it is and none of which
// combines with a neighbour (TestStableUnderNFKC checks the ranges).
func stableUnderNFKC(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !nfkcStableRune(r) {
			return false
		}
		i += n
	}
	return true
}

func nfkcStableRune(r rune) bool {
	switch {
	case r >= 0x4E00 && r <= 0x9FFF: // CJK unified ideographs
	case r >= 0x3041 && r <= 0x3096: // hiragana
	case r >= 0x30A1 && r <= 0x30FA: // katakana
	case r == 0x30FC: // ー
	case r >= 0x3001 && r <= 0x3003, r >= 0x3005 && r <= 0x3007, r >= 0x3008 && r <= 0x3011: // 、。〃々〆〇 〈〉《》「」『』【】
	case r >= 0x3013 && r <= 0x301B: // 〓〔〕〖〗〘〙〚〛
	default:
		return false
	}
	return true
}

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

func collapseSpace(s string) string {
	if spaceClean(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// spaceClean reports text without leading, trailing or doubled spaces and
// without white space other than ' ' (Unicode White_Space, by bytes).
func spaceClean(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ':
			if s[i+1] == ' ' {
				return false
			}
		case '\t', '\n', '\v', '\f', '\r':
			return false
		case 0xC2: // U+0085, U+00A0
			if i+1 < len(s) && (s[i+1] == 0x85 || s[i+1] == 0xA0) {
				return false
			}
		case 0xE1: // U+1680
			if strings.HasPrefix(s[i:], "\u1680") {
				return false
			}
		case 0xE2: // U+2000–200A, U+2028, U+2029, U+202F, U+205F
			if i+2 < len(s) && (s[i+1] == 0x80 && (s[i+2] <= 0x8A || s[i+2] == 0xA8 || s[i+2] == 0xA9 || s[i+2] == 0xAF) || s[i+1] == 0x81 && s[i+2] == 0x9F) {
				return false
			}
		case 0xE3: // U+3000
			if i+2 < len(s) && s[i+1] == 0x80 && s[i+2] == 0x80 {
				return false
			}
		}
	}
	return true
}

func truncateRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return strings.TrimRightFunc(s[:j], unicode.IsSpace)
		}
		i++
	}
	return s
}

// injection is one family of prompt-injection text.
type injection struct {
	category string
	// The pattern runs only when the text holds a trigger: a whole ASCII
	// word (any case), a non-ASCII character, or an ASCII punctuation byte.
	words []string
	runes []rune
	bytes string
	// re runs on the text with ASCII lower-cased; most begin with a
	// literal, which the regexp package finds fast.
	re *regexp.Regexp
	// wordStart: a match must not follow an ASCII letter or digit (the
	// \b that would cost re its literal prefix).
	wordStart bool
	// around, for patterns without a leading literal: re runs only on
	// windows of the text around each occurrence of these strings, back
	// and fwd bytes wide (white space is collapsed first, and every
	// repetition in re is bounded, so a match fits in its window).
	around    []string
	back, fwd int
}

// sanitizeTables are the compiled injection patterns and their trigger
// index, built on first use (not at process start: most lwr commands never
// sanitize anything); regexp values are safe for concurrent use.
type sanitizeTables struct {
	injections []injection
	triggers   *triggerIndex
}

var tables = sync.OnceValue(func() *sanitizeTables {
	inj := newInjections()
	return &sanitizeTables{injections: inj, triggers: buildTriggers(inj)}
})

func newInjections() []injection {
	return []injection{
		{category: PatternIgnoreInstructions, words: []string{"ignore"}, wordStart: true, re: regexp.MustCompile(`ignore\s+(?:(?:all|any|the|your|my|of|these|those)\s+){0,8}(?:previous|prior|above|earlier|preceding|former|all|system|developer)\s+(?:instructions?|prompts?|rules|directions|guidelines|messages?|context)`)},
		{category: PatternIgnoreInstructions, words: []string{"disregard"}, wordStart: true, re: regexp.MustCompile(`disregard\s+(?:(?:all|any|the|your)\s+){0,8}(?:previous|prior|above|earlier|all|system)\b`)},
		{category: PatternIgnoreInstructions, words: []string{"forget"}, wordStart: true, re: regexp.MustCompile(`forget\s+(?:everything|all\b|(?:your\s+|the\s+)?(?:previous|prior)\b)`)},
		{category: PatternIgnoreInstructions, words: []string{"override"}, wordStart: true, re: regexp.MustCompile(`override\s+(?:(?:the|your|all)\s+){0,8}(?:previous|prior|system|safety)\b`)},
		{category: PatternIgnoreInstructions, runes: []rune{'無', '忘', '破'}, around: []string{"無視", "忘れ", "破棄"}, back: 160, fwd: 40,
			re: regexp.MustCompile(`(?:前|以前|これまで|今まで|上記|先ほど|過去|元)の(?:(?:全て|すべて|全部)の)?(?:指示|命令|指令|ルール|プロンプト|設定|制約)(?:を|は)\s?(?:(?:全て|すべて|全部)\s?)?(?:無視|忘れ|破棄)|(?:指示|命令|指令|ルール|制約)を\s?(?:(?:全て|すべて|全部)\s?)?(?:無視|忘れ)(?:して|しろ|せよ|なさい|てください|ること)`)},
		{category: PatternRoleMarker, words: []string{"system"}, wordStart: true, re: regexp.MustCompile(`system\s*:`)},
		{category: PatternRoleMarker, words: []string{"instruction", "instructions"}, wordStart: true, around: []string{"instruction"}, back: 12, fwd: 20, re: regexp.MustCompile(`(?:new|updated|real|actual)\s+instructions?\s*:`)},
		{category: PatternRoleMarker, runes: []rune{'シ'}, re: regexp.MustCompile(`システム\s*(?::|プロンプトを(?:表示|出力|開示|教え|無視))`)},
		{category: PatternRoleMarker, runes: []rune{'指', '命'}, around: []string{"指示", "命令"}, back: 16, fwd: 16, re: regexp.MustCompile(`(?:新しい|新たな|本当の)(?:指示|命令)\s*:`)},
		{category: PatternChatTemplate, bytes: "<", re: regexp.MustCompile(`<\|[a-z_]{2,24}\|>`)},
		{category: PatternChatTemplate, bytes: "<", re: regexp.MustCompile(`<</?sys>>`)},
		{category: PatternChatTemplate, bytes: "[", re: regexp.MustCompile(`\[/?inst\]`)},
		{category: PatternRolePlay, words: []string{"you"}, wordStart: true, re: regexp.MustCompile(`you\s+are\s+now\b`)},
		{category: PatternRolePlay, words: []string{"pretend"}, wordStart: true, re: regexp.MustCompile(`pretend\s+(?:you\s+are|to\s+be)\b`)},
		{category: PatternRolePlay, words: []string{"from"}, wordStart: true, re: regexp.MustCompile(`from\s+now\s+on,?\s+you\b`)},
		{category: PatternRolePlay, runes: []rune{'あ'}, re: regexp.MustCompile(`あなたは(?:今から|これから|今後)`)},
		// Script URLs in text would become live links if the text were ever
		// rendered as Markdown ([x](javascript:…)).
		{category: PatternUnsafeURLScheme, words: []string{"javascript"}, wordStart: true, re: regexp.MustCompile(`javascript\s*:`)},
		{category: PatternUnsafeURLScheme, words: []string{"vbscript"}, wordStart: true, re: regexp.MustCompile(`vbscript\s*:`)},
		{category: PatternUnsafeURLScheme, words: []string{"html"}, wordStart: true, re: regexp.MustCompile(`data\s*:\s*text/html\b`)},
	}
}

// triggerIndex finds, in one pass over a text, the injections to run.
type triggerIndex struct {
	words map[string]uint64
	// runes maps the UTF-8 encoding of a trigger character, as a number,
	// to its injections; lastByte filters lookups by the encoding's last byte.
	runes    map[uint32]uint64
	lastByte [256]bool
	bytes    [utf8.RuneSelf]uint64
	// ascii is the set of injections whose pattern needs ASCII lower case.
	ascii uint64
}

func buildTriggers(injections []injection) *triggerIndex {
	ti := &triggerIndex{words: map[string]uint64{}, runes: map[uint32]uint64{}}
	for i, inj := range injections {
		bit := uint64(1) << i
		for _, w := range inj.words {
			ti.words[w] |= bit
		}
		for _, r := range inj.runes {
			enc := string(r)
			ti.runes[encKey(enc)] |= bit
			ti.lastByte[enc[len(enc)-1]] = true
		}
		for j := 0; j < len(inj.bytes); j++ {
			ti.bytes[inj.bytes[j]] |= bit
		}
		if len(inj.words) > 0 || inj.bytes != "" {
			ti.ascii |= bit
		}
	}
	return ti
}

// encKey is a UTF-8 encoding of up to 4 bytes as a number.
func encKey(enc string) uint32 {
	var k uint32
	for i := 0; i < len(enc); i++ {
		k = k<<8 | uint32(enc[i])
	}
	return k
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isWordByte(c byte) bool { return isASCIILetter(c) || '0' <= c && c <= '9' || c == '_' }

// scan returns the set of injections whose triggers occur in s (valid UTF-8).
func (ti *triggerIndex) scan(s string) uint64 {
	var mask uint64
	var buf [12]byte
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isASCIILetter(c):
			j := i + 1
			for j < len(s) && isASCIILetter(s[j]) {
				j++
			}
			if j-i <= len(buf) {
				w := buf[:j-i]
				for k := range w {
					w[k] = s[i+k] | 0x20 // ASCII letters only: lower case
				}
				mask |= ti.words[string(w)]
			}
			i = j
		case c < utf8.RuneSelf:
			mask |= ti.bytes[c]
			i++
		default:
			n := 2
			if c >= 0xF0 {
				n = 4
			} else if c >= 0xE0 {
				n = 3
			}
			n = min(n, len(s)-i)
			if ti.lastByte[s[i+n-1]] {
				mask |= ti.runes[encKey(s[i:i+n])]
			}
			i += n
		}
	}
	return mask
}

// asciiLower lower-cases ASCII letters only, keeping every byte offset.
func asciiLower(s string) string {
	i := 0
	for i < len(s) && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if 'A' <= b[i] && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}

// removedMark replaces injection text.
const removedMark = "[REMOVED]"

// replacePatterns replaces prompt-injection text with [REMOVED]. Matching
// runs on a view of the text in which common Cyrillic and Greek
// look-alikes are folded to Latin letters and ASCII is lower-cased, so
// "IGNORE" and "іgnore" (Cyrillic і) are caught; the replacement is made
// in the text itself. White space should be collapsed first.
func replacePatterns(s string, f *Flags) string {
	view, offs := foldLookalikes(s)
	t := tables()
	mask := t.triggers.scan(view)
	if mask == 0 {
		return s
	}
	if mask&t.triggers.ascii != 0 {
		view = asciiLower(view) // same byte offsets
	}
	var spans [][2]int
	add := func(inj injection, base int, ms [][]int) {
		for _, m := range ms {
			a, b := base+m[0], base+m[1]
			if inj.wordStart && a > 0 && isWordByte(view[a-1]) {
				continue
			}
			f.addPattern(inj.category)
			spans = append(spans, [2]int{a, b})
		}
	}
	for i, inj := range t.injections {
		if mask&(1<<i) == 0 {
			continue
		}
		if len(inj.around) == 0 {
			add(inj, 0, inj.re.FindAllStringIndex(view, -1))
			continue
		}
		for _, lit := range inj.around {
			for from := 0; ; {
				j := strings.Index(view[from:], lit)
				if j < 0 {
					break
				}
				p := from + j
				lo, hi := max(0, p-inj.back), min(len(view), p+len(lit)+inj.fwd)
				for lo > 0 && !utf8.RuneStart(view[lo]) {
					lo--
				}
				for hi < len(view) && !utf8.RuneStart(view[hi]) {
					hi++
				}
				add(inj, lo, inj.re.FindAllStringIndex(view[lo:hi], -1))
				from = p + len(lit)
			}
		}
	}
	if len(spans) == 0 {
		return s
	}
	if offs != nil {
		for i, sp := range spans {
			spans[i] = [2]int{offs[sp[0]], offs[sp[1]]}
		}
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		if sp[0] < last {
			if sp[1] > last {
				last = sp[1]
			}
			continue
		}
		b.WriteString(s[last:sp[0]])
		b.WriteString(removedMark)
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// lookalikes maps Cyrillic and Greek letters that look like Latin ones.
var lookalikes = map[rune]rune{
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'і': 'i', 'ј': 'j', 'ѕ': 's',
	'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'һ': 'h', 'ӏ': 'l', 'ո': 'n', 'ɡ': 'g', 'ı': 'i',
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X', 'І': 'I', 'Ѕ': 'S',
	'α': 'a', 'ο': 'o', 'ρ': 'p', 'ν': 'v', 'ι': 'i', 'κ': 'k', 'τ': 't', 'υ': 'u', 'ε': 'e',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Χ': 'X', 'Υ': 'Y', 'Ζ': 'Z',
}

// foldLookalikes returns s with look-alike letters replaced and, when any
// was, offs mapping every byte offset of the view (and its end) to the
// offset in s; offs is nil when the view is s.
func foldLookalikes(s string) (string, []int) {
	if isASCII(s) {
		return s, nil
	}
	// Look-alikes are all in U+0250–U+058F: UTF-8 lead bytes C9–D6.
	found := false
	for i := 0; i < len(s) && !found; i++ {
		if s[i] >= 0xC9 && s[i] <= 0xD6 {
			r, _ := utf8.DecodeRuneInString(s[i:])
			_, found = lookalikes[r]
		}
	}
	if !found {
		return s, nil
	}
	var b strings.Builder
	offs := make([]int, 0, len(s)+1)
	for i, r := range s {
		if l, ok := lookalikes[r]; ok {
			b.WriteRune(l)
			offs = append(offs, i)
			continue
		}
		n := utf8.RuneLen(r)
		if r == utf8.RuneError {
			n = 3 // ToValidUTF8 ran before: U+FFFD is 3 bytes in s
		}
		b.WriteRune(r)
		for k := range n {
			offs = append(offs, i+k)
		}
	}
	offs = append(offs, len(s))
	return b.String(), offs
}

// sanitizeURL checks and cleans a result URL. It returns the URL to show
// and true, or "" and false when the result must be dropped; it counts
// FilteredUnsafeURLs and records dangerous schemes as a pattern.
func sanitizeURL(raw string, f *Flags) (string, bool) {
	s := strings.TrimSpace(strings.ToValidUTF8(raw, ""))
	s = removeInvisible(s, f)
	s = nfkc(s)
	drop := func(dangerous bool) (string, bool) {
		f.FilteredUnsafeURLs++
		if dangerous {
			f.addPattern(PatternUnsafeURLScheme)
		}
		return "", false
	}
	if s == "" {
		return drop(false)
	}
	scheme := ""
	if i := strings.IndexByte(s, ':'); i > 0 {
		scheme = strings.ToLower(strings.Join(strings.Fields(s[:i]), ""))
	}
	switch scheme {
	case "https":
	case "http", "ftp", "":
		return drop(false)
	default:
		return drop(true)
	}
	c, err := canonicalize(s)
	if err != nil {
		return drop(false)
	}
	return c.display, true
}

// publicHost reports whether a host name may appear in a result: not
// localhost, not an IP address of a private, loopback or link-local network.
func publicHost(host string) bool {
	if host == "" || host == "localhost" || strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".local") || strings.HasSuffix(host, ".internal") {
		return false
	}
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return a.IsGlobalUnicast() && !a.IsPrivate()
	}
	return strings.Contains(host, ".")
}

// asciiHost lower-cases a host and turns an internationalized name into
// its punycode form, so look-alike letters show.
func asciiHost(host string) (string, error) {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if isASCII(host) {
		return host, nil
	}
	return idna.Lookup.ToASCII(host)
}
