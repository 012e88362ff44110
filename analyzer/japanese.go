package analyzer

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/ikawaha/kagome-dict/dict"
	"github.com/ikawaha/kagome/v2/tokenizer"

	"lwr/config"
)

// Version identifies the analysis. An index built with another version is
// rebuilt: change it whenever tokens for the same text would change.
const Version = "ja-7"

// maxChunk bounds the text handed to kagome at once: its lattice grows with
// the input, so long lines are cut (at a space or 。 when one is near).
const maxChunk = 2048

// Kind says which path produced a token.
type Kind int

// Token kinds.
const (
	KindJapanese Kind = iota // a morpheme from kagome
	KindLatin                // a word, number or identifier in ASCII
)

func (k Kind) String() string {
	if k == KindLatin {
		return "latin"
	}
	return "japanese"
}

// Token is one analyzed word.
type Token struct {
	Term     string // the indexed form: folded, base form, long vowel folded
	Start    int    // byte offset of the word in the original text
	End      int    // byte offset after the word in the original text
	Position int    // 1-based; dropped words leave gaps
	Kind     Kind
	POS      string // part of speech of a Japanese token, two levels: "名詞,サ変接続"
	// Sub is the part of speech's third level, "" when there is none:
	// 一般 for the suffix 代 (名詞,接尾,一般), 形容動詞語幹 for 的.
	Sub string
	// Unknown: a Japanese token the dictionary does not know (kagome's
	// guess, e.g. a katakana compound such as リマインダーメール).
	Unknown bool
}

func (t Token) String() string {
	return fmt.Sprintf("%s@%d[%d:%d]", t.Term, t.Position, t.Start, t.End)
}

// Analyzer is the Japanese analyzer. It is safe for concurrent use; make
// one with New (Default is the one without a user dictionary).
type Analyzer struct {
	load   func() (*kagome, error)
	loaded atomic.Bool
	user   *UserDict // nil: none
}

// kagome is the tokenizer of an analyzer with the dictionaries it reads
// parts of speech from.
type kagome struct {
	tk   *tokenizer.Tokenizer
	dict *dict.Dict
	user *dict.UserDict // nil: none
	// unkPOS are the features of an unknown word that are its part of
	// speech (as Token.POS reads them).
	unkPOS [2]int
}

// Option configures an Analyzer.
type Option func(*Analyzer)

// WithUserDict makes the user dictionary's words single words of the
// analysis (nil: none).
func WithUserDict(ud *UserDict) Option { return func(a *Analyzer) { a.user = ud } }

// New returns an analyzer; the IPA dictionary (shared by all of them) is
// loaded on the first call that meets non-ASCII text.
func New(opts ...Option) *Analyzer {
	a := &Analyzer{}
	for _, o := range opts {
		o(a)
	}
	a.load = sync.OnceValues(func() (*kagome, error) {
		a.loaded.Store(true)
		k := &kagome{}
		topts := []tokenizer.Option{tokenizer.OmitBosEos()}
		if a.user != nil {
			topts = append(topts, tokenizer.UserDict(a.user.dict))
			k.user = a.user.dict
		}
		d, err := systemDict()
		if err != nil {
			return nil, err
		}
		if k.tk, err = tokenizer.New(d, topts...); err != nil {
			return nil, err
		}
		k.dict = d
		k.unkPOS = [2]int{0, 1}
		if v, ok := d.UnkDict.ContentsMeta[dict.POSStartIndex]; ok {
			k.unkPOS[0] = int(v)
		}
		if v, ok := d.UnkDict.ContentsMeta[dict.POSHierarchy]; ok {
			k.unkPOS[1] = k.unkPOS[0] + int(v)
		}
		return k, nil
	})
	return a
}

// FromConfig returns the analyzer of a configuration: with the user
// dictionary of search.user_dict, when one is set. A file that cannot be
// used is an error matching ErrUserDict.
func FromConfig(c config.Search) (*Analyzer, error) {
	ud, err := LoadUserDict(c.UserDict)
	if err != nil {
		return nil, err
	}
	return New(WithUserDict(ud)), nil
}

// Default returns the analyzer without a user dictionary, made once per
// process.
var Default = sync.OnceValue(func() *Analyzer { return New() })

// UserDictID identifies the analyzer's user dictionary (a hash of its
// words), "" without one: an index built with other words is rebuilt.
func (a *Analyzer) UserDictID() string {
	if a == nil || a.user == nil {
		return ""
	}
	return a.user.id
}

// Loaded reports whether the dictionary has been loaded.
func (a *Analyzer) Loaded() bool { return a.loaded.Load() }

// Preload loads the dictionary now rather than at the first Japanese text.
func (a *Analyzer) Preload() error {
	_, err := a.load()
	return err
}

