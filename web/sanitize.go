package web

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

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
	PatternPromptLeak         = "prompt_leak"         // "reveal your system prompt", "print your instructions"
	PatternRoleMarker         = "role_marker"         // "system:", "new instructions:", "Human: … Assistant:", システム:
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
