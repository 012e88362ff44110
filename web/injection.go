package web

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

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