// Tokens analyzes text. Lines are analyzed one at a time (a line never
// yields a token that spans a newline), so offsets and line numbers agree.
func (a *Analyzer) Tokens(text string) []Token {
	var out []Token
	a.each(text, true, func(t Token) { out = append(out, t) })
	return out
}

// maxColloquialTries bounds the って of one question QueryTokens reads
// (each one tried analyzes the question again).
const maxColloquialTries = 8

// QueryTokens analyzes a question as Tokens does, reading the colloquial
// って after a noun as は: kagome cuts 住宅手当ってもらえる as 住宅 手 当って
// (the verb 当たる), and 住宅手当は as 住宅 手当. The って is read so only
// where the noun it then ends is one the dictionary knows, of two
// characters or more or a suffix that ends a compound (電車代って; 取って,
// 使って stay verbs). Offsets are those of
// text (って and は、 are of one length).
func (a *Analyzer) QueryTokens(text string) []Token {
	toks := a.Tokens(text)
	alt := text
	for off, tries := 0, 0; tries < maxColloquialTries; {
		i := strings.Index(text[off:], "って")
		if i < 0 {
			break
		}
		i += off
		off = i + len("って")
		k := slices.IndexFunc(toks, func(t Token) bool { return t.End == i+len("っ") && strings.HasPrefix(t.POS, "動詞") })
		if k < 0 {
			continue
		}
		tries++
		try := alt[:i] + "は、" + alt[off:]
		tt := a.Tokens(try)
		for j, t := range tt {
			if t.End != i || t.Start > toks[k].Start || !strings.HasPrefix(t.POS, "名詞") || t.Unknown {
				continue
			}
			// A suffix that ends a compound counts as its noun (電車代って:
			// 電車 代, not the verb 代わる).
			compound := t.POS == "名詞,接尾" && j > 0 && tt[j-1].End == t.Start && strings.HasPrefix(tt[j-1].POS, "名詞")
			if utf8.RuneCountInString(try[t.Start:t.End]) >= 2 || compound {
				alt = try
				break
			}
		}
	}
	if alt == text {
		return toks
	}
	return a.Tokens(alt)
}

// Terms calls fn with the term of every token of text, in order: what
// Tokens yields without the offsets and parts of speech, which an index
// field without term vectors does not keep (and which cost the most to
// make after kagome itself).
func (a *Analyzer) Terms(text string, fn func(term string)) {
	a.each(text, false, func(t Token) { fn(t.Term) })
}

// each calls fn for every token of text; without full, the tokens have
// only their Term, Position and Kind.
func (a *Analyzer) each(text string, full bool, fn func(Token)) {
	pos := 0
	for off := 0; off <= len(text); {
		nl := strings.IndexByte(text[off:], '\n')
		end := len(text)
		if nl >= 0 {
			end = off + nl
		}
		pos = a.line(text[off:end], off, pos, full, fn)
		if nl < 0 {
			break
		}
		off = end + 1
	}
}

// line analyzes one line that starts at byte base of the text; pos is the
// last position used so far. It returns the last position used.
func (a *Analyzer) line(s string, base, pos int, full bool, fn func(Token)) int {
	for len(s) > maxChunk {
		cut := chunkCut(s, maxChunk)
		pos = a.line(s[:cut], base, pos, full, fn)
		s, base = s[cut:], base+cut
	}
	f := foldMapped(s, full)
	t := f.text
	// Split the folded line into ASCII runs (words, numbers, identifiers:
	// our own tokenizer) and other runs (Japanese: kagome).
	for i := 0; i < len(t); {
		j := i
		if t[i] < utf8.RuneSelf {
			for j < len(t) && t[j] < utf8.RuneSelf {
				j++
			}
			pos = latinTokens(t[i:j], pos+1, func(term string, x, y, p int) {
				if !full {
					fn(Token{Term: term, Position: p, Kind: KindLatin})
					return
				}
				a0, b0 := f.orig(i+x, i+y)
				fn(Token{Term: term, Start: base + a0, End: base + b0, Position: p, Kind: KindLatin})
			}) - 1
		} else {
			for j < len(t) && t[j] >= utf8.RuneSelf {
				j++
			}
			pos = a.japanese(t[i:j], full, func(term, pos1, sub string, unknown bool, x, y, p int) {
				if !full {
					fn(Token{Term: term, Position: p, Kind: KindJapanese})
					return
				}
				a0, b0 := f.orig(i+x, i+y)
				fn(Token{Term: term, Start: base + a0, End: base + b0, Position: p, Kind: KindJapanese, POS: pos1, Sub: sub, Unknown: unknown})
			}, pos)
		}
		i = j
	}
	return pos
}

