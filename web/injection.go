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
	// also, when set, must match somewhere in the text too.
	also *regexp.Regexp
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

// The English families of "ignore what came before": a verb, up to eight
// filler words ("the", "everything", "what you were told"), then either a
// qualifier with a noun ("previous instructions") or "above"/"before" at
// the end of a clause ("Ignore the above and …", "… above this line"),
// which "ignore the above error" is not.
const (
	enFiller = `(?:(?:all|any|the|your|my|of|these|those|everything|anything|what|that|which|you|were|was|have|been|told|said|given|written|stated|so|far|up|to|this|point|in|and)\s+){0,8}`
	enPrior  = `(?:(?:previous|prior|above|earlier|preceding|former|original|initial|system|developer)\s+(?:instructions?|prompts?|rules|directions|guidelines|messages?|context|commands?|orders)|(?:above|before|previously)(?:\s*[.,;:!]|\s+(?:and|then|instead)\b|\s*$)|above\s+this\s+(?:line|point|message|text)\b|(?:text|content|messages?|instructions?|words)\s+(?:above|before)\b)`
)

func newInjections() []injection {
	return []injection{
		{category: PatternIgnoreInstructions, words: []string{"ignore", "disregard", "override", "bypass", "neglect"}, wordStart: true,
			re: regexp.MustCompile(`(?:ignore|disregard|override|bypass|neglect)\s+` + enFiller + enPrior)},
		{category: PatternIgnoreInstructions, words: []string{"forget"}, wordStart: true, re: regexp.MustCompile(`forget\s+(?:everything|all\b|` + enFiller + enPrior + `)`)},
		{category: PatternIgnoreInstructions, words: []string{"follow", "obey"}, wordStart: true,
			re: regexp.MustCompile(`(?:do\s+not|don't|dont|never|stop)\s+(?:following|follow|obeying|obey)\s+(?:(?:the|your|any|all|these|those)\s+){0,3}(?:previous|prior|above|earlier|original|initial|system|developer)\s+(?:instructions?|prompts?|rules|directions|guidelines)`)},
		{category: PatternIgnoreInstructions, runes: []rune{'無', '忘', '破'}, around: []string{"無視", "忘れ", "破棄"}, back: 160, fwd: 40,
			re: regexp.MustCompile(`(?:前|以前|これまで|今まで|ここまで|上記|上述|前述|以上|冒頭|先ほど|先程|過去|元|最初)の(?:(?:全て|すべて|全部)の)?(?:指示|命令|指令|ルール|プロンプト|設定|制約|内容|文章|文|説明|テキスト|会話|メッセージ)(?:を|は|も)\s?(?:(?:全て|すべて|全部)\s?)?(?:無視|忘れ|破棄)|(?:上記|上述|前述|以上|これまで|ここまで)(?:の(?:こと|もの|全て|すべて))?を\s?(?:(?:全て|すべて|全部)\s?)?(?:無視|忘れ)|(?:指示|命令|指令|ルール|制約)を\s?(?:(?:全て|すべて|全部)\s?)?(?:無視|忘れ)(?:して|しろ|せよ|なさい|てください|ること|し)`)},
		{category: PatternPromptLeak, words: []string{"prompt", "prompts", "instructions"}, wordStart: true,
			re: regexp.MustCompile(`(?:reveal|print|show|output|repeat|display|leak|dump|tell\s+me|give\s+me|what\s+(?:is|are))\s+(?:me\s+)?(?:all\s+)?(?:your\s+(?:(?:system|initial|original|hidden|secret|full|exact)\s+)?|the\s+(?:system|initial|original|hidden|secret)\s+)(?:prompts?|instructions)\b`)},
		{category: PatternRoleMarker, words: []string{"system"}, wordStart: true, re: regexp.MustCompile(`system\s*:`)},
		{category: PatternRoleMarker, words: []string{"instruction", "instructions"}, wordStart: true, around: []string{"instruction"}, back: 12, fwd: 20, re: regexp.MustCompile(`(?:new|updated|real|actual)\s+instructions?\s*:`)},
		// A chat transcript: an assistant turn and a human or user turn in
		// the same text ("User: admin" alone is ordinary documentation).
		{category: PatternRoleMarker, words: []string{"assistant"}, wordStart: true, re: regexp.MustCompile(`assistant\s*:`), also: regexp.MustCompile(`(?:^|[^a-z0-9_])(?:human|user)\s*:`)},
		{category: PatternRoleMarker, words: []string{"human", "user"}, wordStart: true, re: regexp.MustCompile(`(?:human|user)\s*:`), also: regexp.MustCompile(`(?:^|[^a-z0-9_])assistant\s*:`)},
		{category: PatternRoleMarker, runes: []rune{'シ'}, re: regexp.MustCompile(`システム\s*(?::|プロンプトを(?:表示|出力|開示|教え|無視))`)},
		{category: PatternRoleMarker, runes: []rune{'指', '命'}, around: []string{"指示", "命令"}, back: 16, fwd: 16, re: regexp.MustCompile(`(?:新しい|新たな|本当の)(?:指示|命令)\s*:`)},
		// A template token and the role it opens (the rest stays, in order).
		{category: PatternChatTemplate, bytes: "<", re: regexp.MustCompile(`<\|[a-z_ ]{2,24}\|>(?:\s*(?:system|user|assistant|developer)\b)?`)},
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
	view, offs := matchView(s)
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
		if mask&(1<<i) == 0 || inj.also != nil && !inj.also.MatchString(view) {
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

// matchView is the text the patterns run on, and the byte offsets in s
// of its bytes (nil when it is s): look-alike letters folded to Latin,
// letters spaced out to hide a word joined ("i g n o r e", "i.g.n.o.r.e"),
// and hyphens and underscores between words read as spaces
// ("ignore-previous-instructions").
func matchView(s string) (string, []int) {
	view, offs := foldLookalikes(s)
	return joinSpaced(view, offs)
}

// joinSpaced joins runs of four or more single ASCII letters, each
// separated by one space, dot, hyphen, underscore or asterisk, and turns
// a hyphen or underscore between two letters into a space; offs (nil:
// the identity) maps view offsets to the original's and is composed.
func joinSpaced(v string, offs []int) (string, []int) {
	sep := func(c byte) bool { return c == ' ' || c == '.' || c == '-' || c == '_' || c == '*' }
	single := func(i int) bool { // v[i] is a letter standing alone
		return isASCIILetter(v[i]) && (i == 0 || !isWordByte(v[i-1]) || sep(v[i-1])) && (i+1 == len(v) || !isASCIILetter(v[i+1]))
	}
	var b []byte
	var out []int
	at := func(i int) int {
		if offs == nil {
			return i
		}
		return offs[i]
	}
	start := func(upto int) { // copy v[:upto] on first change
		if b == nil {
			b = make([]byte, 0, len(v))
			out = make([]int, 0, len(v)+1)
			for k := 0; k < upto; k++ {
				b = append(b, v[k])
				out = append(out, at(k))
			}
		}
	}
	for i := 0; i < len(v); {
		if single(i) && (i == 0 || !isASCIILetter(v[i-1])) {
			n, j := 1, i
			for j+2 < len(v) && sep(v[j+1]) && v[j+1] == v[i+1] && single(j+2) {
				n, j = n+1, j+2
			}
			if n >= 4 {
				start(i)
				for k := i; k <= j; k += 2 {
					b = append(b, v[k])
					out = append(out, at(k))
				}
				i = j + 1
				continue
			}
		}
		c := v[i]
		if (c == '-' || c == '_') && i > 0 && i+1 < len(v) && isASCIILetter(v[i-1]) && isASCIILetter(v[i+1]) {
			start(i)
			c = ' '
		}
		if b != nil {
			b = append(b, c)
			out = append(out, at(i))
		}
		i++
	}
	if b == nil {
		return v, offs
	}
	out = append(out, at(len(v)))
	return string(b), out
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