// japanese runs kagome over a folded run of non-ASCII text; without full,
// the tokens' parts of speech are not made ("").
func (a *Analyzer) japanese(run string, full bool, emit func(term, pos, sub string, unknown bool, x, y, p int), pos int) int {
	k, err := a.load()
	if err != nil {
		// The embedded dictionary cannot fail to load short of memory
		// corruption; fall back to one token per run rather than lose text.
		emit(run, "", "", true, 0, len(run), pos+1)
		return pos + 1
	}
	toks := k.tk.Analyze(run, tokenizer.Search)
	for _, t := range toks {
		p := pos + 1 + t.Index
		f, n := k.pos(t)
		term, ok := keep(t, f, n)
		if !ok {
			continue
		}
		var pos1, sub string
		if full {
			pos1 = f[0]
			if n > 1 && f[1] != "*" {
				pos1 += "," + f[1]
			}
			if n > 2 && f[2] != "*" {
				sub = f[2]
			}
		}
		emit(term, pos1, sub, t.Class == tokenizer.UNKNOWN, t.Position, t.Position+len(t.Surface), p)
	}
	return pos + len(toks)
}

// pos returns the first three levels of a token's part of speech and how
// many it has: Token.POS()[:3] and len(Token.POS()), without making the
// slice.
func (k *kagome) pos(t tokenizer.Token) (f [3]string, n int) {
	switch t.Class {
	case tokenizer.KNOWN:
		ids := k.dict.POSTable.POSs[t.ID]
		for i := 0; i < len(ids) && i < len(f); i++ {
			f[i] = k.dict.POSTable.NameList[ids[i]]
		}
		return f, len(ids)
	case tokenizer.UNKNOWN:
		start, end := k.unkPOS[0], k.unkPOS[1]
		feature := k.dict.UnkDict.Contents[t.ID]
		if start >= end || end > len(feature) {
			return f, 0
		}
		copy(f[:], feature[start:end])
		return f, end - start
	case tokenizer.USER:
		f[0] = k.user.Contents[t.ID].Pos
		return f, 1
	}
	return f, 0
}

// dropPOS lists parts of speech (first level) that are never indexed.
var dropPOS = map[string]bool{
	"助詞": true, "助動詞": true, "記号": true, "フィラー": true,
	"感動詞": true, "接続詞": true, "連体詞": true, "その他": true,
}

// dropPOS2 lists (first, second level) pairs that are never indexed:
// dependent words that only lean on their neighbour.
var dropPOS2 = map[[2]string]bool{
	{"名詞", "非自立"}: true,
	{"動詞", "非自立"}: true, {"動詞", "接尾"}: true, {"形容詞", "非自立"}: true,
}

// keep decides whether a kagome token, of the part of speech f (n levels,
// see kagome.pos), is indexed and returns its term.
func keep(t tokenizer.Token, f [3]string, n int) (term string, ok bool) {
	if n == 0 {
		return "", false
	}
	if dropPOS[f[0]] {
		return "", false
	}
	if n > 1 && dropPOS2[[2]string{f[0], f[1]}] {
		return "", false
	}
	term = t.Surface
	if f[0] == "動詞" || f[0] == "形容詞" {
		if bf, ok := t.BaseForm(); ok && bf != "" && bf != "*" {
			term = Fold(bf)
		}
	}
	term = foldLongVowel(term)
	if term == "" || len(term) > maxTermBytes || japaneseStop[term] {
		return "", false
	}
	if isSpaceOrPunct(term) {
		return "", false
	}
	return term, true
}

// foldLongVowel drops the prolonged sound mark at the end of a katakana word
// of four or more characters (コンピューター → コンピュータ), as Lucene's
// kuromoji stemmer does.
func foldLongVowel(s string) string {
	if !strings.HasSuffix(s, "ー") {
		return s
	}
	n := 0
	for _, r := range s {
		if !isKatakana(r) {
			return s
		}
		n++
	}
	for n >= 4 && strings.HasSuffix(s, "ー") {
		s = strings.TrimSuffix(s, "ー")
		n--
	}
	return s
}

func isKatakana(r rune) bool {
	return r >= 0x30A1 && r <= 0x30FA || r == 0x30FC
}

func isSpaceOrPunct(s string) bool {
	for _, r := range s {
		if r > ' ' && r != 0x3000 && r != 0x30FB {
			return false
		}
	}
	return true
}

// chunkCut finds where to cut a long line near n bytes: after the last
// space or 。 in the second half, else at a rune boundary.
func chunkCut(s string, n int) int {
	for i := n; i > n/2; i-- {
		if s[i-1] == ' ' || s[i-1] == '\t' {
			return i
		}
		if i >= 3 && s[i-3:i] == "。" {
			return i
		}
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}
